/// Up to eight filters run together, one per SIMD lane: the lanes being filled, then filtered
/// in place over a chunk (``process(frames:)``). Each lane takes a copy of its filter
/// (``append(_:buffer:events:eventCount:)``) and hands it back afterwards (``filter(_:)``).
///
/// An IIR filter run one voice at a time is bound by the latency of its recursion, not by
/// arithmetic, so eight voices (or shared filters) are filtered at once: two independent
/// four-lane recursions, whose multiply and subtract latencies overlap. Each lane does exactly
/// the arithmetic a lone filter would, so a voice's output never depends on which voices share
/// its batch, and every lane's events (``FilterEvent``) apply at the frames its own control
/// points name, so it never depends on how render calls are sliced either. Lanes not taken when
/// the batch runs hold a silent filter over a silent buffer. Allocated once.
final class FilterBatch {
    /// Filters per batch, one per SIMD lane (two 4-lane halves on SSE and NEON).
    static let lanes = 8
    /// One value per lane.
    typealias Vector = SIMD8<Float>

    /// Lanes taken so far.
    private(set) var count = 0
    /// The lanes' filters, copied in and out.
    private let filters: UnsafeMutablePointer<LowPassFilter>
    let buffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    let events: UnsafeMutablePointer<UnsafeMutablePointer<FilterEvent>>
    let eventCounts: UnsafeMutablePointer<Int>
    /// Where a lane's filter puts the state it hands over at an accepted `.join` (the shared
    /// filters' join slots), or nil where no lane can join.
    private let handOverStates: UnsafeMutablePointer<SIMD2<Float>>?
    private let spareBuffer: UnsafeMutablePointer<Float>
    private let spareEvent: UnsafeMutablePointer<FilterEvent>

    /// The distance between consecutive buffers of `frames` frames that are worked on side by
    /// side (a window's voices, the shared filters' inputs): one cache line more than the
    /// frames. At exactly 4 KiB apart, the same frame of every buffer has the same low 12
    /// address bits, and the core takes each load there for one that may depend on the stores
    /// just made to the others (4K aliasing): eight filter lanes, or the two halves of a stereo
    /// pair written a whole chunk at a time, then stall on their own stores.
    static func bufferStride(frames: Int) -> Int { frames + 16 }

    /// Lanes for buffers of up to `frames` frames; `handOverStates` receives the states of
    /// accepted joins, by join slot.
    init(frames: Int, handOverStates: UnsafeMutablePointer<SIMD2<Float>>? = nil) {
        let lanes = Self.lanes
        self.handOverStates = handOverStates
        spareBuffer = .allocate(filledWith: 0, count: frames)
        spareEvent = .allocate(filledWith: FilterEvent(.flush, at: 0), count: 1)
        filters = .allocate(filledWith: LowPassFilter(), count: lanes)
        buffers = .allocate(filledWith: spareBuffer, count: lanes)
        events = .allocate(filledWith: spareEvent, count: lanes)
        eventCounts = .allocate(filledWith: 0, count: lanes)
    }

    deinit {
        filters.deallocate()
        buffers.deallocate()
        events.deallocate()
        eventCounts.deallocate()
        spareBuffer.deallocate()
        spareEvent.deallocate()
    }

    /// Takes the next lane for a copy of `filter`; returns true when all are taken (time to
    /// ``process(frames:)``).
    @inline(__always)
    func append(_ filter: LowPassFilter, buffer: UnsafeMutablePointer<Float>,
                events laneEvents: UnsafeMutablePointer<FilterEvent>, eventCount: Int) -> Bool {
        filters[count] = filter
        buffers[count] = buffer
        events[count] = laneEvents
        eventCounts[count] = eventCount
        count += 1
        return count == Self.lanes
    }

    /// Fills the lanes not taken with silence, filters `frames` frames of every lane in place,
    /// applying each lane's events at their frames, and starts a new batch. Returns the lanes
    /// that were taken (``buffers`` still names them, ``filter(_:)`` gives their filters back).
    @discardableResult
    func process(frames count: Int) -> Int {
        let taken = self.count
        for l in taken..<Self.lanes {
            filters[l] = LowPassFilter()
            buffers[l] = spareBuffer
            eventCounts[l] = 0
        }
        filterLanes(count)
        self.count = 0
        return taken
    }

    /// Lane `l`'s filter as the last ``process(frames:)`` left it.
    @inline(__always)
    func filter(_ l: Int) -> LowPassFilter { filters[l] }

