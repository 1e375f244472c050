/// Interpolation coefficients for 256 fractional positions between sample points, shared by
/// every voice: FluidSynth's Catmull-Rom cubic, and an 8-point Blackman-windowed sinc
/// normalised to unit gain at every fraction.
final class InterpolationTables: @unchecked Sendable {
    static let shared = InterpolationTables()
    static let steps = 256

    /// 4 coefficients per position, for points idx−1, idx, idx+1, idx+2.
    let cubic: UnsafePointer<SIMD4<Float>>
    /// The cubic coefficients in units of 2⁻¹⁵, for 16-bit points (``WordCubicKernel``).
    let cubicWords: UnsafePointer<SIMD4<Int16>>
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
        let cw = UnsafeMutablePointer<SIMD4<Int16>>.allocate(capacity: Self.steps)
        for i in 0..<Self.steps { cw[i] = Self.fixedPointRow(c[i]) }
        cubicWords = UnsafePointer(cw)
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
                    c = Math.sin(arg) / arg
                }
                // Blackman window over ±4 points.
                let u = (d + 4) / 8
                c *= 0.42 - 0.5 * Math.cos(2 * Double.pi * u) + 0.08 * Math.cos(4 * Double.pi * u)
                w[t] = c
                sum += c
            }
            // Unit DC gain at every fraction, so the level does not ripple with the read position.
            for t in 0..<8 { v[t] = Float(w[t] / sum) }
            s[f] = v
        }
        sinc = UnsafePointer(s)
    }

    /// A row of cubic coefficients in units of 2⁻¹⁵ (at most 32767), rounded as a whole rather
    /// than one by one: of the roundings within one unit of nearest, those whose sum is exactly
    /// 2¹⁵ (so DC passes unchanged), the one whose error has the smallest first moment (so a
    /// slowly varying signal's error cancels to second order), then the smallest error.
    /// Against the exact coefficients: −90 dB on full-scale noise, −128 dB on a 1 kHz sine.
    static func fixedPointRow(_ c: SIMD4<Float>) -> SIMD4<Int16> {
        let unit = 32768.0
        let exact = (0..<4).map { Double(c[$0]) * unit }
        let nearest = exact.map { Int($0.rounded()) }
        var best: (cost: Double, row: [Int])?
        for combination in 0..<81 {
            var row = nearest, code = combination
            for k in 0..<4 {
                row[k] += code % 3 - 1
                code /= 3
            }
            guard row.reduce(0, +) == Int(unit), row.allSatisfy({ abs($0) <= 32767 }) else { continue }
            let error = (0..<4).map { Double(row[$0]) - exact[$0] }
            let moment = (0..<4).reduce(0.0) { $0 + (Double($1) - 1.5) * error[$1] }
            let cost = 8 * moment * moment + error.reduce(0.0) { $0 + $1 * $1 }
            if best == nil || cost < best!.cost { best = (cost, row) }
        }
        let row = best!.row
        return SIMD4(Int16(row[0]), Int16(row[1]), Int16(row[2]), Int16(row[3]))
    }
}
