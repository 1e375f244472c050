#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What an audio file holds — rate, channels, length, encoding, sampler loops — read from its
/// header chunks without decoding (or reading) the audio: for listing a sample library.
///
/// WAV and AIFF are walked chunk by chunk with positioned reads, so a 100 MB file costs a few
/// small reads; other formats are asked of libsndfile (which opens without decoding); CAF is
/// decoded in full.
public struct AudioFileDescription: Sendable, Equatable {
    /// Frames per second.
    public var sampleRate: Double
    /// Channels.
    public var channelCount: Int
    /// Frames the file holds (what a full read would return).
    public var frameCount: Int
    /// The container, nil for a libsndfile format Polyphon has no case for.
    public var sourceFormat: AudioFileFormat?
    /// How the samples are stored.
    public var sourceEncoding: SampleEncoding
    /// Root key and loops, when the file has them.
    public var instrument: AudioFileInstrument?

    /// Reads the description of the file at `path`.
    /// - Throws: ``AudioFileError`` as ``AudioFile/init(contentsOf:decoder:)`` would for the
    ///   same header.
    public init(contentsOf path: String) throws {
        let file = try HeaderFile(path: path)
        defer { file.closeFile() }
        let head = try file.read(at: 0, count: 12)
        let magic = head.count >= 4 ? BinaryReader.fourCCText(head[0..<4]) : ""
        switch magic {
        case "RIFF":
            self = try Self.walk(file, path: path, bigEndian: false, wanted: ["fmt ", "smpl"], data: "data")
        case "FORM":
            self = try Self.walk(file, path: path, bigEndian: true, wanted: ["COMM", "INST", "MARK"], data: "SSND")
        case "caff", "RIFX", "RF64":
            let decoded = try AudioFile(contentsOf: path)
            self.init(decoded)
        default:
            let library = try Libsndfile.load(forFile: path)
            var info = SFInfo()
            guard let handle = library.sfOpen(path, SndfileFormat.modeRead, &info) else {
                throw AudioFileError.libraryFailure(path: path, reason: library.lastError(nil))
            }
            defer { _ = library.sfClose(handle) }
            let (format, encoding) = SndfileFormat.describe(info.format)
            self.init(sampleRate: Double(info.sampleRate), channelCount: Int(info.channels), frameCount: Int(max(info.frames, 0)),
                      sourceFormat: format, sourceEncoding: encoding,
                      instrument: SndfileReader.instrument(of: handle, library: library))
        }
    }

    /// The description of a decoded file.
    public init(_ file: AudioFile) {
        self.init(sampleRate: file.sampleRate, channelCount: file.channelCount, frameCount: file.frameCount,
                  sourceFormat: file.sourceFormat, sourceEncoding: file.sourceEncoding, instrument: file.instrument)
    }

    init(sampleRate: Double, channelCount: Int, frameCount: Int, sourceFormat: AudioFileFormat?,
         sourceEncoding: SampleEncoding, instrument: AudioFileInstrument?) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.frameCount = frameCount
        self.sourceFormat = sourceFormat
        self.sourceEncoding = sourceEncoding
        self.instrument = instrument
    }

    /// Walks the chunks, keeps the bodies of `wanted` ones and the size of the `data` one, then
    /// parses a copy of the file with an empty data chunk through the ordinary reader (so every
    /// header check is the same) and counts the frames the real data chunk holds.
    private static func walk(_ file: HeaderFile, path: String, bigEndian: Bool, wanted: Set<String>,
                             data: String) throws -> AudioFileDescription {
        let form = try file.read(at: 8, count: 4)
        var kept: [(id: String, body: [UInt8])] = []
        var dataBytes: Int?
        var ssndOffset = 0
        var offset = 12
        while offset + 8 <= file.size {
            let header = try file.read(at: offset, count: 8)
            let id = BinaryReader.fourCCText(header[0..<4])
            let size = bigEndian
                ? Int(UInt32(header[4]) << 24 | UInt32(header[5]) << 16 | UInt32(header[6]) << 8 | UInt32(header[7]))
                : Int(UInt32(header[4]) | UInt32(header[5]) << 8 | UInt32(header[6]) << 16 | UInt32(header[7]) << 24)
            let available = min(size, file.size - offset - 8)
            if id == data {
                dataBytes = available
                if bigEndian, available >= 4 {
                    let field = try file.read(at: offset + 8, count: 4)
                    if field.count == 4 {
                        ssndOffset = Int(UInt32(field[0]) << 24 | UInt32(field[1]) << 16 | UInt32(field[2]) << 8 | UInt32(field[3]))
                    }
                }
            } else if wanted.contains(id) {
                kept.append((id, try file.read(at: offset + 8, count: min(available, 1 << 20))))
            }
            offset += 8 + size + (size & 1)
        }
        // The same file with the data chunk emptied (AIFF's SSND keeps its 8-byte header).
        var bytes = Array("\(bigEndian ? "FORM" : "RIFF")\0\0\0\0".utf8) + form
        func append(_ id: String, _ body: [UInt8]) {
            bytes += Array(id.utf8)
            let n = UInt32(body.count)
            bytes += bigEndian ? [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
                               : [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)]
            bytes += body
            if body.count & 1 == 1 { bytes.append(0) }
        }
        for chunk in kept { append(chunk.id, chunk.body) }
        if dataBytes != nil { append(data, bigEndian ? [0, 0, 0, 0, 0, 0, 0, 0] : []) }
        let parsed = try AudioFile(bytes: bytes, path: path)
        var frames = 0
        if let dataBytes {
            let width = Self.bytesPerFrame(parsed)
            if bigEndian {
                // COMM's frame count rules, cut to what SSND holds.
                let declared = kept.first { $0.id == "COMM" }.map { b -> Int in
                    b.body.count >= 6 ? Int(UInt32(b.body[2]) << 24 | UInt32(b.body[3]) << 16 | UInt32(b.body[4]) << 8 | UInt32(b.body[5])) : 0
                } ?? 0
                frames = width > 0 ? min(declared, max(dataBytes - 8 - ssndOffset, 0) / width) : 0
            } else {
                frames = width > 0 ? dataBytes / width : 0
            }
        }
        return AudioFileDescription(sampleRate: parsed.sampleRate, channelCount: parsed.channelCount, frameCount: frames,
                                    sourceFormat: parsed.sourceFormat, sourceEncoding: parsed.sourceEncoding,
                                    instrument: parsed.instrument)
    }

    private static func bytesPerFrame(_ file: AudioFile) -> Int {
        let bits: Int
        switch file.sourceEncoding {
        case .signedInteger(let b), .unsignedInteger(let b), .float(let b): bits = b
        default: return 0
        }
        return (bits + 7) / 8 * file.channelCount
    }
}

private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }

/// A file opened for positioned reads of its header chunks.
private struct HeaderFile {
    let descriptor: Int32
    let size: Int
    let path: String

    init(path: String) throws {
        self.path = path
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw AudioFileError.cannotOpen(path: path, reason: systemErrorText()) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            closeDescriptor(descriptor)
            throw AudioFileError.cannotOpen(path: path, reason: "not a regular file")
        }
        size = Int(status.st_size)
    }

    func read(at offset: Int, count: Int) throws -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw AudioFileError.ioFailure(path: path, reason: systemErrorText())
            }
            if n == 0 { break }
            done += n
        }
        return Array(bytes[0..<done])
    }

    func closeFile() { closeDescriptor(descriptor) }
}
