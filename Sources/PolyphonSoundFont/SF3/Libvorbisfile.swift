import PolyphonDynamicLibrary
#if canImport(Glibc)
import PolyphonSoundFontCore
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// libvorbisfile, loaded at run time with `dlopen` so Polyphon builds without it and needs it only
/// to play SF3 banks, whose samples are Ogg Vorbis streams.
///
/// The library is looked up as ``environmentVariable`` names it, else by its usual names:
/// `libvorbisfile.so.3` on Linux, `libvorbisfile.3.dylib` (and the Homebrew and MacPorts paths)
/// on macOS. Loaded once per process (see ``shared``).
///
/// Streams are opened with `ov_open` over a `fmemopen` stream of the Ogg bytes rather than with
/// `ov_open_callbacks`: the latter takes its callback table *by value*, a C struct that a Swift
/// `@convention(c)` function type cannot carry portably (it travels on the stack on x86-64 and by
/// reference on arm64). `fmemopen` is POSIX (glibc, musl, macOS 10.13+) and reads memory in place.
public final class Libvorbisfile: @unchecked Sendable {
    // @unchecked: the stored properties are immutable after init, and libvorbisfile's functions
    // are safe on different OggVorbis_File structs from different threads.

    /// The environment variable that overrides where libvorbisfile is loaded from.
    public static let environmentVariable = "POLYPHON_LIBVORBISFILE"

    /// The one-line advice shown when the library is missing.
    public static let installAdvice =
        "install libvorbisfile (Debian/Ubuntu: apt install libvorbisfile3, macOS: brew install libvorbis)"

    /// The names tried when no path is given, in order.
    public static var defaultCandidates: [String] {
        #if canImport(Darwin)
        ["libvorbisfile.3.dylib", "/opt/homebrew/lib/libvorbisfile.3.dylib",
         "/usr/local/lib/libvorbisfile.3.dylib", "/opt/local/lib/libvorbisfile.3.dylib"]
        #else
        ["libvorbisfile.so.3", "libvorbisfile.so"]
        #endif
    }

    /// Bytes reserved for one `OggVorbis_File`. The struct is about 950 bytes on 64-bit
    /// platforms (its layout is private to the library version); 4 KiB leaves ample room.
    static let fileStructSize = 4096

    /// The library loaded from the default place, or why it could not be (loaded on first use).
    public static let shared: Result<Libvorbisfile, SampleDecodingError> = {
        do {
            return .success(try load())
        } catch let error as SampleDecodingError {
            return .failure(error)
        } catch {
            return .failure(SampleDecodingError(kind: .libraryUnavailable("\(error)")))
        }
    }()

    /// The name or path the library was loaded from.
    public let libraryPath: String

    private let library: DynamicLibrary
    // C signatures with OggVorbis_File* as a raw pointer and FILE* as a raw pointer.
    typealias OpenFunction = @convention(c) (
        UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafePointer<CChar>?, Int) -> Int32
    typealias ReadFunction = @convention(c) (
        UnsafeMutableRawPointer, UnsafeMutablePointer<CChar>, Int32, Int32, Int32, Int32,
        UnsafeMutablePointer<Int32>?) -> Int
    typealias InfoFunction = @convention(c) (UnsafeMutableRawPointer, Int32) -> UnsafeRawPointer?
    typealias PCMTotalFunction = @convention(c) (UnsafeMutableRawPointer, Int32) -> Int64
    typealias ClearFunction = @convention(c) (UnsafeMutableRawPointer) -> Int32

    let ovOpen: OpenFunction
    let ovRead: ReadFunction
    let ovInfo: InfoFunction
    let ovPCMTotal: PCMTotalFunction
    let ovClear: ClearFunction

    /// Loads libvorbisfile from `path`, or from ``environmentVariable`` if set, or from
    /// ``defaultCandidates``.
    /// - Throws: ``SampleDecodingError`` of kind ``SampleDecodingError/Kind/libraryUnavailable(_:)``
    ///   whose text says how to install the library.
    public static func load(path: String? = nil) throws -> Libvorbisfile {
        let candidates = DynamicLibrary.candidates(path: path, environmentVariable: environmentVariable,
                                                   defaults: defaultCandidates)
        do throws(DynamicLibrary.LoadFailure) {
            return try DynamicLibrary.load("libvorbisfile", from: candidates, as: Libvorbisfile.init(library:))
        } catch {
            throw SampleDecodingError(kind: .libraryUnavailable("\(error.message); \(installAdvice)"))
        }
    }

