/// The 8-point windowed sinc (``InterpolationTables/sinc``): the cleanest at high transpositions.
enum SincKernel: WidenedKernel {
    static var left: Int { 3 }
    static var right: Int { 4 }

    /// The eight products folded to four (halves added), then summed in a fixed order that the
    /// four-frame path repeats lane-wise.
    @inline(__always)
    static func folded(_ c: SIMD8<Float>, _ w: SIMD8<Float>) -> SIMD4<Float> {
        let p = c * w
        return p.lowHalf + p.highHalf
    }

    @inline(__always)
    static func interpolate<S: SampleSource>(_ d: S, _ idx: Int, _ frac: Int, _ t: InterpolationTables) -> Float {
        laneSum(folded(t.sinc[frac], d.window8(idx - 3)))
    }
    @inline(__always)
    static func interpolateSlow<S: SampleSource>(_ o: Oscillator, _ d: S, _ idx: Int, _ frac: Int,
                                _ t: InterpolationTables) -> Float {
        var s = SIMD8<Float>(repeating: 0)
        for k in 0..<8 { s[k] = o.point(d, idx + k - 3) }
        return laneSum(folded(t.sinc[frac], s))
    }

    @inline(__always)
    static func fourFrames(_ points: UnsafeMutablePointer<Float>, _ t: InterpolationTables,
                           _ q0: UInt64, _ q1: UInt64, _ q2: UInt64, _ q3: UInt64) -> SIMD4<Float> {
        @inline(__always) func half(_ q: UInt64) -> SIMD4<Float> {
            folded(t.sinc[fraction(q)], UnsafeRawPointer(points + index(q)).loadUnaligned(as: SIMD8<Float>.self))
        }
        return laneSums(half(q0), half(q1), half(q2), half(q3))
    }
}
