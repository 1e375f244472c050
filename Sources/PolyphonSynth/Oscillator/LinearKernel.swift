/// Two-point linear interpolation.
enum LinearKernel: InterpolationKernel {
    static var left: Int { 0 }
    static var right: Int { 1 }
    @inline(__always)
    static func interpolate<S: SampleSource>(_ d: S, _ idx: Int, _ frac: Int, _ t: InterpolationTables) -> Float {
        let f = Float(frac) * (1.0 / 256.0)
        let a = d[idx], b = d[idx + 1]
        return a + (b - a) * f
    }
    @inline(__always)
    static func interpolateSlow<S: SampleSource>(_ o: Oscillator, _ d: S, _ idx: Int, _ frac: Int,
                                _ t: InterpolationTables) -> Float {
        let f = Float(frac) * (1.0 / 256.0)
        let a = o.point(d, idx), b = o.point(d, idx + 1)
        return a + (b - a) * f
    }
}
