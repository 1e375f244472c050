import PolyphonMath
import PolyphonSoundFont

/// An RBJ biquad (Robert Bristow-Johnson's cookbook) for shaping noise in the one-shots.
struct Biquad {
    private var b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0
    private var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

    enum Kind { case lowPass, highPass, bandPass }

    init(_ kind: Kind, frequency: Double, q: Double) {
        let w = PortableMath.twoPi * min(frequency, 20_000) / GeneratedSample.rate
        let cw = PortableMath.cos(w), alpha = PortableMath.sin(w) / (2 * q)
        let a0 = 1 + alpha
        switch kind {
        case .lowPass: b0 = (1 - cw) / 2; b1 = 1 - cw; b2 = (1 - cw) / 2
        case .highPass: b0 = (1 + cw) / 2; b1 = -(1 + cw); b2 = (1 + cw) / 2
        case .bandPass: b0 = alpha; b1 = 0; b2 = -alpha
        }
        b0 /= a0; b1 /= a0; b2 /= a0
        a1 = -2 * cw / a0; a2 = (1 - alpha) / a0
    }

    mutating func process(_ x: Double) -> Double {
        let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2 = x1; x1 = x; y2 = y1; y1 = y
        return y
    }
}

/// White noise through two cascaded low-pass biquads (24 dB per octave above `cutoff`): the
/// dull thud of a beater or stick, and snare wires that fade above a few kilohertz.
struct LowPassNoise {
    private var first: Biquad, second: Biquad

    init(cutoff: Double) {
        first = Biquad(.lowPass, frequency: cutoff, q: 0.7)
        second = Biquad(.lowPass, frequency: cutoff, q: 0.7)
    }

    mutating func next(_ random: inout SeededRandom) -> Double {
        second.process(first.process(random.bipolar()))
    }
}
