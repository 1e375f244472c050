#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// The cubic kernel for 16-bit points, computed in integers: 16-bit points times 16-bit
/// coefficients in units of 2⁻¹⁵ (``InterpolationTables/cubicWords``), summed exactly in 32 bits
/// (at most 1.25 · 2³⁰: no overflow).
///
/// A window of four 16-bit points is one 8-byte load, and the products of two frames' windows
/// and coefficient rows are summed pairwise by one multiply-add instruction (`pmaddwd` on x86,
/// `smull`/`smlal` pairs on ARM), so four frames need no float widening and no transposes:
/// about 40 instructions against 85 for the float kernel. Integer sums are exact in any order,
/// so every path gives the same bits. The rounded coefficients move the output by −90 dB on
/// full-scale noise and −128 dB on a 1 kHz sine (see ``InterpolationTables/fixedPointRow(_:)``):
/// far below the error of the 256-step fraction the float kernel shares with FluidSynth
/// (about −76 dB on that sine).
///
/// Only for ``Int16Samples``: with 24-bit points it would read the high words alone.
enum WordCubicKernel: InterpolationKernel {
    static var left: Int { 1 }
    static var right: Int { 2 }
    static var scale: Float { 1.0 / 32768.0 }

    /// Two frames: the products of the four points at `w0` with the four coefficients at `c0`,
    /// summed pairwise into lanes 0 and 1, and those of `w1` and `c1` into lanes 2 and 3.
    @inline(__always)
    static func pairProducts(_ w0: UnsafeRawPointer, _ c0: UnsafeRawPointer,
                             _ w1: UnsafeRawPointer, _ c1: UnsafeRawPointer) -> SIMD4<Int32> {
        #if arch(x86_64)
        // Spelled with the intrinsics: from the portable form, LLVM splits the points into even
        // and odd lanes first and re-interleaves them for pmaddwd (three times the code).
        @inline(__always) func load(_ p: UnsafeRawPointer) -> __m128i {
            _mm_loadl_epi64(p.assumingMemoryBound(to: __m128i.self))
        }
        let m = _mm_madd_epi16(_mm_unpacklo_epi64(load(w0), load(w1)), _mm_unpacklo_epi64(load(c0), load(c1)))
        return unsafeBitCast(m, to: SIMD4<Int32>.self)
        #elseif arch(wasm32)
        return webAssemblyPairProducts(w0, c0, w1, c1)
        #else
        return portablePairProducts(w0, c0, w1, c1)
        #endif
    }

    /// ``pairProducts`` in plain SIMD arithmetic: what other architectures run (compiled
    /// everywhere, so the tests compare it with the x86 form).
    @inline(__always)
    static func portablePairProducts(_ w0: UnsafeRawPointer, _ c0: UnsafeRawPointer,
                                     _ w1: UnsafeRawPointer, _ c1: UnsafeRawPointer) -> SIMD4<Int32> {
        let w = SIMD8(lowHalf: w0.loadUnaligned(as: SIMD4<Int16>.self), highHalf: w1.loadUnaligned(as: SIMD4<Int16>.self))
        let c = SIMD8(lowHalf: c0.loadUnaligned(as: SIMD4<Int16>.self), highHalf: c1.loadUnaligned(as: SIMD4<Int16>.self))
        let p = SIMD8<Int32>(truncatingIfNeeded: w) &* SIMD8<Int32>(truncatingIfNeeded: c)
        return p.evenHalf &+ p.oddHalf
    }

    /// Four frames' sums from two ``pairProducts``: lanes 0+1 and 2+3 of `m01`, then of `m23`.
    @inline(__always)
    static func frameSums(_ m01: SIMD4<Int32>, _ m23: SIMD4<Int32>) -> SIMD4<Int32> {
        #if arch(wasm32)
        return webAssemblyFrameSums(m01, m23)
        #else
        return SIMD4(m01[0], m01[2], m23[0], m23[2]) &+ SIMD4(m01[1], m01[3], m23[1], m23[3])
        #endif
    }

    /// Where frame `idx`'s window starts.
    @inline(__always)
    static func window<S: SampleSource>(_ d: S, _ idx: Int) -> UnsafeRawPointer {
        UnsafeRawPointer(d.words + (idx &- 1))
    }

    @inline(__always)
    static func row(_ t: InterpolationTables, _ frac: Int) -> UnsafeRawPointer {
        UnsafeRawPointer(t.cubicWords + frac)
    }

    @inline(__always)
    static func sum(_ w: UnsafeRawPointer, _ c: UnsafeRawPointer) -> Float {
        let p = pairProducts(w, c, w, c)
        return Float(p[0] &+ p[1])
    }

