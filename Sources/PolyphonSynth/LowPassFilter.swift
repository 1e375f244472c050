import Foundation

/// The voice's resonant 2-pole low-pass filter (FluidSynth's IIR: RBJ low-pass, direct form II),
/// with FluidSynth's Q mapping and its pass-band gain reduction of 1/√q.
///
/// Coefficients glide linearly, sample by sample, to new targets over a control period so cutoff
/// sweeps from the modulation envelope or LFO do not zipper (as FluidSynth does). The voice skips
/// the filter entirely while it is fully open (initialFilterFc 13500 cents and Q 0 with nothing
/// modulating the cutoff).
///
/// An IIR filter run one voice at a time is bound by the latency of its recursion, not by
/// arithmetic, so the synthesizer filters four voices at once, one per SIMD lane
/// (``process(_:count:)``). Each lane does exactly the arithmetic a lone voice would, so a voice's
/// output never depends on which voices share its batch, and the glide is applied at the frames
/// the voice's own control points name (``FilterEvent``), so it never depends on how render
/// calls are sliced either.
struct LowPassFilter {
    /// Coefficients in use (a1, a2, unused, b02; b0 = b2 = b02 and b1 = 2·b02 for this low-pass),
    /// the glide's target and per-frame step.
    var coefficients = SIMD4<Float>(repeating: 0)
    var increments = SIMD4<Float>(repeating: 0)
    var target = SIMD4<Float>(repeating: 0)
    /// Frames left in the current glide; at 0 the coefficients snap to the target.
    var glideRemaining = 0
    /// The last two centre values of direct form II.
    var hist1: Float = 0, hist2: Float = 0

    // Control side: what the voice last asked for.
    private var lastCutoff: Float = -1, lastQ: Float = -1
    private var inverseTwoQ: Float = 1, passGain: Float = 1
    /// True once a target has been set since the last reset.
    private(set) var isPrimed = false

    mutating func reset() {
        hist1 = 0; hist2 = 0
        glideRemaining = 0
        increments = SIMD4(repeating: 0)
        lastCutoff = -1; lastQ = -1
        isPrimed = false
    }

    /// The coefficients for a cutoff (absolute cents) and resonance (cB above DC), or nil when
    /// they are what was asked for last (the glide under way continues). Marks the filter primed.
    mutating func coefficients(cutoffCents: Float, qCentibels: Float, table: CutoffTable) -> SIMD4<Float>? {
        if isPrimed && abs(cutoffCents - lastCutoff) < 0.01 && qCentibels == lastQ { return nil }
        isPrimed = true
        lastCutoff = cutoffCents
        if qCentibels != lastQ {
            lastQ = qCentibels
            // FluidSynth: the response's Q is the SF2 value in dB minus 3.01, so Q 0 is the flat
            // (Butterworth) shape, −3 dB at the cutoff. The pass band is lowered by half the
            // resonance in dB, measured from Q 0 (FluidSynth 2.3.1 renders Q 0 filtered and
            // unfiltered voices at the same level, and Q 100 cB 5.0 dB lower).
            let qLinear = powf(10, (qCentibels / 10 - 3.01) / 20)
            inverseTwoQ = 1 / (2 * qLinear)
            passGain = powf(10, -qCentibels / 400)
        }
        // RBJ low-pass.
        let w = table.lookup(cents: cutoffCents)
        let sinW = w[0], oneMinusCos = w[1]
        let alpha = sinW * inverseTwoQ
        let a0Inv = 1 / (1 + alpha)
        let b02 = oneMinusCos * a0Inv * passGain * 0.5
        return SIMD4(-2 * (1 - oneMinusCos) * a0Inv, (1 - alpha) * a0Inv, 0, b02)
    }

    /// Applies a control point's event: flush denormal state, then glide or snap to a target.
    @inline(__always)
    mutating func apply(_ event: FilterEvent) {
        // A decaying voice must never drop into slow denormal arithmetic.
        if abs(hist1) < 1e-20 { hist1 = 0 }
        if abs(hist2) < 1e-20 { hist2 = 0 }
        switch event.kind {
        case .glide where event.target != coefficients:
            target = event.target
            increments = (target - coefficients) * (1 / Float(event.frames))
            glideRemaining = event.frames
        case .glide, .snap:
            target = event.target
            coefficients = event.target
            increments = SIMD4(repeating: 0)
            glideRemaining = 0
        case .flush:
            break
        }
    }

