/// How the samples of a file that was read were stored, before they became Float.
public enum SampleEncoding: Sendable, Hashable, CustomStringConvertible {
    /// Two's-complement integers of `bits` significant bits.
    case signedInteger(bits: Int)
    /// Offset-binary integers (8-bit WAV).
    case unsignedInteger(bits: Int)
    /// IEEE 754 floating point of `bits` bits.
    case float(bits: Int)
    /// A compressed codec decoded by libsndfile, named by `codec`.
    case compressed(String)

    /// The bits per sample, or `nil` for compressed audio.
    public var bitsPerSample: Int? {
        switch self {
        case .signedInteger(let bits), .unsignedInteger(let bits), .float(let bits): bits
        case .compressed: nil
        }
    }

    /// Text such as "24-bit signed integer".
    public var description: String {
        switch self {
        case .signedInteger(let bits): "\(bits)-bit signed integer"
        case .unsignedInteger(let bits): "\(bits)-bit unsigned integer"
        case .float(let bits): "\(bits)-bit float"
        case .compressed(let codec): codec
        }
    }
}
