#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// libsndfile, loaded at run time with `dlopen` so that Polyphon builds and runs without it and
/// uses it only for the formats it does not write itself (FLAC, Ogg Vorbis, Opus, MP3).
///
/// The library is looked up as ``environmentVariable`` names it, else by its usual names:
/// `libsndfile.so.1` on Linux, `libsndfile.1.dylib` (and the Homebrew and MacPorts paths) on macOS.
public final class Libsndfile: @unchecked Sendable {
    // @unchecked: the stored properties are immutable after init, and libsndfile's functions
    // are safe to call from several threads on different SNDFILE handles.

    /// The environment variable that overrides where libsndfile is loaded from.
    public static let environmentVariable = "POLYPHON_LIBSNDFILE"

    /// The one-line advice shown when the library is missing.
    public static let installAdvice =
        "install libsndfile (Debian/Ubuntu: apt install libsndfile1, macOS: brew install libsndfile)"

    /// The names tried when no path is given, in order.
    public static var defaultCandidates: [String] {
        #if canImport(Darwin)
        ["libsndfile.1.dylib", "/opt/homebrew/lib/libsndfile.1.dylib",
         "/usr/local/lib/libsndfile.1.dylib", "/opt/local/lib/libsndfile.1.dylib"]
        #else
        ["libsndfile.so.1", "libsndfile.so"]
        #endif
    }

    /// The name or path the library was loaded from.
    public let libraryPath: String
    /// The library's own version string, such as `"libsndfile-1.2.0"`.
    public let version: String

    private let handle: UnsafeMutableRawPointer
    // The C signatures, with sf_count_t as Int64, SNDFILE* as OpaquePointer and SF_INFO* as a
    // raw pointer to an ``SFInfo`` (a Swift struct cannot appear in a C function type).
    typealias OpenFunction = @convention(c) (UnsafePointer<CChar>, Int32, UnsafeMutableRawPointer) -> OpaquePointer?
    typealias WriteFloatFunction = @convention(c) (OpaquePointer, UnsafePointer<Float>, Int64) -> Int64
    typealias ReadFloatFunction = @convention(c) (OpaquePointer, UnsafeMutablePointer<Float>, Int64) -> Int64
    typealias CloseFunction = @convention(c) (OpaquePointer) -> Int32
    typealias ErrorStringFunction = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    typealias CommandFunction = @convention(c) (OpaquePointer?, Int32, UnsafeMutableRawPointer?, Int32) -> Int32
    typealias FormatCheckFunction = @convention(c) (UnsafeRawPointer) -> Int32
    typealias VersionFunction = @convention(c) () -> UnsafePointer<CChar>?

    let sfOpen: OpenFunction
    let sfWritefFloat: WriteFloatFunction
    let sfReadfFloat: ReadFloatFunction
    let sfClose: CloseFunction
    let sfStrerror: ErrorStringFunction
    let sfCommand: CommandFunction
    let sfFormatCheck: FormatCheckFunction

    /// Loads libsndfile from `path`, or from ``environmentVariable`` if set, or from
    /// ``defaultCandidates``.
    ///
    /// - Throws: ``AudioFileError/libraryUnavailable(path:reason:)`` whose `path` is the library
    ///   tried and whose reason tells how to install it.
    public static func load(path: String? = nil) throws -> Libsndfile {
        let override = getenv(environmentVariable).map { String(cString: $0) }
        return try load(candidates: candidates(path: path, environmentOverride: override))
    }

    /// The names to try: an explicit path, else a non-empty override, else the defaults.
    static func candidates(path: String?, environmentOverride: String?) -> [String] {
        if let path { return [path] }
        if let environmentOverride, !environmentOverride.isEmpty { return [environmentOverride] }
        return defaultCandidates
    }

    /// Loads the first of `candidates` that opens.
    static func load(candidates: [String]) throws -> Libsndfile {
        var firstFailure = ""
        for candidate in candidates {
            if let handle = dlopen(candidate, RTLD_NOW | RTLD_LOCAL) {
                return try Libsndfile(handle: handle, libraryPath: candidate)
            }
            if firstFailure.isEmpty {
                firstFailure = dlerror().map { String(cString: $0) } ?? "\(candidate) not found"
            }
        }
        throw AudioFileError.libraryUnavailable(
            path: candidates.first ?? "libsndfile",
            reason: "libsndfile could not be loaded (\(firstFailure)); \(installAdvice)")
    }

    /// Loads libsndfile (as ``load(path:)`` does), reporting a failure against the audio file
    /// that needed it.
    static func load(forFile file: String, path: String? = nil) throws -> Libsndfile {
        do {
            return try load(path: path)
        } catch AudioFileError.libraryUnavailable(_, let reason) {
            throw AudioFileError.libraryUnavailable(path: file, reason: reason)
        }
    }

    private init(handle: UnsafeMutableRawPointer, libraryPath: String) throws {
        func symbol<T>(_ name: String, as type: T.Type) throws -> T {
            guard let address = dlsym(handle, name) else {
                dlclose(handle)
                throw AudioFileError.libraryUnavailable(
                    path: libraryPath, reason: "\(libraryPath) has no \(name); is it libsndfile? \(Libsndfile.installAdvice)")
            }
            return unsafeBitCast(address, to: type)
        }
        self.handle = handle
        self.libraryPath = libraryPath
        sfOpen = try symbol("sf_open", as: OpenFunction.self)
        sfWritefFloat = try symbol("sf_writef_float", as: WriteFloatFunction.self)
        sfReadfFloat = try symbol("sf_readf_float", as: ReadFloatFunction.self)
        sfClose = try symbol("sf_close", as: CloseFunction.self)
        sfStrerror = try symbol("sf_strerror", as: ErrorStringFunction.self)
        sfCommand = try symbol("sf_command", as: CommandFunction.self)
        sfFormatCheck = try symbol("sf_format_check", as: FormatCheckFunction.self)
        let versionFunction = try symbol("sf_version_string", as: VersionFunction.self)
        version = versionFunction().map { String(cString: $0) } ?? "libsndfile (unknown version)"
    }

