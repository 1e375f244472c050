/// How a point between stored sample points is computed from its neighbours, one frame at a
/// time (``interpolate``, and ``interpolateSlow`` near the sample's edges and loop) and in runs
/// of frames whose neighbours are all inside the sample (``renderRun``). Every run must give the
/// same bits as the one-frame path: block size and alignment never change the sound.
protocol InterpolationKernel {
    /// Points needed before and after the read index.
    static var left: Int { get }
    static var right: Int { get }
    /// What the kernel's results are multiplied by to be in point units: a power of two
    /// (1 unless the kernel computes in fixed point).
    static var scale: Float { get }
    static func interpolate<S: SampleSource>(_ d: S, _ idx: Int, _ frac: Int, _ t: InterpolationTables) -> Float
    static func interpolateSlow<S: SampleSource>(_ o: Oscillator, _ d: S, _ idx: Int, _ frac: Int,
                                _ t: InterpolationTables) -> Float
    /// Renders `run` points whose neighbours are all in range (no edge checks).
    static func renderRun<S: SampleSource>(_ d: S, _ t: InterpolationTables, _ scratch: UnsafeMutablePointer<Float>,
                                           _ out: UnsafeMutablePointer<Float>,
                                           _ run: Int, _ ph: inout UInt64, _ inc: UInt64,
                                           _ gStart: Float, _ gStep: Float, _ gi: inout Int)
    /// ``renderRun`` of two sources read at the same positions into two outputs.
    static func renderRunPair<S: SampleSource>(_ d: S, _ e: S, _ t: InterpolationTables, _ scratch: UnsafeMutablePointer<Float>,
                                               _ out: UnsafeMutablePointer<Float>, _ out2: UnsafeMutablePointer<Float>,
                                               _ run: Int, _ ph: inout UInt64, _ inc: UInt64,
                                               _ gStart: Float, _ gStep: Float, _ gi: inout Int)
}

extension InterpolationKernel {
    static var scale: Float { 1 }

    /// One source after the other, from the same phase and ramp position.
    @inline(__always)
    static func renderRunPair<S: SampleSource>(_ d: S, _ e: S, _ t: InterpolationTables, _ scratch: UnsafeMutablePointer<Float>,
                                               _ out: UnsafeMutablePointer<Float>, _ out2: UnsafeMutablePointer<Float>,
                                               _ run: Int, _ ph: inout UInt64, _ inc: UInt64,
                                               _ gStart: Float, _ gStep: Float, _ gi: inout Int) {
        var ph2 = ph, gi2 = gi
        renderRun(e, t, scratch, out2, run, &ph2, inc, gStart, gStep, &gi2)
        renderRun(d, t, scratch, out, run, &ph, inc, gStart, gStep, &gi)
    }

    @inline(__always)
    static func renderRun<S: SampleSource>(_ d: S, _ t: InterpolationTables, _ scratch: UnsafeMutablePointer<Float>,
                                           _ out: UnsafeMutablePointer<Float>,
                                           _ run: Int, _ ph: inout UInt64, _ inc: UInt64,
                                           _ gStart: Float, _ gStep: Float, _ gi: inout Int) {
        renderOneByOne(d, t, out, run, &ph, inc, gStart, gStep, &gi)
    }

    /// The point index and the 8-bit table position of a 32.32 phase.
    @inline(__always)
    static func index(_ q: UInt64) -> Int { Int(truncatingIfNeeded: q >> 32) }
    @inline(__always)
    static func fraction(_ q: UInt64) -> Int { Int(truncatingIfNeeded: (q >> 24) & 0xFF) }

    /// One frame per step: the reference every wider path must match bit for bit.
    @inline(__always)
    static func renderOneByOne<S: SampleSource>(_ d: S, _ t: InterpolationTables, _ out: UnsafeMutablePointer<Float>,
                                                _ run: Int, _ ph: inout UInt64, _ inc: UInt64,
                                                _ gStart: Float, _ gStep: Float, _ gi: inout Int) {
        var p = ph
        var g = gi
        for k in 0..<run {
            out[k] = interpolate(d, index(p), fraction(p), t) * (gStart + gStep * Float(g))
            g += 1
            p &+= inc
        }
        ph = p
        gi = g
    }
}

