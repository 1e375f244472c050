#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A biquad section, `y = (b0 x + b1 x₁ + b2 x₂ − a1 y₁ − a2 y₂)` with `a0` normalised to 1,
/// run in transposed direct form II in Double so that the 38 Hz high-pass stays exact at
/// 192 kHz.
struct Biquad: Equatable {
    var b0: Double, b1: Double, b2: Double, a1: Double, a2: Double
    private var s1 = 0.0, s2 = 0.0

    init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        (self.b0, self.b1, self.b2, self.a1, self.a2) = (b0, b1, b2, a1, a2)
    }

    @inline(__always)
    mutating func process(_ x: Double) -> Double {
        let y = b0 * x + s1
        s1 = b1 * x - a1 * y + s2
        s2 = b2 * x - a2 * y
        return y
    }
}

/// The K-weighting of ITU-R BS.1770-4 for one channel: the "pre-filter" (a high shelf of about
/// +4 dB above 1.5 kHz, modelling the head) followed by the RLB high-pass (about 38 Hz).
///
/// The Recommendation gives coefficients for 48 kHz only. Here both stages are designed from
/// their analogue prototypes by the bilinear transform at the actual sample rate (the
/// derivation libebur128 uses), which reproduces the published 48 kHz coefficients to 1e-8 and
/// keeps the response right at 44.1, 96 or 192 kHz.
struct KWeightingFilter: Equatable {
    private var shelf: Biquad
    private var highPass: Biquad

    init(sampleRate: Double) {
        shelf = Self.shelf(sampleRate: sampleRate)
        highPass = Self.highPass(sampleRate: sampleRate)
    }

    @inline(__always)
    mutating func process(_ x: Double) -> Double {
        highPass.process(shelf.process(x))
    }

    /// Stage 1: high shelf, centre 1681.97 Hz, gain +3.9998 dB, Q 0.7072.
    static func shelf(sampleRate: Double) -> Biquad {
        let f0 = 1681.974450955533
        let gain = 3.999843853973347
        let q = 0.7071752369554196
        let k = tan(Double.pi * f0 / sampleRate)
        let vh = pow(10.0, gain / 20.0)
        let vb = pow(vh, 0.4996667741545416)
        let a0 = 1.0 + k / q + k * k
        return Biquad(
            b0: (vh + vb * k / q + k * k) / a0,
            b1: 2.0 * (k * k - vh) / a0,
            b2: (vh - vb * k / q + k * k) / a0,
            a1: 2.0 * (k * k - 1.0) / a0,
            a2: (1.0 - k / q + k * k) / a0)
    }

    /// Stage 2: the revised low-frequency B-curve (RLB) high-pass, 38.14 Hz, Q 0.5003.
    static func highPass(sampleRate: Double) -> Biquad {
        let f0 = 38.13547087602444
        let q = 0.5003270373238773
        let k = tan(Double.pi * f0 / sampleRate)
        let a0 = 1.0 + k / q + k * k
        return Biquad(
            b0: 1.0, b1: -2.0, b2: 1.0,
            a1: 2.0 * (k * k - 1.0) / a0,
            a2: (1.0 - k / q + k * k) / a0)
    }
}
