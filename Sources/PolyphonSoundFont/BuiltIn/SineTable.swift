/// A 4096-point sine table with linear interpolation, for the time-domain one-shots (drums,
/// effects), where calling a polynomial sine for every partial of every point would blow the
/// bank's generation budget. Accurate to about −100 dB, below 16-bit resolution.
enum SineTable {
    static let size = 4096
    private static let table: [Double] = (0...size).map { PortableMath.sin(PortableMath.twoPi * Double($0) / Double(size)) }

    /// sin(2π·phase) for a phase in cycles (any real value).
    @inline(__always)
    static func value(cycles phase: Double) -> Double {
        let p = (phase - phase.rounded(.down)) * Double(size)
        let i = Int(p)
        let f = p - Double(i)
        return table[i] + (table[i + 1] - table[i]) * f
    }
}

/// e^−x for x ≥ 0 from a table (step 1/128, linear interpolation, error below 1e-5 of the
/// value): the decays of drums and the Gaussian profiles of wide partials need millions of
/// them, and a table keeps the bank inside its generation budget.
enum DecayTable {
    private static let step = 1.0 / 128
    private static let table: [Double] = (0...128 * 40).map { PortableMath.exp(-Double($0) / 128) }

    /// e^−x (0 beyond x = 40, where it is below 5e-18).
    @inline(__always)
    static func value(_ x: Double) -> Double {
        guard x < 40 else { return 0 }
        let p = max(0, x) * 128
        let i = Int(p)
        let f = p - Double(i)
        return table[i] + (table[i + 1] - table[i]) * f
    }
}

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
