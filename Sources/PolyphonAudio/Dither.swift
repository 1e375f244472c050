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

/// The noise source of ``Dither/triangular(seed:)``: four xorshift128+ generators side by side
/// in the lanes of one SIMD vector, so that the encoder gets eight dither values per step.
///
/// Each 64-bit output holds two 32-bit words (low half first), and each word two 16-bit
/// uniform values a and b whose sum makes one triangular value, (a + b − 65535) / 65536: on
/// (−1, 1) LSB, symmetric around 0, so the mean is exactly 0 and the variance 1/6 less a hair.
/// Value `8k + 2j + h` of the stream is half `h` of lane `j`'s `k`-th output.
///
/// The lanes' 128-bit states are expanded from the seed by SplitMix64 (as xorshift's author
/// advises), and after that only shifts, adds and exclusive-ors of 64-bit words follow, so the
/// stream is the same on every platform and needs nothing beyond SSE2 or NEON to run four
/// lanes at once. (xorshift128+'s known weakness, linearity in its lowest bits, is nothing dither
/// can make audible; xoshiro's rotations would cost a scalar detour on plain SSE2.)
///
/// The stream does not depend on how it is consumed: ``next()`` and ``nextGroup()`` hand out
/// the same values in the same order, whatever the mix, so an encoder that writes a channel in
/// blocks of any size produces the same noise.
struct TriangularDitherGenerator {
    static let groupSize = 8

    private var s0: SIMD4<UInt64>, s1: SIMD4<UInt64>
    /// The current group of eight values and how many of them ``next()`` has handed out.
    private var group = SIMD8<Float>()
    private var used = TriangularDitherGenerator.groupSize

    init(seed: UInt64) {
        var expander = seed
        func splitMix() -> UInt64 {
            expander &+= 0x9E37_79B9_7F4A_7C15
            var z = expander
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        (s0, s1) = (SIMD4(), SIMD4())
        for lane in 0..<4 {
            // Two consecutive SplitMix64 outputs are never both zero (its mixing is a
            // bijection of distinct counters), so no lane starts in the one dead state.
            s0[lane] = splitMix()
            s1[lane] = splitMix()
        }
    }

    /// Whether the next value starts a group, so that ``nextGroup()`` may be called.
    @inline(__always)
    var isAtGroupStart: Bool { used == Self.groupSize }

    /// The next eight values, for a caller at a group start (see ``isAtGroupStart``).
    @inline(__always)
    mutating func nextGroup() -> SIMD8<Float> {
        precondition(used == Self.groupSize)
        return step()
    }

    /// The next dither value in LSB: triangular on (−1, 1), mean 0, variance 1/6.
    @inline(__always)
    mutating func next() -> Float {
        if used == Self.groupSize {
            group = step()
            used = 0
        }
        let value = group[used]
        used += 1
        return value
    }

    /// One xorshift128+ step in every lane, turned into eight triangular values.
    @inline(__always)
    private mutating func step() -> SIMD8<Float> {
        var x = s0
        let y = s1
        let output = x &+ y
        s0 = y
        x ^= x &<< 23
        s1 = x ^ y ^ (x &>> 18) ^ (y &>> 5)
        // a + b in each 32-bit half (at most 131 070, so no carry crosses the halves).
        let halves: UInt64 = 0x0000_FFFF_0000_FFFF
        let sums = (output & halves) &+ ((output &>> 16) & halves)
        #if _endian(big)
        let words = (sums &<< 32) | (sums &>> 32)  // low half first in memory, as on little-endian
        #else
        let words = sums
        #endif
        // sum − 65535 in [−65535, 65535] added to the bits of 192.0 (whose last mantissa bit is
        // worth 2⁻¹⁶) gives the Float 192 + (sum − 65535)/65536, exactly.
        let bits = unsafeBitCast(words, to: SIMD8<UInt32>.self) &+ (Float(192).bitPattern &- 65535)
        return unsafeBitCast(bits, to: SIMD8<Float>.self) - 192
    }
}