    deinit { dlclose(handle) }

    /// libsndfile's message for the last error on `file` (or of the last failed `sf_open`).
    func lastError(_ file: OpaquePointer?) -> String {
        sfStrerror(file).map { String(cString: $0) } ?? "unknown error"
    }

    /// Whether this build of libsndfile can write `format` with `sampleFormat`.
    public func canWrite(_ format: AudioFileFormat, sampleFormat: SampleFormat = .int16,
                         channelCount: Int = 2, sampleRate: Double = 48_000) -> Bool {
        guard let code = SndfileFormat.code(for: format, sampleFormat: sampleFormat) else { return false }
        var info = SFInfo(sampleRate: Int32(sampleRate), channels: Int32(channelCount), format: code)
        return sfFormatCheck(&info) != 0
    }
}

/// libsndfile's `SF_INFO`. Its first field is `sf_count_t`, a 64-bit integer on every 64-bit
/// platform (and on 32-bit ones built with large-file support), so the C struct is
/// 8 + 5 × 4 = 28 bytes padded to 32. libsndfile clears the whole struct with `memset`, so the
/// Swift side must own all 32 bytes: hence the explicit padding, checked by a test.
struct SFInfo {
    var frames: Int64 = 0
    var sampleRate: Int32 = 0
    var channels: Int32 = 0
    var format: Int32 = 0
    var sections: Int32 = 0
    var seekable: Int32 = 0
    private var padding: Int32 = 0

    init(frames: Int64 = 0, sampleRate: Int32 = 0, channels: Int32 = 0, format: Int32 = 0) {
        self.frames = frames
        self.sampleRate = sampleRate
        self.channels = channels
        self.format = format
    }
}

/// libsndfile's constants from `sndfile.h` that Polyphon uses.
enum SndfileFormat {
    static let modeRead: Int32 = 0x10
    static let modeWrite: Int32 = 0x20

    static let typeWAV: Int32 = 0x01_0000
    static let typeAIFF: Int32 = 0x02_0000
    static let typeWAVEX: Int32 = 0x13_0000
    static let typeFLAC: Int32 = 0x17_0000
    static let typeCAF: Int32 = 0x18_0000
    static let typeOgg: Int32 = 0x20_0000
    static let typeMPEG: Int32 = 0x23_0000
    static let typeMask: Int32 = 0x0FFF_0000

    static let pcmS8: Int32 = 0x0001
    static let pcm16: Int32 = 0x0002
    static let pcm24: Int32 = 0x0003
    static let pcm32: Int32 = 0x0004
    static let pcmU8: Int32 = 0x0005
    static let float32: Int32 = 0x0006
    static let float64: Int32 = 0x0007
    static let vorbis: Int32 = 0x0060
    static let opus: Int32 = 0x0064
    static let mpegLayerI: Int32 = 0x0080
    static let mpegLayerII: Int32 = 0x0081
    static let mpegLayerIII: Int32 = 0x0082
    static let subtypeMask: Int32 = 0x0000_FFFF

    static let commandSetClipping: Int32 = 0x10C0
    static let commandGetInstrument: Int32 = 0x10D0
    static let commandSetCompressionLevel: Int32 = 0x1301

    /// The `SF_FORMAT_*` code for writing, or `nil` for a combination libsndfile cannot store.
    static func code(for format: AudioFileFormat, sampleFormat: SampleFormat) -> Int32? {
        let pcm = sampleFormat == .int16 ? pcm16 : sampleFormat == .int24 ? pcm24 : float32
        switch format {
        case .wav: return typeWAV | pcm
        case .aiff: return typeAIFF | pcm
        case .caf: return typeCAF | pcm
        case .flac: return sampleFormat.isInteger ? typeFLAC | pcm : nil
        case .ogg: return typeOgg | vorbis
        case .opus: return typeOgg | opus
        case .mp3: return typeMPEG | mpegLayerIII
        }
    }

    /// The Polyphon format and sample encoding of a `SF_FORMAT_*` code read from a file.
    static func describe(_ code: Int32) -> (AudioFileFormat?, SampleEncoding) {
        let subtype = code & subtypeMask
        let format: AudioFileFormat?
        switch code & typeMask {
        case typeWAV, typeWAVEX: format = .wav
        case typeAIFF: format = .aiff
        case typeCAF: format = .caf
        case typeFLAC: format = .flac
        case typeOgg: format = subtype == opus ? .opus : .ogg
        case typeMPEG: format = .mp3
        default: format = nil
        }
        let encoding: SampleEncoding
        switch subtype {
        case pcmS8: encoding = .signedInteger(bits: 8)
        case pcm16: encoding = .signedInteger(bits: 16)
        case pcm24: encoding = .signedInteger(bits: 24)
        case pcm32: encoding = .signedInteger(bits: 32)
        case pcmU8: encoding = .unsignedInteger(bits: 8)
        case float32: encoding = .float(bits: 32)
        case float64: encoding = .float(bits: 64)
        case vorbis: encoding = .compressed("Vorbis")
        case opus: encoding = .compressed("Opus")
        case mpegLayerI, mpegLayerII, mpegLayerIII: encoding = .compressed("MPEG")
        default: encoding = .compressed("libsndfile subtype 0x" + String(subtype, radix: 16))
        }
        return (format, encoding)
    }
}
