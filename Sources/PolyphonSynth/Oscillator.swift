#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Reads a sample at a (fractional) rate, honouring its loop, and interpolates between points.
///
/// The position is 32.32 fixed point so long samples keep sub-sample precision and phase
/// arithmetic never rounds differently between block sizes.
struct Oscillator {
    var phase: UInt64 = 0
    var increment: UInt64 = 0
    /// First playable point, one past the last, loop start, loop end (first point after the loop).
    var start = 0, end = 0, loopStart = 0, loopEnd = 0
    var isLooping = false
    /// True once the read position has wrapped at least once: from then on points before the
    /// loop start are read from the loop's end.
    var hasLooped = false
    var isFinished = false

    var position: Int { Int(truncatingIfNeeded: phase >> 32) }

    /// Sample points the cubic and sinc kernels widen to floats per block: the size of the
    /// scratch buffer ``render(_:data:tables:scratch:out:count:ramp:)`` needs.
    static let scratchPoints = 1024

    mutating func setIncrement(_ ratio: Double) {
        let r = min(max(ratio, 0), 65535)
        // Below 2⁴⁸, so the signed conversion (one instruction) is exact.
        increment = UInt64(Int64(r * 4_294_967_296.0))
    }

    /// Point `j` with loop wrapping and edge handling: before the start repeats the first point,
    /// past the end is silence (the spec requires 46 zero points there anyway).
    @inline(__always)
    func point<S: SampleSource>(_ data: S, _ j: Int) -> Float {
        var k = j
        if isLooping {
            let len = loopEnd - loopStart
            if k >= loopEnd { k -= len * ((k - loopEnd) / len + 1) }
            else if hasLooped && k < loopStart { k += len * ((loopStart - k - 1) / len + 1) }
        }
        if k < start { k = start }
        if k >= end { return 0 }
        return data[k]
    }

    /// Renders up to `count` points into `out`, scaled by a gain ramp. Returns the number of
    /// frames written; fewer than `count` means the sample ended (the rest is untouched).
    @inline(__always)
    mutating func render<K: InterpolationKernel, S: SampleSource>(
        _ kernel: K.Type, data: S, tables: InterpolationTables, scratch: UnsafeMutablePointer<Float>,
        out: UnsafeMutablePointer<Float>, count: Int, ramp: inout GainRamp
    ) -> Int {
        render(kernel, data: data, twin: nil, tables: tables, scratch: scratch, out: out, twinOut: out,
               count: count, ramp: &ramp)
    }

    /// ``render(_:data:tables:scratch:out:count:ramp:)`` for this oscillator and a twin: another
    /// sample read with the same geometry, phase, increment and gain ramp, whose points are
    /// `twin` indexed like `data` (the other half of a stereo pair). One phase stream serves
    /// both; each output is bit for bit what rendering its own oscillator would give.
    @inline(__always)
    mutating func render<K: InterpolationKernel, S: SampleSource>(
        _ kernel: K.Type, data: S, twin: S?, tables: InterpolationTables, scratch: UnsafeMutablePointer<Float>,
        out: UnsafeMutablePointer<Float>, twinOut: UnsafeMutablePointer<Float>, count: Int, ramp: inout GainRamp
    ) -> Int {
        var ph = phase
        let inc = increment
        // Points are read unscaled; the source's power-of-two scale rides on the gain instead
        // (exact, so the result is the same as scaling every point, with fewer multiplies).
        let gStart = ramp.start * (S.scale * K.scale), gStep = ramp.step * (S.scale * K.scale)
        var gi = ramp.index
        let loopEndFixed = UInt64(loopEnd) << 32
        let loopLenFixed = UInt64(loopEnd - loopStart) << 32
        let endLimit = isLooping ? loopEnd : end
        var fastLo = (isLooping && hasLooped ? loopStart : start) + K.left
        let fastHi = endLimit - K.right
        let looping = isLooping
        var i = 0
        while i < count {
            let idx = Int(truncatingIfNeeded: ph >> 32)
            if idx >= fastLo && idx < fastHi && inc > 0 {
                // A run of points whose neighbours are all inside the sample (or loop): no edge
                // or wrap checks per point. The run ends before the read position can reach
                // fastHi, so it never crosses the loop end.
                let limit = (UInt64(fastHi) << 32) &- ph
                let run = min(count - i, Int(truncatingIfNeeded: (limit &+ inc &- 1) / inc))
                if let twin {
                    K.renderRunPair(data, twin, tables, scratch, out + i, twinOut + i, run, &ph, inc, gStart, gStep, &gi)
                } else {
                    K.renderRun(data, tables, scratch, out + i, run, &ph, inc, gStart, gStep, &gi)
                }
                i += run
                continue
            }
            if !looping && idx >= end {
                isFinished = true
                break
            }
            let frac = Int(truncatingIfNeeded: (ph >> 24) & 0xFF)
            let v: Float
            let fast = idx >= fastLo && idx < fastHi
            if fast {
                v = K.interpolate(data, idx, frac, tables)
            } else {
                v = K.interpolateSlow(self, data, idx, frac, tables)
            }
            out[i] = v * (gStart + gStep * Float(gi))
            if let twin {
                let w = fast ? K.interpolate(twin, idx, frac, tables) : K.interpolateSlow(self, twin, idx, frac, tables)
                twinOut[i] = w * (gStart + gStep * Float(gi))
            }
            gi += 1
            ph &+= inc
            if looping && ph >= loopEndFixed {
                let over = (ph - loopEndFixed) % loopLenFixed
                ph = (UInt64(loopStart) << 32) + over
                if !hasLooped {
                    hasLooped = true
                    fastLo = loopStart + K.left
                }
            }
            i += 1
        }
        phase = ph
        ramp.index = gi
        return i
    }
}

