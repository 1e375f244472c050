#if !canImport(Darwin)
import PolyphonDynamicLibrary

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

    static func shared() throws(AudioOutputError) -> Libpulse { try loaded.get() }

    private static let loaded: Result<Libpulse, AudioOutputError> = {
        do throws(DynamicLibrary.Failure) {
            return .success(try Libpulse(library: DynamicLibrary(firstOf: [libraryName])))
        } catch {
            return .failure(.libraryUnavailable(backend: "pulse", library: libraryName, advice: "\(error); \(installAdvice)"))
        }
    }()

    private let library: DynamicLibrary

    private init(library: DynamicLibrary) throws(DynamicLibrary.Failure) {
        self.library = library
        simpleNew = try library.symbol("pa_simple_new")
        simpleWrite = try library.symbol("pa_simple_write")
        simpleDrain = try library.symbol("pa_simple_drain")
        simpleGetLatency = try library.symbol("pa_simple_get_latency")
        simpleFree = try library.symbol("pa_simple_free")
        // dlsym on the handle also searches libpulse.so.0, which pa_strerror lives in.
        strerror = try library.symbol("pa_strerror")
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
