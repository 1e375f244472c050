/// Whether and how noise is added before rounding samples to 16-bit integers.
///
/// Rounding a quiet, smooth signal to 16 bits leaves distortion that follows the signal (a
/// fade-out turns into a gritty buzz). Triangular (TPDF) dither of ±1 LSB replaces that
/// distortion with a constant, signal-independent hiss about 96 dB down. The noise comes from a
/// seeded generator so that the same render gives the same file bytes every time.
///
/// Dither applies only to ``SampleFormat/int16``: at 24 bits the rounding error is far below
/// any converter's noise floor, and floats are not rounded at all.
public enum Dither: Sendable, Hashable {
    /// Plain rounding to the nearest integer.
    case none
    /// Triangular-PDF noise of ±1 LSB (the sum of two uniform values) from a generator
    /// started at `seed`.
    case triangular(seed: UInt64)

    /// The seed of ``automatic``.
    public static let defaultSeed: UInt64 = 0x5EED_0F_D1_7E_12_34

    /// TPDF dither with ``defaultSeed``: what writers use unless told otherwise.
    public static var automatic: Dither { .triangular(seed: defaultSeed) }
}

/// The noise source of ``Dither/triangular(seed:)``: SplitMix64, which is small, fast, and
/// gives the same sequence on every platform.
struct TriangularDitherGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    private mutating func nextWord() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The next dither value in LSB: the sum of two independent uniform values in [-0.5, 0.5),
    /// so triangular on (-1, 1) with mean 0 and variance 1/6.
    @inline(__always)
    mutating func next() -> Float {
        let word = nextWord()
        // Two 24-bit halves give two uniform values with exact Float arithmetic.
        let a = Float(UInt32(truncatingIfNeeded: word >> 40)) * (1.0 / 16_777_216.0)
        let b = Float(UInt32(truncatingIfNeeded: (word >> 8) & 0xFF_FFFF)) * (1.0 / 16_777_216.0)
        return a + b - 1.0
    }
}