    @inline(__always)
    static func run(_ p0: UnsafeMutablePointer<Float>, _ p1: UnsafeMutablePointer<Float>,
                    _ p2: UnsafeMutablePointer<Float>, _ p3: UnsafeMutablePointer<Float>, _ n: Int,
                    _ a1: inout SIMD4<Float>, _ a2: inout SIMD4<Float>,
                    _ b02: inout SIMD4<Float>, _ h1: inout SIMD4<Float>, _ h2: inout SIMD4<Float>,
                    _ d1: SIMD4<Float>, _ d2: SIMD4<Float>, _ db02: SIMD4<Float>,
                    gliding: Bool) -> SIMD4<Float> {
        var ca1 = a1, ca2 = a2, cb02 = b02, s1 = h1, s2 = h2
        @inline(__always) func step(_ x: SIMD4<Float>) -> SIMD4<Float> {
            if gliding {
                // Lanes not gliding add zero, which leaves their coefficients exact.
                ca1 += d1; ca2 += d2; cb02 += db02
            }
            // a2·h2 first: h2 is older, so only a1·h1 sits on the loop-carried path.
            let c = (x - ca2 * s2) - ca1 * s1
            // b0·c + b1·h1 + b2·h2 with b1 = 2·b02: one multiply.
            let y = cb02 * ((c + s2) + (s1 + s1))
            s2 = s1
            s1 = c
            return y
        }
        var i = 0
        // Each lane's outputs summed: finite exactly when every output is (see `process`).
        // Giving the outputs this second use also keeps the compiler from re-deriving them in
        // the transposed layout from c, h1, h2 and b02, which costs twice the shuffles.
        var sum = SIMD4<Float>.zero
        // Four frames at a time: one vector load per voice, transposed to one vector per frame
        // and back, so the outputs never leave vector registers lane by lane.
        while i + 4 <= n {
            let r0 = UnsafeRawPointer(p0 + i).loadUnaligned(as: SIMD4<Float>.self)
            let r1 = UnsafeRawPointer(p1 + i).loadUnaligned(as: SIMD4<Float>.self)
            let r2 = UnsafeRawPointer(p2 + i).loadUnaligned(as: SIMD4<Float>.self)
            let r3 = UnsafeRawPointer(p3 + i).loadUnaligned(as: SIMD4<Float>.self)
            let (x0, x1, x2, x3) = transpose(r0, r1, r2, r3)
            let y0 = step(x0), y1 = step(x1), y2 = step(x2), y3 = step(x3)
            sum += (y0 + y1) + (y2 + y3)
            let (o0, o1, o2, o3) = transpose(y0, y1, y2, y3)
            UnsafeMutableRawPointer(p0 + i).storeBytes(of: o0, as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(p1 + i).storeBytes(of: o1, as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(p2 + i).storeBytes(of: o2, as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(p3 + i).storeBytes(of: o3, as: SIMD4<Float>.self)
            i += 4
        }
        while i < n {
            let y = step(SIMD4(p0[i], p1[i], p2[i], p3[i]))
            sum += y
            p0[i] = y[0]; p1[i] = y[1]; p2[i] = y[2]; p3[i] = y[3]
            i += 1
        }
        a1 = ca1; a2 = ca2; b02 = cb02; h1 = s1; h2 = s2
        return sum
    }

    /// Filters up to four voices in place over `count` frames, one per lane, applying each
    /// lane's events at their frames. Unused lanes point at a spare filter and a spare buffer.
    static func process(_ batch: FilterBatch, count: Int) {
        let f = batch.filters, buf = batch.buffers
        var next = SIMD4<Int>(repeating: 0)  // index of each lane's next event
        var frame = 0
        while frame < count {
            // Lane events and glide ends due now, then the span until the next one.
            var end = count
            for l in 0..<4 {
                let events = batch.events[l], eventCount = batch.eventCounts[l]
                while next[l] < eventCount && Int(events[next[l]].offset) <= frame {
                    f[l].pointee.apply(events[next[l]])
                    next[l] += 1
                }
                if next[l] < eventCount { end = min(end, Int(events[next[l]].offset)) }
                let g = f[l].pointee.glideRemaining
                if g > 0 { end = min(end, frame + g) }
            }
            let n = end - frame
            var a1 = SIMD4(f[0].pointee.coefficients[0], f[1].pointee.coefficients[0],
                           f[2].pointee.coefficients[0], f[3].pointee.coefficients[0])
            var a2 = SIMD4(f[0].pointee.coefficients[1], f[1].pointee.coefficients[1],
                           f[2].pointee.coefficients[1], f[3].pointee.coefficients[1])
            var b02 = SIMD4(f[0].pointee.coefficients[3], f[1].pointee.coefficients[3],
                            f[2].pointee.coefficients[3], f[3].pointee.coefficients[3])
            var h1 = SIMD4(f[0].pointee.hist1, f[1].pointee.hist1, f[2].pointee.hist1, f[3].pointee.hist1)
            var h2 = SIMD4(f[0].pointee.hist2, f[1].pointee.hist2, f[2].pointee.hist2, f[3].pointee.hist2)
            let p0 = buf[0] + frame, p1 = buf[1] + frame, p2 = buf[2] + frame, p3 = buf[3] + frame
            let gliding = f[0].pointee.glideRemaining > 0 || f[1].pointee.glideRemaining > 0
                || f[2].pointee.glideRemaining > 0 || f[3].pointee.glideRemaining > 0
            let d1: SIMD4<Float>, d2: SIMD4<Float>, db02: SIMD4<Float>
            if gliding {
                d1 = SIMD4(f[0].pointee.increments[0], f[1].pointee.increments[0],
                           f[2].pointee.increments[0], f[3].pointee.increments[0])
                d2 = SIMD4(f[0].pointee.increments[1], f[1].pointee.increments[1],
                           f[2].pointee.increments[1], f[3].pointee.increments[1])
                db02 = SIMD4(f[0].pointee.increments[3], f[1].pointee.increments[3],
                             f[2].pointee.increments[3], f[3].pointee.increments[3])
            } else {
                d1 = .zero; d2 = .zero; db02 = .zero
            }
            let sum = gliding
                ? Self.run(p0, p1, p2, p3, n, &a1, &a2, &b02, &h1, &h2, d1, d2, db02, gliding: true)
                : Self.run(p0, p1, p2, p3, n, &a1, &a2, &b02, &h1, &h2, d1, d2, db02, gliding: false)
            for l in 0..<4 {
                let lane = f[l]
                if !sum[l].isFinite {
                    // A NaN or infinity would stay in the recursion for good and poison the mix:
                    // silence this span of the voice and start its filter afresh (the next
                    // control point sets it again). Finite input and coefficients never get here.
                    lane.pointee.reset()
                    (buf[l] + frame).update(repeating: 0, count: n)
                    continue
                }
                lane.pointee.hist1 = h1[l]
                lane.pointee.hist2 = h2[l]
                if lane.pointee.glideRemaining > 0 {
                    lane.pointee.glideRemaining -= n
                    if lane.pointee.glideRemaining <= 0 {
                        // Reached the target: snap exactly.
                        lane.pointee.coefficients = lane.pointee.target
                        lane.pointee.increments = SIMD4(repeating: 0)
                        lane.pointee.glideRemaining = 0
                    } else {
                        lane.pointee.coefficients = SIMD4(a1[l], a2[l], 0, b02[l])
                    }
                }
            }
            frame = end
        }
    }
}

/// Rows to columns of a 4 × 4 block.
@inline(__always)
func transpose(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ d: SIMD4<Float>)
    -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
    let ab01 = SIMD4(a[0], b[0], a[1], b[1]), ab23 = SIMD4(a[2], b[2], a[3], b[3])
    let cd01 = SIMD4(c[0], d[0], c[1], d[1]), cd23 = SIMD4(c[2], d[2], c[3], d[3])
    return (SIMD4(ab01[0], ab01[1], cd01[0], cd01[1]), SIMD4(ab01[2], ab01[3], cd01[2], cd01[3]),
            SIMD4(ab23[0], ab23[1], cd23[0], cd23[1]), SIMD4(ab23[2], ab23[3], cd23[2], cd23[3]))
}

/// What a voice's control point asks of its filter, at a frame of the current render chunk.
struct FilterEvent {
    enum Kind: Int32 { case flush, glide, snap }
    var offset: Int32
    var kind: Kind
    /// Glide length in frames.
    var frames: Int
    var target: SIMD4<Float>

    init(offset: Int, kind: Kind, frames: Int = 0, target: SIMD4<Float> = SIMD4(repeating: 0)) {
        self.offset = Int32(offset)
        self.kind = kind
        self.frames = frames
        self.target = target
    }
}

/// Four voices' filters, buffers and events for one ``LowPassFilter/process(_:count:)`` call.
struct FilterBatch {
    var filters: UnsafeMutablePointer<UnsafeMutablePointer<LowPassFilter>>
    var buffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var events: UnsafeMutablePointer<UnsafePointer<FilterEvent>>
    var eventCounts: UnsafeMutablePointer<Int>
}
