/// A sound bank file that cannot be loaded: it is not a bank of its format, or its structure is
/// broken badly enough that reading on would mean guessing.
///
/// One shape for every RIFF bank format (SoundFont 2/3 and DLS, both read into the
/// ``SoundFont`` model): names the file, the chunk and the byte offset (from the start of the
/// file) where reading stopped, so a user can look at the bytes. Real-world sloppiness that can
/// be read around is reported as ``SoundFontWarning`` instead.
public struct SoundFontError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file format being read: each is a RIFF form.
    public enum Format: Hashable, Sendable {
        /// SoundFont 2 or 3: RIFF form `sfbk`.
        case soundFont
        /// Downloadable Sounds Level 1 or 2: RIFF form `DLS `.
        case dls

        /// The RIFF form type a file of this format has.
        public var riffForm: String {
            switch self {
            case .soundFont: return "sfbk"
            case .dls: return "DLS "
            }
        }

        /// What a file of this format is called, for the error's one line.
        var nameWithArticle: String {
            switch self {
            case .soundFont: return "a SoundFont"
            case .dls: return "a DLS collection"
            }
        }
    }

    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// The file could not be opened or read (`errno` text).
        case cannotOpen(String)
        /// The file does not start with a `RIFF` header.
        case notRIFF
        /// The RIFF form type is not the format's (``Format/riffForm``).
        case unexpectedForm(String)
        /// A chunk's declared size runs past the end of the data that contains it.
        case chunkPastEnd(declared: Int, available: Int)
        /// A chunk the format requires is absent.
        case missingChunk
        /// A chunk is smaller than its fixed fields.
        case chunkTooSmall(size: Int, minimum: Int)
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

    /// The file name or path the bank was read from (or the name given with its bytes).
    public var file: String
    /// The format the file was read as.
    public var format: Format
    /// The chunk being read (`RIFF`, `INFO`, `phdr`, `rgnh`, `art2`, ...).
    public var chunk: String
    /// Byte offset from the start of the file.
    public var offset: Int
    /// What went wrong.
    public var kind: Kind

    /// An error at `offset` in `chunk` of `file`, read as `format`.
    public init(file: String, format: Format = .soundFont, chunk: String, offset: Int, kind: Kind) {
        self.file = file
        self.format = format
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
        case .notRIFF: return "not a RIFF file (not \(format.nameWithArticle))"
        case .unexpectedForm(let form):
            return "RIFF form is '\(form)', not '\(format.riffForm)' (not \(format.nameWithArticle))"
        case .chunkPastEnd(let declared, let available):
            return "chunk size \(declared) runs past the end (\(available) bytes available)"
        case .missingChunk: return "required chunk is missing"
        case .chunkTooSmall(let size, let minimum): return "chunk of \(size) bytes, at least \(minimum) required"
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
