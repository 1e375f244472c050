#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The elementary functions the engine needs, without Foundation.
///
/// Where the platform has a C math library (Linux, Apple platforms) these are its functions,
/// so a render is bit-identical to one computed with them. Embedded Swift for WebAssembly has
/// no C library: there the portable implementations below stand in (accurate to ~1e−15
/// relative in Double). The engine calls them only to build tables and at control points,
/// never per sample.
enum Math {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    @inline(__always) static func sin(_ x: Double) -> Double { libm_sin(x) }
    @inline(__always) static func cos(_ x: Double) -> Double { libm_cos(x) }
    @inline(__always) static func pow(_ x: Double, _ y: Double) -> Double { libm_pow(x, y) }
    @inline(__always) static func log(_ x: Double) -> Double { libm_log(x) }
    @inline(__always) static func log2(_ x: Double) -> Double { libm_log2(x) }
    @inline(__always) static func log10(_ x: Double) -> Double { libm_log10(x) }
    @inline(__always) static func sin(_ x: Float) -> Float { sinf(x) }
    @inline(__always) static func cos(_ x: Float) -> Float { cosf(x) }
    @inline(__always) static func pow(_ x: Float, _ y: Float) -> Float { powf(x, y) }
    @inline(__always) static func log10(_ x: Float) -> Float { log10f(x) }
    #else
    static func sin(_ x: Double) -> Double { SoftwareMath.sin(x) }
    static func cos(_ x: Double) -> Double { SoftwareMath.cos(x) }
    static func pow(_ x: Double, _ y: Double) -> Double { SoftwareMath.pow(x, y) }
    static func log(_ x: Double) -> Double { SoftwareMath.log(x) }
    static func log2(_ x: Double) -> Double { SoftwareMath.log(x) / SoftwareMath.ln2 }
    static func log10(_ x: Double) -> Double { SoftwareMath.log(x) / SoftwareMath.ln10 }
    static func sin(_ x: Float) -> Float { Float(SoftwareMath.sin(Double(x))) }
    static func cos(_ x: Float) -> Float { Float(SoftwareMath.cos(Double(x))) }
    static func pow(_ x: Float, _ y: Float) -> Float { Float(SoftwareMath.pow(Double(x), Double(y))) }
    static func log10(_ x: Float) -> Float { Float(SoftwareMath.log(Double(x)) / SoftwareMath.ln10) }
    #endif
}

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
// The C library's functions under names that do not clash with ``Math``'s own.
@inline(__always) private func libm_sin(_ x: Double) -> Double { sin(x) }
@inline(__always) private func libm_cos(_ x: Double) -> Double { cos(x) }
@inline(__always) private func libm_pow(_ x: Double, _ y: Double) -> Double { pow(x, y) }
@inline(__always) private func libm_log(_ x: Double) -> Double { log(x) }
@inline(__always) private func libm_log2(_ x: Double) -> Double { log2(x) }
@inline(__always) private func libm_log10(_ x: Double) -> Double { log10(x) }
#endif

/// Elementary functions computed with IEEE `+ − × ÷` only, for platforms without a C math
/// library: range reduction, then short polynomial or series evaluations.
enum SoftwareMath {
    static let pi = 3.141592653589793
    static let twoPi = 6.283185307179586
    static let ln2 = 0.6931471805599453
    static let ln10 = 2.302585092994046

    /// Sine of `x` radians (Taylor series after reduction to −π/2…π/2).
    static func sin(_ x: Double) -> Double {
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
    static func cos(_ x: Double) -> Double { sin(x + pi / 2) }

    /// e^x (argument split into k·ln 2 + r, Taylor series for e^r, exact scaling by 2^k).
    static func exp(_ x: Double) -> Double {
        if x.isNaN { return .nan }
        if x < -745 { return 0 }
        if x > 709 { return .infinity }
        let k = (x / ln2).rounded()
        let r = x - k * ln2
        var p = 1.0
        var d = 13.0
        while d >= 1 { p = p * r / d + 1; d -= 1 }
        return p * Double(sign: .plus, exponent: Int(k), significand: 1)
    }

    /// Natural logarithm (atanh series on the mantissa).
    static func log(_ x: Double) -> Double {
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

    /// x^y for x > 0 (and the cases the engine meets: x = 0, integral y).
    static func pow(_ x: Double, _ y: Double) -> Double {
        if y == 0 { return 1 }
        if x == 0 { return y > 0 ? 0 : .infinity }
        if x < 0 {
            guard y == y.rounded() else { return .nan }
            let magnitude = exp(y * log(-x))
            return Int64(y) % 2 == 0 ? magnitude : -magnitude
        }
        return exp(y * log(x))
    }
}
