/// A SoundFont that cannot be loaded: the file is not a SoundFont or its structure is broken
/// badly enough that reading on would mean guessing.
///
/// Names the file, the chunk and the byte offset (from the start of the file) where reading
/// stopped, so a user can look at the bytes. Real-world sloppiness that can be read around is
/// reported as ``SoundFontWarning`` instead.
public struct SoundFontError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// The file could not be opened or read (`errno` text).
        case cannotOpen(String)
        /// The file does not start with a `RIFF` header.
        case notRIFF
        /// The RIFF form type is not `sfbk`.
        case notSoundFont(form: String)
        /// A chunk's declared size runs past the end of the data that contains it.
        case chunkPastEnd(declared: Int, available: Int)
        /// A chunk the format requires is absent.
        case missingChunk
        /// A chunk that holds fixed-size records has a size that is not a multiple of it.
        case badRecordSize(size: Int, recordSize: Int)
        /// A chunk has fewer records than the format requires.
        case tooFewRecords(count: Int, minimum: Int)
        /// A record's index into the next table is smaller than the previous record's.
        case nonMonotonicIndex(record: Int, index: Int, previous: Int)
        /// A record's index points past the end of the table it refers to.
        case indexOutOfRange(record: Int, index: Int, count: Int)
        /// A chunk's content is malformed in another way (the text says how).
        case malformed(String)
    }

    /// The file name or path the bank was read from (or the name given to `init(bytes:name:)`).
    public var file: String
    /// The chunk being read (`RIFF`, `INFO`, `phdr`, ...).
    public var chunk: String
    /// Byte offset from the start of the file.
    public var offset: Int
    /// What went wrong.
    public var kind: Kind

    /// An error at `offset` in `chunk` of `file`.
    public init(file: String, chunk: String, offset: Int, kind: Kind) {
        self.file = file
        self.chunk = chunk
        self.offset = offset
        self.kind = kind
    }

    /// One line: `file: chunk at byte N: what`.
    public var description: String {
        "\(file): \(chunk) at byte \(offset): \(reason)"
    }

    private var reason: String {
        switch kind {
        case .cannotOpen(let why): return "cannot open file (\(why))"
        case .notRIFF: return "not a RIFF file"
        case .notSoundFont(let form): return "RIFF form is '\(form)', not 'sfbk' (not a SoundFont)"
        case .chunkPastEnd(let declared, let available):
            return "chunk size \(declared) runs past the end (\(available) bytes available)"
        case .missingChunk: return "required chunk is missing"
        case .badRecordSize(let size, let recordSize):
            return "chunk size \(size) is not a multiple of the \(recordSize)-byte record"
        case .tooFewRecords(let count, let minimum):
            return "\(count) records, at least \(minimum) required"
        case .nonMonotonicIndex(let record, let index, let previous):
            return "record \(record) index \(index) is below the previous record's \(previous)"
        case .indexOutOfRange(let record, let index, let count):
            return "record \(record) index \(index) is out of range (\(count) entries)"
        case .malformed(let text): return text
        }
    }
}
