/// Everything that can go wrong while writing or reading an audio file.
///
/// Every case names the file; parse errors also name the chunk and the byte offset where the
/// problem was found, so a broken file can be inspected with a hex dump. ``description`` is one
/// line suitable for a command-line error message.
public enum AudioFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or created; `reason` is the system's explanation.
    case cannotOpen(path: String, reason: String)
    /// Reading, writing or seeking failed part-way (disk full, file removed, …).
    case ioFailure(path: String, reason: String)
    /// A parameter passed by the caller is outside what the format can hold.
    case invalidArgument(path: String, reason: String)
    /// The file's bytes do not follow the format: `chunk` is the four-character chunk being read
    /// (or the container name for the file header) and `offset` the byte where it went wrong.
    case malformed(path: String, chunk: String, offset: Int, reason: String)
    /// The file is well formed but uses an encoding or feature this reader does not decode.
    case unsupported(path: String, reason: String)
    /// libsndfile is needed for this format but could not be loaded; `reason` says how to
    /// install it.
    case libraryUnavailable(path: String, reason: String)
    /// libsndfile loaded but refused the operation; `reason` is its own message.
    case libraryFailure(path: String, reason: String)
    /// The writer was used after ``AudioFileWriter/close()``.
    case closed(path: String)

    /// The file the error is about.
    public var path: String {
        switch self {
        case .cannotOpen(let path, _), .ioFailure(let path, _), .invalidArgument(let path, _),
            .malformed(let path, _, _, _), .unsupported(let path, _),
            .libraryUnavailable(let path, _), .libraryFailure(let path, _), .closed(let path):
            path
        }
    }

    /// One line: the path followed by what went wrong.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "\(path): cannot open: \(reason)"
        case .ioFailure(let path, let reason): "\(path): I/O error: \(reason)"
        case .invalidArgument(let path, let reason): "\(path): \(reason)"
        case .malformed(let path, let chunk, let offset, let reason):
            "\(path): malformed '\(chunk)' chunk at byte \(offset): \(reason)"
        case .unsupported(let path, let reason): "\(path): unsupported: \(reason)"
        case .libraryUnavailable(let path, let reason): "\(path): \(reason)"
        case .libraryFailure(let path, let reason): "\(path): libsndfile: \(reason)"
        case .closed(let path): "\(path): the writer is already closed"
        }
    }
}