    @inline(__always)
    private static func run(_ p: UnsafePointer<UnsafeMutablePointer<Float>>, _ frame: Int, _ n: Int,
                    _ a1: inout Vector, _ a2: inout Vector, _ b02: inout Vector, _ h1: inout Vector, _ h2: inout Vector,
                    _ d1: Vector, _ d2: Vector, _ db02: Vector, gliding: Bool) -> Vector {
        var ca1 = a1, ca2 = a2, cb02 = b02, s1 = h1, s2 = h2
        @inline(__always) func step(_ x: Vector) -> Vector {
            if gliding {
                // Vector not gliding add zero, which leaves their coefficients exact.
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
        var sum = Vector.zero
        // Four frames at a time: one vector load per voice, transposed to one vector per frame
        // and back, so the outputs never leave vector registers lane by lane. The two halves
        // of the lanes are independent recursions, so one half's multiply and add latency
        // overlaps the other's.
        while i + 4 <= n {
            let (x0, x1, x2, x3) = transpose(load(p0, i), load(p1, i), load(p2, i), load(p3, i))
            let (z0, z1, z2, z3) = transpose(load(p4, i), load(p5, i), load(p6, i), load(p7, i))
            let y0 = step(Vector(lowHalf: x0, highHalf: z0)), y1 = step(Vector(lowHalf: x1, highHalf: z1))
            let y2 = step(Vector(lowHalf: x2, highHalf: z2)), y3 = step(Vector(lowHalf: x3, highHalf: z3))
            sum += (y0 + y1) + (y2 + y3)
            let (o0, o1, o2, o3) = transpose(y0.lowHalf, y1.lowHalf, y2.lowHalf, y3.lowHalf)
            store(o0, p0, i); store(o1, p1, i); store(o2, p2, i); store(o3, p3, i)
            let (o4, o5, o6, o7) = transpose(y0.highHalf, y1.highHalf, y2.highHalf, y3.highHalf)
            store(o4, p4, i); store(o5, p5, i); store(o6, p6, i); store(o7, p7, i)
            i += 4
        }
        while i < n {
            let y = step(Vector(p0[i], p1[i], p2[i], p3[i], p4[i], p5[i], p6[i], p7[i]))
            sum += y
            p0[i] = y[0]; p1[i] = y[1]; p2[i] = y[2]; p3[i] = y[3]
            p4[i] = y[4]; p5[i] = y[5]; p6[i] = y[6]; p7[i] = y[7]
            i += 1
        }
        a1 = ca1; a2 = ca2; b02 = cb02; h1 = s1; h2 = s2
        return sum
    }

    private func filterLanes(_ count: Int) {
        let f = filters, buf = buffers
        let lanes = Self.lanes
        var next = SIMD8<Int>(repeating: 0)  // index of each lane's next event
        var frame = 0
        @inline(__always) func gather(_ value: (UnsafeMutablePointer<LowPassFilter>) -> Float) -> Vector {
            Vector(value(f), value(f + 1), value(f + 2), value(f + 3), value(f + 4), value(f + 5), value(f + 6),
                   value(f + 7))
        }
        while frame < count {
            // Lane events and glide ends due now, then the span until the next one.
            var end = count
            var gliding = false
            for l in 0..<lanes {
                let laneEvents = events[l], eventCount = eventCounts[l]
                while next[l] < eventCount && Int(laneEvents[next[l]].offset) <= frame {
                    let event = laneEvents[next[l]]
                    f[l].apply(event)
                    if case .join(_, let slot) = event.change, slot >= 0, let handOverStates {
                        // The voice mixes into a shared filter from here on: its state goes along.
                        handOverStates[Int(slot)] = f[l].handOver()
                    }
                    next[l] += 1
                }
                if next[l] < eventCount { end = min(end, Int(laneEvents[next[l]].offset)) }
                let g = f[l].glideRemaining
                if g > 0 {
                    end = min(end, frame + g)
                    gliding = true
                }
            }
            let n = end - frame
            var a1 = gather { $0.pointee.coefficients[0] }, a2 = gather { $0.pointee.coefficients[1] }
            var b02 = gather { $0.pointee.coefficients[3] }
            var h1 = gather { $0.pointee.hist1 }, h2 = gather { $0.pointee.hist2 }
            let d1: Vector, d2: Vector, db02: Vector
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
                let lane = f + l
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
