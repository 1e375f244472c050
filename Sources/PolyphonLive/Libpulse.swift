#if !canImport(Darwin)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// libpulse-simple (PulseAudio's blocking client API), loaded at run time with `dlopen`.
final class Libpulse: @unchecked Sendable {
    // @unchecked: immutable after init; each pa_simple handle is used by one thread at a time.

    static let installAdvice = "install libpulse0 (Debian/Ubuntu: apt install libpulse0) and run a PulseAudio or PipeWire server"
    static let libraryName = "libpulse-simple.so.0"

    let simpleNew: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>?,
                                   UnsafePointer<CChar>, UnsafeRawPointer, UnsafeRawPointer?, UnsafeRawPointer?,
                                   UnsafeMutablePointer<Int32>?) -> OpaquePointer?
    let simpleWrite: @convention(c) (OpaquePointer, UnsafeRawPointer, Int, UnsafeMutablePointer<Int32>?) -> Int32
    let simpleDrain: @convention(c) (OpaquePointer, UnsafeMutablePointer<Int32>?) -> Int32
    let simpleGetLatency: @convention(c) (OpaquePointer, UnsafeMutablePointer<Int32>?) -> UInt64
    let simpleFree: @convention(c) (OpaquePointer) -> Void
    let strerror: @convention(c) (Int32) -> UnsafePointer<CChar>?

    static func shared() throws(AudioOutputError) -> Libpulse {
        switch loaded {
        case .success(let library): return library
        case .failure(let error): throw error
        }
    }

    private static let loaded: Result<Libpulse, AudioOutputError> = {
        guard let handle = dlopen(libraryName, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            return .failure(.libraryUnavailable(backend: "pulse", library: libraryName,
                                                advice: "\(reason); \(installAdvice)"))
        }
        func f<T>(_ name: String) throws(AudioOutputError) -> T {
            // dlsym on the handle also searches libpulse.so.0, which pa_strerror lives in.
            guard let address = dlsym(handle, name) else {
                throw .libraryUnavailable(backend: "pulse", library: libraryName, advice: "it has no \(name); \(installAdvice)")
            }
            return unsafeBitCast(address, to: T.self)
        }
        do throws(AudioOutputError) {
            return .success(try Libpulse(simpleNew: f("pa_simple_new"), simpleWrite: f("pa_simple_write"),
                                         simpleDrain: f("pa_simple_drain"), simpleGetLatency: f("pa_simple_get_latency"),
                                         simpleFree: f("pa_simple_free"), strerror: f("pa_strerror")))
        } catch {
            dlclose(handle)
            return .failure(error)
        }
    }()

    private init(simpleNew: @escaping @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>?,
                                                     UnsafePointer<CChar>, UnsafeRawPointer, UnsafeRawPointer?, UnsafeRawPointer?,
                                                     UnsafeMutablePointer<Int32>?) -> OpaquePointer?,
                 simpleWrite: @escaping @convention(c) (OpaquePointer, UnsafeRawPointer, Int, UnsafeMutablePointer<Int32>?) -> Int32,
                 simpleDrain: @escaping @convention(c) (OpaquePointer, UnsafeMutablePointer<Int32>?) -> Int32,
                 simpleGetLatency: @escaping @convention(c) (OpaquePointer, UnsafeMutablePointer<Int32>?) -> UInt64,
                 simpleFree: @escaping @convention(c) (OpaquePointer) -> Void,
                 strerror: @escaping @convention(c) (Int32) -> UnsafePointer<CChar>?) {
        self.simpleNew = simpleNew
        self.simpleWrite = simpleWrite
        self.simpleDrain = simpleDrain
        self.simpleGetLatency = simpleGetLatency
        self.simpleFree = simpleFree
        self.strerror = strerror
    }

    func message(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}

/// PulseAudio's `pa_sample_spec`: an enum (int), a uint32 rate and a uint8 channel count,
/// padded to 12 bytes.
struct PulseSampleSpec {
    var format: Int32
    var rate: UInt32
    var channels: UInt8
    static let float32LE: Int32 = 5
}

/// PulseAudio's `pa_buffer_attr`: five uint32 byte counts; `UInt32.max` means "server default".
struct PulseBufferAttributes {
    var maxLength: UInt32
    var targetLength: UInt32
    var prebuffer: UInt32
    var minimumRequest: UInt32
    var fragmentSize: UInt32
}
#endif