/// Sample points as floats, unscaled (integer values); ``scale`` maps them to −1…1. Two concrete
/// sources so the render loop is specialised for 16-bit banks (the common case) without a
/// per-point branch.
protocol SampleSource {
    /// A power of two, so applying it anywhere in a product rounds the same.
    static var scale: Float { get }
    /// The stored 16-bit words (of 24-bit points, the high parts).
    var words: UnsafePointer<Int16> { get }
    subscript(_ j: Int) -> Float { get }
    /// Points j … j+3.
    func window4(_ j: Int) -> SIMD4<Float>
    /// Points j … j+7.
    func window8(_ j: Int) -> SIMD8<Float>
    /// Points j ..< j + count as floats into `out`.
    func widen(_ j: Int, _ count: Int, into out: UnsafeMutablePointer<Float>)
}

struct Int16Samples: SampleSource {
    static var scale: Float { 1.0 / 32768.0 }
    let words: UnsafePointer<Int16>
    @inline(__always)
    subscript(_ j: Int) -> Float { Float(words[j]) }
    @inline(__always)
    func window4(_ j: Int) -> SIMD4<Float> {
        // One 8-byte load and a vector widen instead of four scalar loads.
        let v = UnsafeRawPointer(words + j).loadUnaligned(as: SIMD4<Int16>.self)
        return SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: v))
    }
    @inline(__always)
    func window8(_ j: Int) -> SIMD8<Float> {
        let v = UnsafeRawPointer(words + j).loadUnaligned(as: SIMD8<Int16>.self)
        return SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: v))
    }
    @inline(__always)
    func widen(_ j: Int, _ count: Int, into out: UnsafeMutablePointer<Float>) {
        var k = 0
        // Eight at a time, never reading past the last point asked for.
        while k + 8 <= count {
            UnsafeMutableRawPointer(out + k).storeBytes(of: window8(j &+ k), as: SIMD8<Float>.self)
            k += 8
        }
        while k < count {
            out[k] = self[j &+ k]
            k += 1
        }
    }
}

/// 24-bit points: the `smpl` word is the high part, the `sm24` byte the low 8 bits.
struct Int24Samples: SampleSource {
    static var scale: Float { 1.0 / 8_388_608.0 }
    let words: UnsafePointer<Int16>
    let low: UnsafePointer<UInt8>
    @inline(__always)
    subscript(_ j: Int) -> Float {
        Float(Int32(words[j]) << 8 | Int32(low[j]))
    }
    @inline(__always)
    func window4(_ j: Int) -> SIMD4<Float> { SIMD4(self[j], self[j + 1], self[j + 2], self[j + 3]) }
    @inline(__always)
    func window8(_ j: Int) -> SIMD8<Float> {
        SIMD8(self[j], self[j + 1], self[j + 2], self[j + 3], self[j + 4], self[j + 5], self[j + 6], self[j + 7])
    }
    @inline(__always)
    func widen(_ j: Int, _ count: Int, into out: UnsafeMutablePointer<Float>) {
        for k in 0..<count { out[k] = self[j &+ k] }
    }
}

/// A linear gain ramp across a control period. Each frame's gain is computed from its index
/// rather than accumulated, so frames can be computed in any grouping with the same result
/// and without a loop-carried addition.
struct GainRamp: Equatable {
    /// Start and step side by side, written and read as one 8-byte value: written as two
    /// floats at a control point and read back as one pair when the oscillator starts, they
    /// missed store-to-load forwarding (a stall of a dozen cycles per voice and period).
    private var pair = SIMD2<Float>.zero
    var start: Float { pair.x }
    var step: Float { pair.y }
    /// Frames of the ramp already rendered.
    var index = 0

    init() {}

    init(start: Float, step: Float, index: Int) {
        pair = SIMD2(start, step)
        self.index = index
    }

    @inline(__always)
    var current: Float { start + step * Float(index) }
}

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
            let sums = SIMD4(m01[0], m01[2], m23[0], m23[2]) &+ SIMD4(m01[1], m01[3], m23[1], m23[3])
            let gains = gStart + gStep * frameIndex
            UnsafeMutableRawPointer(out + k).storeBytes(of: SIMD4<Float>(sums) * gains, as: SIMD4<Float>.self)
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
            let sums = SIMD4(m01[0], m01[2], m23[0], m23[2]) &+ SIMD4(m01[1], m01[3], m23[1], m23[3])
            let sums2 = SIMD4(n01[0], n01[2], n23[0], n23[2]) &+ SIMD4(n01[1], n01[3], n23[1], n23[3])
            let gains = gStart + gStep * frameIndex
            UnsafeMutableRawPointer(out + k).storeBytes(of: SIMD4<Float>(sums) * gains, as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(out2 + k).storeBytes(of: SIMD4<Float>(sums2) * gains, as: SIMD4<Float>.self)
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
