/// FluidSynth's 4-point cubic in floats: the kernel for 24-bit points (16-bit points use
/// ``WordCubicKernel``, the same kernel in integers).
enum CubicKernel: WidenedKernel {
    static var left: Int { 1 }
    static var right: Int { 2 }
    @inline(__always)
    static func interpolate<S: SampleSource>(_ d: S, _ idx: Int, _ frac: Int, _ t: InterpolationTables) -> Float {
        laneSum(t.cubic[frac] * d.window4(idx - 1))
    }
    @inline(__always)
    static func interpolateSlow<S: SampleSource>(_ o: Oscillator, _ d: S, _ idx: Int, _ frac: Int,
                                _ t: InterpolationTables) -> Float {
        let c = t.cubic[frac]
        let s = SIMD4<Float>(o.point(d, idx - 1), o.point(d, idx), o.point(d, idx + 1), o.point(d, idx + 2))
        return laneSum(c * s)
    }

    /// Four frames from widened points, summed as ``interpolate`` sums one, so results match
    /// the one-frame path bit for bit.
    @inline(__always)
    static func fourFrames(_ points: UnsafeMutablePointer<Float>, _ t: InterpolationTables,
                           _ q0: UInt64, _ q1: UInt64, _ q2: UInt64, _ q3: UInt64) -> SIMD4<Float> {
        @inline(__always) func product(_ q: UInt64) -> SIMD4<Float> {
            t.cubic[fraction(q)] * UnsafeRawPointer(points + index(q)).loadUnaligned(as: SIMD4<Float>.self)
        }
        return laneSums(product(q0), product(q1), product(q2), product(q3))
    }
}
