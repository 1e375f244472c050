/// Elementary functions computed with IEEE `+ − × ÷` only: range reduction, then short
/// polynomial or series evaluations, accurate to ~1e−15 relative in Double.
///
/// Two users need them, for different reasons:
/// - the built-in bank, whose samples must come out bit-identical on every platform: the
///   system libm's `sin`, `exp` and `log` may differ in the last bit between glibc, Apple's
///   libm and others, and one such bit can flip the rounding of a 16-bit sample point;
/// - the engine built as Embedded Swift for WebAssembly, where there is no C math library
///   (natively the engine calls libm, so its renders match one computed with it).
package enum PortableMath {
    package static let pi = 3.141592653589793
    package static let twoPi = 6.283185307179586
    package static let ln2 = 0.6931471805599453
    package static let ln10 = 2.302585092994046

    /// Sine of `x` radians (Taylor series after reduction to −π/2…π/2).
    package static func sin(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
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
    package static func cos(_ x: Double) -> Double { sin(x + pi / 2) }

    /// e^x (argument split into k·ln 2 + r, Taylor series for e^r, exact scaling by 2^k).
    package static func exp(_ x: Double) -> Double {
        if x.isNaN { return .nan }
        if x < -745 { return 0 }
        if x > 709 { return .infinity }
        let k = (x / ln2).rounded()
        let r = x - k * ln2
        // p becomes 1 + r(1 + r/2(1 + r/3(…))) = Σ rⁿ/n!
        var p = 1.0
        var d = 13.0
        while d >= 1 { p = p * r / d + 1; d -= 1 }
        return p * Double(sign: .plus, exponent: Int(k), significand: 1)
    }

    /// Natural logarithm (atanh series on the mantissa); NaN below 0, −∞ at 0.
    package static func log(_ x: Double) -> Double {
        if x.isNaN || x < 0 { return .nan }
        if x == 0 { return -.infinity }
        if x == .infinity { return .infinity }
        var e = Double(x.exponent)
        var m = x.significand
        if m > 1.4142135623730951 { m /= 2; e += 1 }
        let s = (m - 1) / (m + 1), s2 = s * s
        var p = 1.0 / 23
        var d = 21.0
        while d >= 1 { p = p * s2 + 1 / d; d -= 2 }
        return 2 * s * p + e * ln2
    }

    /// Base-2 logarithm.
    package static func log2(_ x: Double) -> Double { log(x) / ln2 }

    /// Base-10 logarithm.
    package static func log10(_ x: Double) -> Double { log(x) / ln10 }

    /// 2^x.
    package static func exp2(_ x: Double) -> Double { exp(x * ln2) }

    /// x^y for x > 0 (and the cases the engine meets: x = 0, integral y).
    package static func pow(_ x: Double, _ y: Double) -> Double {
        if y == 0 { return 1 }
        if x == 0 { return y > 0 ? 0 : .infinity }
        if x < 0 {
            guard y == y.rounded() else { return .nan }
            let magnitude = exp(y * log(-x))
            return Int64(y) % 2 == 0 ? magnitude : -magnitude
        }
        return exp(y * log(x))
    }

    /// Hyperbolic tangent (the built-in bank's soft clipper).
    package static func tanh(_ x: Double) -> Double {
        if x > 20 { return 1 }
        if x < -20 { return -1 }
        let e = exp(2 * x)
        return (e - 1) / (e + 1)
    }
}
