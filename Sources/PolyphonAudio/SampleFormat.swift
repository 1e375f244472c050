/// How each sample is stored in a file that Polyphon writes.
public enum SampleFormat: Sendable, Hashable, CaseIterable {
    /// Signed 16-bit integers (CD quality). Dithered by default, see ``Dither``.
    case int16
    /// Signed 24-bit integers, packed in three bytes.
    case int24
    /// IEEE 754 32-bit floating point, full scale at ±1.0 and not clipped.
    case float32

    /// The number of bits of one sample.
    public var bitsPerSample: Int {
        switch self {
        case .int16: 16
        case .int24: 24
        case .float32: 32
        }
    }

    /// The number of bytes one sample takes in the file.
    public var bytesPerSample: Int { bitsPerSample / 8 }

    /// Whether samples are integers (and so are clipped to full scale when written).
    public var isInteger: Bool { self != .float32 }
}
