import Foundation

/// Interpolation coefficients for 256 fractional positions between sample points, shared by
/// every voice: FluidSynth's Catmull-Rom cubic, and an 8-point Blackman-windowed sinc
/// normalised to unit gain at every fraction.
final class InterpolationTables: @unchecked Sendable {
    static let shared = InterpolationTables()
    static let steps = 256

    /// 4 coefficients per position, for points idx−1, idx, idx+1, idx+2.
    let cubic: UnsafePointer<SIMD4<Float>>
    /// 8 coefficients per position, for points idx−3 … idx+4.
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
            var sum = 0.0
            var w = [Double](repeating: 0, count: 8)
            for t in 0..<8 {
                // Tap t reads point idx + t − 3, at distance (t − 3 − x) from the read position:
                // four points on each side for every fraction, so the kernel is symmetric.
                let d = Double(t - 3) - x
                var c = 1.0
                if abs(d) > 1e-9 {
                    let arg = Double.pi * d
                    c = sin(arg) / arg
                }
                // Blackman window over ±4 points.
                let u = (d + 4) / 8
                c *= 0.42 - 0.5 * cos(2 * Double.pi * u) + 0.08 * cos(4 * Double.pi * u)
                w[t] = c
                sum += c
            }
            // Unit DC gain at every fraction, so the level does not ripple with the read position.
            for t in 0..<8 { v[t] = Float(w[t] / sum) }
            s[f] = v
        }
        sinc = UnsafePointer(s)
    }
}
