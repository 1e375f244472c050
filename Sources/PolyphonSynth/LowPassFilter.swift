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
/// arithmetic, so the synthesizer filters eight voices at once, one per SIMD lane
/// (``process(_:count:)``): two independent four-lane recursions, whose multiply and subtract
/// latencies overlap. Each lane does exactly the arithmetic a lone voice would, so a voice's
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
        case .glide, .snap, .join:
            target = event.target
            coefficients = event.target
            increments = SIMD4(repeating: 0)
            glideRemaining = 0
        case .inject:
            hist1 += event.target[0]
            hist2 += event.target[1]
        case .settle:
            // A shared filter's state 160 dB below full scale is set to 0 (members or not).
            if abs(hist1) < 1e-8 && abs(hist2) < 1e-8 { hist1 = 0; hist2 = 0 }
        case .flush:
            break
        }
    }

    /// Hands the filter's state over to a shared filter (``SharedFilters``): returns it as
    /// (hist1, hist2, 0, 0) and leaves this filter silent, with its coefficients kept.
    @inline(__always)
    mutating func handOver() -> SIMD4<Float> {
        let state = SIMD4<Float>(hist1, hist2, 0, 0)
        hist1 = 0; hist2 = 0
        return state
    }

    /// Filter state and coefficients of a batch's lanes, one lane per voice.
    typealias Lanes = SIMD8<Float>

    @inline(__always)
    static func run(_ p: UnsafePointer<UnsafeMutablePointer<Float>>, _ frame: Int, _ n: Int,
                    _ a1: inout Lanes, _ a2: inout Lanes, _ b02: inout Lanes, _ h1: inout Lanes, _ h2: inout Lanes,
                    _ d1: Lanes, _ d2: Lanes, _ db02: Lanes, gliding: Bool) -> Lanes {
        var ca1 = a1, ca2 = a2, cb02 = b02, s1 = h1, s2 = h2
        @inline(__always) func step(_ x: Lanes) -> Lanes {
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
        let p0 = p[0] + frame, p1 = p[1] + frame, p2 = p[2] + frame, p3 = p[3] + frame
        let p4 = p[4] + frame, p5 = p[5] + frame, p6 = p[6] + frame, p7 = p[7] + frame
        @inline(__always) func load(_ q: UnsafeMutablePointer<Float>, _ i: Int) -> SIMD4<Float> {
            UnsafeRawPointer(q + i).loadUnaligned(as: SIMD4<Float>.self)
        }
        @inline(__always) func store(_ v: SIMD4<Float>, _ q: UnsafeMutablePointer<Float>, _ i: Int) {
            UnsafeMutableRawPointer(q + i).storeBytes(of: v, as: SIMD4<Float>.self)
        }
        var i = 0
        // Each lane's outputs summed: finite exactly when every output is (see `process`).
        // Giving the outputs this second use also keeps the compiler from re-deriving them in
        // the transposed layout from c, h1, h2 and b02, which costs twice the shuffles.
        var sum = Lanes.zero
        // Four frames at a time: one vector load per voice, transposed to one vector per frame
        // and back, so the outputs never leave vector registers lane by lane. The two halves
        // of the lanes are independent recursions, so one half's multiply and add latency
        // overlaps the other's.
        while i + 4 <= n {
            let (x0, x1, x2, x3) = transpose(load(p0, i), load(p1, i), load(p2, i), load(p3, i))
            let (z0, z1, z2, z3) = transpose(load(p4, i), load(p5, i), load(p6, i), load(p7, i))
            let y0 = step(Lanes(lowHalf: x0, highHalf: z0)), y1 = step(Lanes(lowHalf: x1, highHalf: z1))
            let y2 = step(Lanes(lowHalf: x2, highHalf: z2)), y3 = step(Lanes(lowHalf: x3, highHalf: z3))
            sum += (y0 + y1) + (y2 + y3)
            let (o0, o1, o2, o3) = transpose(y0.lowHalf, y1.lowHalf, y2.lowHalf, y3.lowHalf)
            store(o0, p0, i); store(o1, p1, i); store(o2, p2, i); store(o3, p3, i)
            let (o4, o5, o6, o7) = transpose(y0.highHalf, y1.highHalf, y2.highHalf, y3.highHalf)
            store(o4, p4, i); store(o5, p5, i); store(o6, p6, i); store(o7, p7, i)
            i += 4
        }
        while i < n {
            let y = step(Lanes(p0[i], p1[i], p2[i], p3[i], p4[i], p5[i], p6[i], p7[i]))
            sum += y
            p0[i] = y[0]; p1[i] = y[1]; p2[i] = y[2]; p3[i] = y[3]
            p4[i] = y[4]; p5[i] = y[5]; p6[i] = y[6]; p7[i] = y[7]
            i += 1
        }
        a1 = ca1; a2 = ca2; b02 = cb02; h1 = s1; h2 = s2
        return sum
    }

    /// Filters up to ``FilterBatch/lanes`` voices in place over `count` frames, one per lane,
    /// applying each lane's events at their frames. Unused lanes point at a spare filter and a
    /// spare buffer.
    static func process(_ batch: FilterBatch, count: Int) {
        let f = batch.filters, buf = batch.buffers
        let lanes = FilterBatch.lanes
        var next = SIMD8<Int>(repeating: 0)  // index of each lane's next event
        var frame = 0
        @inline(__always) func gather(_ value: (UnsafeMutablePointer<LowPassFilter>) -> Float) -> Lanes {
            Lanes(value(f[0]), value(f[1]), value(f[2]), value(f[3]), value(f[4]), value(f[5]), value(f[6]), value(f[7]))
        }
        while frame < count {
            // Lane events and glide ends due now, then the span until the next one.
            var end = count
            var gliding = false
            for l in 0..<lanes {
                let events = batch.events[l], eventCount = batch.eventCounts[l]
                while next[l] < eventCount && Int(events[next[l]].offset) <= frame {
                    f[l].pointee.apply(events[next[l]])
                    if events[next[l]].kind == .join {
                        // The voice mixes into a shared filter from here on: its state goes along.
                        events[next[l]].target = f[l].pointee.handOver()
                    }
                    next[l] += 1
                }
                if next[l] < eventCount { end = min(end, Int(events[next[l]].offset)) }
                let g = f[l].pointee.glideRemaining
                if g > 0 {
                    end = min(end, frame + g)
                    gliding = true
                }
            }
            let n = end - frame
            var a1 = gather { $0.pointee.coefficients[0] }, a2 = gather { $0.pointee.coefficients[1] }
            var b02 = gather { $0.pointee.coefficients[3] }
            var h1 = gather { $0.pointee.hist1 }, h2 = gather { $0.pointee.hist2 }
            let d1: Lanes, d2: Lanes, db02: Lanes
            if gliding {
                d1 = gather { $0.pointee.increments[0] }
                d2 = gather { $0.pointee.increments[1] }
                db02 = gather { $0.pointee.increments[3] }
            } else {
                d1 = .zero; d2 = .zero; db02 = .zero
            }
            let sum = gliding
                ? Self.run(buf, frame, n, &a1, &a2, &b02, &h1, &h2, d1, d2, db02, gliding: true)
                : Self.run(buf, frame, n, &a1, &a2, &b02, &h1, &h2, d1, d2, db02, gliding: false)
            for l in 0..<lanes {
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
///
/// A `.join` event says the voice's filter has settled on `target` and the voice moves into the
/// shared filter with those coefficients (``SharedFilters``) at `offset`: the filter batch snaps
/// to `target` there and replaces `target` with the state it hands over (``LowPassFilter/handOver()``).
/// An `.inject` event adds such a state (`target[0]`, `target[1]`) to a shared filter's, and
/// `.settle` ends a shared filter's ring once its state is below 1e-8.
struct FilterEvent {
    enum Kind: Int32 { case flush, glide, snap, join, inject, settle }
    var offset: Int32
    var kind: Kind
    /// Glide length in frames (for an accepted `.join`, the index the voice batch recorded the
    /// join under in ``SharedFilters``).
    var frames: Int
    var target: SIMD4<Float>

    init(offset: Int, kind: Kind, frames: Int = 0, target: SIMD4<Float> = SIMD4(repeating: 0)) {
        self.offset = Int32(offset)
        self.kind = kind
        self.frames = frames
        self.target = target
    }
}

/// The voices' filters, buffers and events for one ``LowPassFilter/process(_:count:)`` call:
/// ``lanes`` of each.
struct FilterBatch {
    /// Voices filtered together, one per SIMD lane (two 4-lane halves on SSE and NEON).
    static let lanes = 8

    var filters: UnsafeMutablePointer<UnsafeMutablePointer<LowPassFilter>>
    var buffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var events: UnsafeMutablePointer<UnsafeMutablePointer<FilterEvent>>
    var eventCounts: UnsafeMutablePointer<Int>
}
