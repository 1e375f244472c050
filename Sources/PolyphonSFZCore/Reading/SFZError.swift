/// An SFZ instrument that cannot be loaded at all: the file cannot be read, or it is not SFZ
/// text. Problems inside an instrument that still loads are ``SFZWarning``s.
public struct SFZError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// The file could not be read (the text says why).
        case cannotRead(String)
        /// The content is not SFZ text (the text says what it looks like instead).
        case notSFZ(String)
    }

    /// The root file.
    public var path: String
    /// What went wrong.
    public var kind: Kind

    /// An error about the instrument at `path`.
    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    /// One line: `path: what`.
    public var description: String {
        switch kind {
        case .cannotRead(let why): return "\(path): cannot read SFZ file (\(why))"
        case .notSFZ(let why): return "\(path): not an SFZ instrument (\(why))"
        }
    }
}
