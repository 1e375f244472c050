import PolyphonSoundFontCore

/// A DLS collection that cannot be loaded: names the file, the chunk and the byte offset (from
/// the start of the file) where reading stopped.
///
/// Readable sloppiness (an unknown connection, a region pointing at a missing wave) becomes a
/// ``SoundFontWarning`` on the resulting bank instead.
public struct DLSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// The file could not be opened or read (`errno` text).
        case cannotOpen(String)
        /// The file is not `RIFF` form `DLS `.
        case notDLS(form: String)
        /// A chunk's declared size runs past the end of the data that contains it.
        case chunkPastEnd(declared: Int, available: Int)
        /// A chunk the format requires is absent.
        case missingChunk
        /// A chunk is smaller than its fixed fields.
        case chunkTooSmall(size: Int, minimum: Int)
        /// A chunk's content is malformed in another way (the text says how).
        case malformed(String)
    }

    /// The file name or path.
    public var file: String
    /// The chunk being read (`RIFF`, `ins `, `rgnh`, `art2`, ...).
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
        let reason: String
        switch kind {
        case .cannotOpen(let why): reason = "cannot open file (\(why))"
        case .notDLS(let form): reason = "RIFF form is '\(form)', not 'DLS ' (not a DLS collection)"
        case .chunkPastEnd(let declared, let available):
            reason = "chunk size \(declared) runs past the end (\(available) bytes available)"
        case .missingChunk: reason = "required chunk is missing"
        case .chunkTooSmall(let size, let minimum): reason = "chunk of \(size) bytes, at least \(minimum) required"
        case .malformed(let text): reason = text
        }
        return "\(file): \(chunk) at byte \(offset): \(reason)"
    }
}