    private init(library: DynamicLibrary) throws(DynamicLibrary.Failure) {
        self.library = library
        libraryPath = library.path
        ovOpen = try library.symbol("ov_open")
        ovRead = try library.symbol("ov_read")
        ovInfo = try library.symbol("ov_info")
        ovPCMTotal = try library.symbol("ov_pcm_total")
        ovClear = try library.symbol("ov_clear")
    }

    /// Decodes one complete Ogg Vorbis stream held in memory to 16-bit PCM.
    ///
    /// Multi-channel streams keep their first channel only: SF3 stores each half of a stereo
    /// pair as its own mono stream, so a second channel would be a writer's mistake.
    /// - Returns: the points of the first channel and the stream's sample rate.
    /// - Throws: ``SampleDecodingError`` of kind ``SampleDecodingError/Kind/invalidStream(_:)``.
    public func decode(_ ogg: UnsafeRawBufferPointer) throws -> (pcm: [Int16], sampleRate: Int) {
        guard let base = ogg.baseAddress, ogg.count > 0 else {
            throw SampleDecodingError(kind: .invalidStream("empty Ogg stream"))
        }
        // fmemopen takes a mutable pointer but only reads in mode "rb".
        guard let stream = fmemopen(UnsafeMutableRawPointer(mutating: base), ogg.count, "rb") else {
            throw SampleDecodingError(kind: .invalidStream("fmemopen failed (\(errno))"))
        }
        let vf = UnsafeMutableRawPointer.allocate(byteCount: Self.fileStructSize, alignment: 16)
        vf.initializeMemory(as: UInt8.self, repeating: 0, count: Self.fileStructSize)
        defer { vf.deallocate() }
        let opened = ovOpen(UnsafeMutableRawPointer(stream), vf, nil, 0)
        guard opened == 0 else {
            // On failure ov_open leaves the FILE to the caller.
            fclose(stream)
            throw SampleDecodingError(kind: .invalidStream("not a Vorbis stream (ov_open error \(opened))"))
        }
        defer { _ = ovClear(vf) }  // also closes the FILE
        guard let info = ovInfo(vf, -1) else {
            throw SampleDecodingError(kind: .invalidStream("stream has no Vorbis info header"))
        }
        // vorbis_info starts { int version; int channels; long rate; ... }.
        let channels = Int(info.load(fromByteOffset: 4, as: Int32.self))
        // `rate` is a C long right after two ints: offset 8 on both LP64 and ILP32.
        let rate = info.load(fromByteOffset: 8, as: Int.self)
        guard channels >= 1, channels <= 255 else {
            throw SampleDecodingError(kind: .invalidStream("stream declares \(channels) channels"))
        }
        var pcm: [Int16] = []
        let total = ovPCMTotal(vf, -1)
        if total > 0, total < 1 << 28 { pcm.reserveCapacity(Int(total)) }

        let bigEndian: Int32 = 1.littleEndian == 1 ? 0 : 1
        let chunkBytes = 16_384
        var buffer = [Int16](repeating: 0, count: chunkBytes / 2)
        var section: Int32 = 0
        var holes = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { raw in
                ovRead(vf, raw.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(chunkBytes),
                       bigEndian, 2, 1, &section)
            }
            if n == 0 { break }
            if n < 0 {
                // OV_HOLE (-3) is a gap in the data: skip it, as decoders do; anything else is fatal.
                if n == -3, holes < 64 { holes += 1; continue }
                throw SampleDecodingError(kind: .invalidStream("ov_read error \(n) after \(pcm.count) points"))
            }
            let frames = n / 2 / channels
            if channels == 1 {
                pcm.append(contentsOf: buffer[0..<frames])
            } else {
                for f in 0..<frames { pcm.append(buffer[f * channels]) }
            }
        }
        return (pcm, rate)
    }
}
