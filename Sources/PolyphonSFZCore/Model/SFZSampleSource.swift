/// What a region plays: a sample file or one of the built-in generators (`sample=*sine`).
public enum SFZSampleSource: Hashable, Sendable, CustomStringConvertible {
    /// A sample file: the path as the instrument gives it (`default_path` prefixed, `\` turned
    /// into `/`), relative to the root `.sfz` file's directory unless absolute.
    case file(String)
    /// A generator that needs no file.
    case generator(SFZGenerator)

    /// The `sample=` value this source stands for.
    public var description: String {
        switch self {
        case .file(let path): return path
        case .generator(let generator): return generator.sampleName
        }
    }
}
