/// The decoded contents of an audio file: its sample rate and one array of Float samples
/// (full scale ±1) per channel, plus how the file stored them.
///
/// WAV, AIFF (and uncompressed AIFF-C) and CAF are parsed natively; anything else libsndfile
/// can read (FLAC, Ogg Vorbis, Opus, MP3, …) is decoded through it when it is installed.
public struct AudioFile: Sendable, Equatable {
    /// Frames per second.
    public var sampleRate: Double
    /// One array per channel, all of the same length.
    public var channels: [[Float]]
    /// The container the samples came from, or `nil` for one libsndfile read that Polyphon has
    /// no case for.
    public var sourceFormat: AudioFileFormat?
    /// How the file stored the samples.
    public var sourceEncoding: SampleEncoding
    /// The root key and loops the file holds for samplers (WAV `smpl`, AIFF `INST`/`MARK`),
    /// nil when it holds none.
    public var instrument: AudioFileInstrument?

    /// The number of channels.
    public var channelCount: Int { channels.count }
    /// The number of frames (samples per channel).
    public var frameCount: Int { channels.first?.count ?? 0 }
    /// The length in seconds.
    public var duration: Double { Double(frameCount) / sampleRate }

    /// Creates an audio file value from decoded samples.
    public init(sampleRate: Double, channels: [[Float]], sourceFormat: AudioFileFormat?, sourceEncoding: SampleEncoding,
                instrument: AudioFileInstrument? = nil) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.sourceFormat = sourceFormat
        self.sourceEncoding = sourceEncoding
        self.instrument = instrument
    }

    /// The sample rates a reader accepts; anything outside is a damaged header, and rejecting
    /// it keeps nonsense such as 1e300 Hz away from code that divides by or converts the rate.
    static let plausibleSampleRates = 1.0...10_000_000.0

    /// Which decoder ``init(contentsOf:decoder:)`` uses.
    public enum Decoder: Sendable {
        /// Native for WAV, AIFF and CAF; libsndfile for everything else.
        case automatic
        /// Native only: other files throw ``AudioFileError/unsupported(path:reason:)``.
        case native
        /// libsndfile for every file, loaded with ``Libsndfile/load(path:)`` unless given.
        case libsndfile(Libsndfile?)
    }

    /// Reads and decodes the file at `path`.
    ///
    /// - Throws: ``AudioFileError`` naming the file (and, for damaged files, the chunk and byte
    ///   offset). Damaged input never traps.
    public init(contentsOf path: String, decoder: Decoder = .automatic) throws {
        switch decoder {
        case .libsndfile(let library):
            self = try SndfileReader.read(path: path, library: library ?? Libsndfile.load(forFile: path))
        case .native, .automatic:
            let bytes = try readFileBytes(path)
            if NativeContainer(sniffing: bytes) == nil, case .automatic = decoder {
                self = try SndfileReader.read(path: path, library: Libsndfile.load(forFile: path))
            } else {
                self = try AudioFile(bytes: bytes, path: path)
            }
        }
    }

    /// Decodes a WAV, AIFF or CAF file held in memory; `path` is used in error messages.
    public init(bytes: [UInt8], path: String = "<memory>") throws {
        let reader = BinaryReader(path: path, bytes: bytes)
        switch NativeContainer(sniffing: bytes) {
        case .riff: self = try WAVReader.read(reader)
        case .form: self = try AIFFReader.read(reader)
        case .caff: self = try CAFReader.read(reader)
        case nil:
            let start = bytes.prefix(4)
            throw AudioFileError.unsupported(
                path: path,
                reason: start.count < 4
                    ? "the file is \(bytes.count) bytes long, too short for an audio file"
                    : "not a WAV, AIFF or CAF file (it starts with '\(BinaryReader.fourCCText(start))')")
        }
    }
}

/// The native containers, told apart by their first four bytes.
private enum NativeContainer {
    case riff, form, caff

    init?(sniffing bytes: [UInt8]) {
        guard bytes.count >= 4 else { return nil }
        switch BinaryReader.fourCCText(bytes[0..<4]) {
        case "RIFF", "RIFX", "RF64": self = .riff
        case "FORM": self = .form
        case "caff": self = .caff
        default: return nil
        }
    }
}
