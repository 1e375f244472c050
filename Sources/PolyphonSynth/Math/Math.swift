import PolyphonMath
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
/// no C library: there ``PortableMath`` stands in (accurate to ~1e−15 relative in Double).
/// The engine calls them only to build tables and at control points, never per sample.
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
    static func sin(_ x: Double) -> Double { PortableMath.sin(x) }
    static func cos(_ x: Double) -> Double { PortableMath.cos(x) }
    static func pow(_ x: Double, _ y: Double) -> Double { PortableMath.pow(x, y) }
    static func log(_ x: Double) -> Double { PortableMath.log(x) }
    static func log2(_ x: Double) -> Double { PortableMath.log2(x) }
    static func log10(_ x: Double) -> Double { PortableMath.log10(x) }
    static func sin(_ x: Float) -> Float { Float(PortableMath.sin(Double(x))) }
    static func cos(_ x: Float) -> Float { Float(PortableMath.cos(Double(x))) }
    static func pow(_ x: Float, _ y: Float) -> Float { Float(PortableMath.pow(Double(x), Double(y))) }
    static func log10(_ x: Float) -> Float { Float(PortableMath.log10(Double(x))) }
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
