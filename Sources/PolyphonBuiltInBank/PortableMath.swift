import PolyphonSoundFont

/// Elementary functions computed with IEEE `+ − × ÷` only, so the built-in bank's samples come
/// out bit-identical on every platform.
///
/// The system libm's `sin`, `exp` and `log` may differ in the last bit between glibc, Apple's
/// libm and others; one such bit can flip the rounding of a 16-bit sample point and change the
/// bank's bytes. These polynomials are accurate to ~1e-15, far below 16-bit resolution.
enum PortableMath {
    static let pi = 3.141592653589793
    static let twoPi = 6.283185307179586
    static let ln2 = 0.6931471805599453

    /// Sine of `x` radians (Taylor series after reduction to −π/2…π/2).
    static func sin(_ x: Double) -> Double {
        var r = x - twoPi * (x / twoPi).rounded()
        if r > pi / 2 { r = pi - r } else if r < -pi / 2 { r = -pi - r }
        let r2 = r * r
        var p = 1.0 / 355_687_428_096_000
        p = p * r2 - 1.0 / 1_307_674_368_000
        p = p * r2 + 1.0 / 6_227_020_800
        p = p * r2 - 1.0 / 39_916_800
        p = p * r2 + 1.0 / 362_880
        p = p * r2 - 1.0 / 5040
        p = p * r2 + 1.0 / 120
        p = p * r2 - 1.0 / 6
        return r + r * r2 * p
    }

    /// Cosine of `x` radians.
    static func cos(_ x: Double) -> Double { sin(x + pi / 2) }

    /// e^x (argument split into k·ln 2 + r, Taylor series for e^r, exact scaling by 2^k).
    static func exp(_ x: Double) -> Double {
        if x < -700 { return 0 }
        if x > 700 { return .infinity }
        let k = (x / ln2).rounded()
        let r = x - k * ln2
        var p = 1.0
        for d in stride(from: 13.0, through: 1.0, by: -1.0) { p = p * r / d + 1 }
        // p now holds 1 + r(1 + r/2(1 + r/3(…))) = Σ rⁿ/n!
        return p * Double(sign: .plus, exponent: Int(k), significand: 1)
    }

    /// Natural logarithm of a positive `x` (atanh series on the mantissa).
    static func log(_ x: Double) -> Double {
        guard x > 0 else { return -.infinity }
        var e = Double(x.exponent)
        var m = x.significand
        if m > 1.4142135623730951 { m /= 2; e += 1 }
        let s = (m - 1) / (m + 1), s2 = s * s
        var p = 1.0 / 23
        for d in stride(from: 21.0, through: 1.0, by: -2.0) { p = p * s2 + 1 / d }
        return 2 * s * p + e * ln2
    }

    /// Base-2 logarithm.
    static func log2(_ x: Double) -> Double { log(x) / ln2 }

    /// 2^x.
    static func exp2(_ x: Double) -> Double { exp(x * ln2) }

    /// Hyperbolic tangent, the soft clipper of overdriven timbres.
    static func tanh(_ x: Double) -> Double {
        if x > 20 { return 1 }
        if x < -20 { return -1 }
        let e = exp(2 * x)
        return (e - 1) / (e + 1)
    }

    /// Frequency in Hz of a (fractional) MIDI key, A4 = key 69 = 440 Hz.
    static func frequency(ofKey key: Double) -> Double { 440 * exp2((key - 69) / 12) }

    /// The fractional MIDI key of a frequency.
    static func key(ofFrequency f: Double) -> Double { 69 + 12 * log2(f / 440) }
}