    @inline(__always)
    static func interpolate<S: SampleSource>(_ d: S, _ idx: Int, _ frac: Int, _ t: InterpolationTables) -> Float {
        sum(window(d, idx), row(t, frac))
    }
    @inline(__always)
    static func interpolateSlow<S: SampleSource>(_ o: Oscillator, _ d: S, _ idx: Int, _ frac: Int,
                                _ t: InterpolationTables) -> Float {
        // The points are 16-bit values as floats: converting back is exact. (Scalar conversions:
        // the vector one is a generic, unspecialised call per lane.)
        var w = SIMD4<Int16>(Int16(o.point(d, idx - 1)), Int16(o.point(d, idx)),
                             Int16(o.point(d, idx + 1)), Int16(o.point(d, idx + 2)))
        return withUnsafeBytes(of: &w) { sum($0.baseAddress!, row(t, frac)) }
    }

    @inline(__always)
    static func renderRun<S: SampleSource>(_ d: S, _ t: InterpolationTables, _ scratch: UnsafeMutablePointer<Float>,
                                           _ out: UnsafeMutablePointer<Float>,
                                           _ run: Int, _ ph: inout UInt64, _ inc: UInt64,
                                           _ gStart: Float, _ gStep: Float, _ gi: inout Int) {
        var p = ph
        var k = 0
        var frameIndex = Float(gi) + SIMD4<Float>(0, 1, 2, 3)
        let inc2 = inc &* 2
        // Wrapping counters: the checked forms cost three instructions per group of four frames.
        let groups = run &>> 2
        while k < groups &<< 2 {
            // Two phases live at a time (p, q), stepped by 2·inc: fewer registers than four.
            var q = p &+ inc
            let m01 = pairProducts(window(d, index(p)), row(t, fraction(p)), window(d, index(q)), row(t, fraction(q)))
            p = p &+ inc2
            q = q &+ inc2
            let m23 = pairProducts(window(d, index(p)), row(t, fraction(p)), window(d, index(q)), row(t, fraction(q)))
            let sums = frameSums(m01, m23)
            let gains = gStart + gStep * frameIndex
            UnsafeMutableRawPointer(out + k).storeBytes(of: SIMD4<Float>(converting: sums) * gains, as: SIMD4<Float>.self)
            frameIndex += 4
            p = p &+ inc2
            k &+= 4
        }
        ph = p
        gi += k
        renderOneByOne(d, t, out + k, run - k, &ph, inc, gStart, gStep, &gi)
    }

    /// ``renderRun`` for two sources at the same positions: the phases, indices, fractions,
    /// coefficient rows and gains are worked out once for both.
    @inline(__always)
    static func renderRunPair<S: SampleSource>(_ d: S, _ e: S, _ t: InterpolationTables, _ scratch: UnsafeMutablePointer<Float>,
                                               _ out: UnsafeMutablePointer<Float>, _ out2: UnsafeMutablePointer<Float>,
                                               _ run: Int, _ ph: inout UInt64, _ inc: UInt64,
                                               _ gStart: Float, _ gStep: Float, _ gi: inout Int) {
        var p = ph
        var k = 0
        var frameIndex = Float(gi) + SIMD4<Float>(0, 1, 2, 3)
        let inc2 = inc &* 2
        let groups = run &>> 2
        while k < groups &<< 2 {
            var q = p &+ inc
            let i0 = index(p), r0 = row(t, fraction(p)), i1 = index(q), r1 = row(t, fraction(q))
            let m01 = pairProducts(window(d, i0), r0, window(d, i1), r1)
            let n01 = pairProducts(window(e, i0), r0, window(e, i1), r1)
            p = p &+ inc2
            q = q &+ inc2
            let i2 = index(p), r2 = row(t, fraction(p)), i3 = index(q), r3 = row(t, fraction(q))
            let m23 = pairProducts(window(d, i2), r2, window(d, i3), r3)
            let n23 = pairProducts(window(e, i2), r2, window(e, i3), r3)
            let sums = frameSums(m01, m23)
            let sums2 = frameSums(n01, n23)
            let gains = gStart + gStep * frameIndex
            UnsafeMutableRawPointer(out + k).storeBytes(of: SIMD4<Float>(converting: sums) * gains, as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(out2 + k).storeBytes(of: SIMD4<Float>(converting: sums2) * gains, as: SIMD4<Float>.self)
            frameIndex += 4
            p = p &+ inc2
            k &+= 4
        }
        var p2 = p, g2 = gi + k
        renderOneByOne(e, t, out2 + k, run - k, &p2, inc, gStart, gStep, &g2)
        ph = p
        gi += k
        renderOneByOne(d, t, out + k, run - k, &ph, inc, gStart, gStep, &gi)
    }
}
