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
    /// The two state variables of the transposed direct form II.
    var s1 = 0.0, s2 = 0.0

    init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        (self.b0, self.b1, self.b2, self.a1, self.a2) = (b0, b1, b2, a1, a2)
    }

    /// The state below which ``flushVanishingState()`` sets it to zero: far below anything a
    /// `Float` sample leaves (the smallest is 1.4e-45), so flushing never changes an output bit
    /// while samples sound, yet far above the subnormals (below 2.2e-308).
    static let vanishing = 1e-200

    /// After long silence the state decays into subnormal numbers and stays there (rounding
    /// holds it in a small cycle instead of reaching zero), and every operation on a subnormal
    /// costs some hundred times a normal one: the loudness meter of a render with gaps ran
    /// several times slower than its arithmetic. Zero state stays zero in silence.
    @inline(__always)
    mutating func flushVanishingState() {
        if abs(s1) < Self.vanishing && abs(s2) < Self.vanishing { (s1, s2) = (0, 0) }
    }

    @inline(__always)
    mutating func process(_ x: Double) -> Double {
        let y = b0 * x + s1
        s1 = b1 * x - a1 * y + s2
        s2 = b2 * x - a2 * y
        return y
    }
}

/// Two ``Biquad``s with the same coefficients run side by side, one per SIMD lane.
///
/// Each lane does exactly the arithmetic of ``Biquad/process(_:)``, in the same order (Swift
/// does not contract `a * b + c` into a fused multiply-add), so a channel filtered here gives
/// the same bits as filtered alone. The point is speed: the recursion is latency-bound, and
/// two channels in one register share its latency.
struct BiquadPair {
    let b0: Double, b1: Double, b2: Double, a1: Double, a2: Double
    var s1: SIMD2<Double>, s2: SIMD2<Double>

    init(_ first: Biquad, _ second: Biquad) {
        precondition(first.b0 == second.b0 && first.b1 == second.b1 && first.b2 == second.b2
                     && first.a1 == second.a1 && first.a2 == second.a2)
        (b0, b1, b2, a1, a2) = (first.b0, first.b1, first.b2, first.a1, first.a2)
        s1 = SIMD2(first.s1, second.s1)
        s2 = SIMD2(first.s2, second.s2)
    }

    @inline(__always)
    mutating func process(_ x: SIMD2<Double>) -> SIMD2<Double> {
        let y = b0 * x + s1
        s1 = b1 * x - a1 * y + s2
        s2 = b2 * x - a2 * y
        return y
    }

    /// Copies lane 0's state to `first` and lane 1's to `second`.
    func store(into first: inout Biquad, _ second: inout Biquad) {
        (first.s1, first.s2) = (s1[0], s2[0])
        (second.s1, second.s2) = (s1[1], s2[1])
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
    fileprivate(set) var shelf: Biquad
    fileprivate(set) var highPass: Biquad

    init(sampleRate: Double) {
        shelf = Self.shelf(sampleRate: sampleRate)
        highPass = Self.highPass(sampleRate: sampleRate)
    }

    @inline(__always)
    mutating func process(_ x: Double) -> Double {
        highPass.process(shelf.process(x))
    }

    /// Zeroes each stage's state once it has decayed to nothing (``Biquad/flushVanishingState()``).
    mutating func flushVanishingState() {
        shelf.flushVanishingState()
        highPass.flushVanishingState()
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

/// The K-weighting of two channels at once (see ``BiquadPair``): bit for bit what two
/// ``KWeightingFilter``s give.
struct KWeightingFilterPair {
    private var shelf: BiquadPair
    private var highPass: BiquadPair

    init(_ first: KWeightingFilter, _ second: KWeightingFilter) {
        shelf = BiquadPair(first.shelf, second.shelf)
        highPass = BiquadPair(first.highPass, second.highPass)
    }

    @inline(__always)
    mutating func process(_ x: SIMD2<Double>) -> SIMD2<Double> {
        highPass.process(shelf.process(x))
    }

    /// Hands the state back to the two single-channel filters.
    func store(into first: inout KWeightingFilter, _ second: inout KWeightingFilter) {
        shelf.store(into: &first.shelf, &second.shelf)
        highPass.store(into: &first.highPass, &second.highPass)
    }
}