/// A kernel whose runs go through widened float points (see ``renderRun``).
protocol WidenedKernel: InterpolationKernel {
    /// Frames at phases q0…q3 (relative to `points`, whose element 0 is the first point the
    /// first frame's window reads), each exactly as ``interpolate`` computes it.
    static func fourFrames(_ points: UnsafeMutablePointer<Float>, _ t: InterpolationTables,
                           _ q0: UInt64, _ q1: UInt64, _ q2: UInt64, _ q3: UInt64) -> SIMD4<Float>
}

extension WidenedKernel {
    /// The sum of a vector's four lanes, in the order ``laneSums`` uses for each of its results.
    @inline(__always)
    static func laneSum(_ v: SIMD4<Float>) -> Float { ((v[0] + v[1]) + v[2]) + v[3] }

    /// Four ``laneSum``s at once: the vectors are transposed so the sums come out as one vector
    /// (fewer shuffles than four horizontal sums), with the same additions in the same order.
    @inline(__always)
    static func laneSums(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ e: SIMD4<Float>)
        -> SIMD4<Float> {
        let s0 = SIMD4(a[0], b[0], c[0], e[0]), s1 = SIMD4(a[1], b[1], c[1], e[1])
        let s2 = SIMD4(a[2], b[2], c[2], e[2]), s3 = SIMD4(a[3], b[3], c[3], e[3])
        return ((s0 + s1) + s2) + s3
    }

    /// Blocks of frames whose points fit the scratch buffer: the points are widened to floats
    /// there once (eight per step), then ``fourFrames`` reads its windows from it.
    ///
    /// Widening first is what makes this fast on baseline x86-64: read straight from 16-bit
    /// windows, the compiler moves the four-frame transposes into the integer domain, where SSE2
    /// needs long chains of word shuffles (cubic: about 100 instructions per four frames against
    /// 85, and 9 % more speed on sustained notes).
    @inline(__always)
    static func renderRun<S: SampleSource>(_ d: S, _ t: InterpolationTables, _ scratch: UnsafeMutablePointer<Float>,
                                           _ out: UnsafeMutablePointer<Float>,
                                           _ run: Int, _ ph: inout UInt64, _ inc: UInt64,
                                           _ gStart: Float, _ gStep: Float, _ gi: inout Int) {
        var p = ph
        var g = gi
        var k = 0
        let points = scratch
        // A block of B frames reads at most B·inc/2³² + 2 + left + right points.
        let room = UInt64(Oscillator.scratchPoints - 2 - left - right) << 32
        let maxBlock = inc == 0 ? run & ~3 : Int(truncatingIfNeeded: min(UInt64(run), room / inc)) & ~3
        // Frame indices of the gain ramp as floats, stepped by 4 (exact: they stay small
        // integers), so each frame's gain is the same start + step × index as one at a time.
        var frameIndex = Float(g) + SIMD4<Float>(0, 1, 2, 3)
        while maxBlock >= 4 && k + 4 <= run {
            let block = min((run - k) & ~3, maxBlock)
            let first = Int(truncatingIfNeeded: p >> 32)
            let last = Int(truncatingIfNeeded: (p &+ UInt64(block - 1) &* inc) >> 32)
            // points[m] is point first − left + m, so frame j's window starts at points[j − first].
            d.widen(first - left, last - first + left + right + 1, into: points)
            var r = p &- (UInt64(first) << 32)
            var i = 0
            while i < block {
                let r1 = r &+ inc, r2 = r1 &+ inc, r3 = r2 &+ inc
                let v = fourFrames(points, t, r, r1, r2, r3)
                let gains = gStart + gStep * frameIndex
                UnsafeMutableRawPointer(out + k + i).storeBytes(of: v * gains, as: SIMD4<Float>.self)
                frameIndex += 4
                r = r3 &+ inc
                i += 4
            }
            p = p &+ UInt64(block) &* inc
            g += block
            k += block
        }
        ph = p
        gi = g
        // The last frames one at a time.
        renderOneByOne(d, t, out + k, run - k, &ph, inc, gStart, gStep, &gi)
    }
}
