import Foundation

/// Interpolation coefficients for 256 fractional positions between sample points, shared by
/// every voice (FluidSynth's tables: Catmull-Rom cubic and a Hann-windowed 7-point sinc).
final class InterpolationTables: @unchecked Sendable {
    static let shared = InterpolationTables()
    static let steps = 256

    /// 4 coefficients per position, for points idx−1, idx, idx+1, idx+2.
    let cubic: UnsafePointer<SIMD4<Float>>
    /// 8 coefficients per position (the last is 0), for points idx−3 … idx+3.
    let sinc: UnsafePointer<SIMD8<Float>>

    private init() {
        let c = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: Self.steps)
        for i in 0..<Self.steps {
            let x = Double(i) / Double(Self.steps)
            c[i] = SIMD4(Float(x * (-0.5 + x * (1 - 0.5 * x))),
                         Float(1.0 + x * x * (1.5 * x - 2.5)),
                         Float(x * (0.5 + x * (2.0 - 1.5 * x))),
                         Float(0.5 * x * x * (x - 1.0)))
        }
        cubic = UnsafePointer(c)
        let s = UnsafeMutablePointer<SIMD8<Float>>.allocate(capacity: Self.steps)
        for f in 0..<Self.steps {
            var v = SIMD8<Float>(repeating: 0)
            let x = Double(f) / Double(Self.steps)
            for t in 0..<7 {
                // Tap t reads point idx + t − 3, at distance (t − 3 − x) from the read position.
                let d = Double(t - 3) - x
                var w = 1.0
                if abs(d) > 1e-6 {
                    let arg = Double.pi * d
                    w = sin(arg) / arg
                    w *= 0.5 * (1.0 + cos(2.0 * arg / 7.0))
                }
                v[t] = Float(w)
            }
            s[f] = v
        }
        sinc = UnsafePointer(s)
    }
}
