/// Filters shared by voices whose own filters have settled on the same coefficients.
///
/// The voice filter is linear, and while its coefficients hold still it is also time-invariant:
/// the sum of many voices' filtered signals is then the filter of their summed signal. A voice
/// whose cutoff has held still for 16 control periods (a held note of a preset with a fixed
/// cutoff, or whose modulation envelope sits in its sustain) therefore stops running a filter
/// of its own: its dry signal is added to the input of a shared filter with the same coefficients,
/// output bus and bus gains (pan, reverb and chorus send), and its filter's state is added to
/// the shared filter's state at the frame it joins. The shared filter's output is mixed with
/// those gains. A hundred held string notes then cost two filters (one per pan) instead of a
/// hundred, and a filter shared by one voice costs about what the voice's own did.
///
/// The same sound while a voice is in, to rounding (and to the 1e-8 below which a shared
/// filter's state is settled to 0): what the voice filtered is in the shared state.
/// A voice leaves when its cutoff moves again (a release sweeping the filter, a controller or
/// NRPN) or its gains change, and starts its own filter afresh from silence; what it had put
/// into the shared state rings out there as it was, instead of gliding with the voice. Likewise
/// a member that ends (or is cut by All Sound Off on its channel) leaves its filter's ring-out
/// in the shared state instead of dropping it. The router lets only filters share whose
/// rings stay inaudible (``FilterRouter/filterMayShare(_:cutoffCents:outputRate:)``), and
/// decides who joins and leaves; `SharedFilterTests` measures the differences.
///
/// Joins and leaves happen at the voices' own control points, members add their signal in
/// voice-pool order, and shared filters are summed into their bus in the order of their
/// coefficients and gains, so the output does not depend on how render calls are sliced. The
/// one exception: an emptied shared filter is freed at the end of a chunk, so should all
/// ``capacity`` (one per voice and 64 more) be taken at once, when a waiting voice gets the next
/// free one depends on the slicing, by rounding. Everything is allocated up front.
final class SharedFilterPool {
    /// Shared filters at most: one per voice and 64 more for rings not yet freed. A voice that
    /// finds none free keeps its own filter and asks again.
    let capacity: Int
    /// Joins recorded per chunk at most: a voice joins at most once per chunk (joining again
    /// takes 16 quiet periods, a whole chunk).
    let joinCapacity: Int
    /// One past the highest slot in use: slots are taken lowest first, so scans stop here.
    private var slotLimit = 0
    /// Members added to an input in one pass.
    static let batch = 8

    private struct Group {
        var coefficients = SIMD4<Float>(repeating: 0)
        /// Left, right, reverb and chorus gains its output is mixed with.
        var gains = SIMD4<Float>(repeating: 0)
        var bus = 0
        var inUse = false
        /// Voices in it at the end of the chunk (counted by the voice batch).
        var members = 0
        /// Members whose whole chunk waits to be added in one pass (``add``); while signals
        /// are queued for the mix, the group's count of them as ``sealQueue()`` sorts them.
        var pending = 0
        /// Where the group's queued signals start in ``queueSorted``, and how many.
        var queueStart = 0
        var queueCount = 0
    }

    /// A voice entering a shared filter at a frame (its filter's state arrives in
    /// ``joinStates`` at the same index).
    private struct Join {
        var group: Int32
        var offset: Int32
    }

    private let chunkFrames: Int
    private let groups: UnsafeMutablePointer<Group>
    /// The shared filters themselves, run eight at a time like voices' (``FilterBatch``).
    private let filters: UnsafeMutablePointer<LowPassFilter>
    /// Per group, `chunkFrames` of input (the filter writes its output over it), ``stride`` apart.
    private let inputs: UnsafeMutablePointer<Float>
    private let stride: Int
    private let joins: UnsafeMutablePointer<Join>
    /// The state each joining voice's filter hands over, by join slot: the voice batch's
    /// ``FilterBatch`` writes it when the voice's lane reaches its join.
    let joinStates: UnsafeMutablePointer<SIMD2<Float>>
    private var joinCount = 0
    /// The filters' events of the chunk (state handed over, denormal flushes), group by group.
    private let events: UnsafeMutablePointer<FilterEvent>
    private let eventCapacity: Int
    private let groupOrder: UnsafeMutablePointer<Int>
    private let pendingSignals: UnsafeMutablePointer<UnsafePointer<Float>>
    private var count = 0
    /// While true (a round whose mix runs on threads), members' whole-chunk signals are queued
    /// instead of added at once: the mix step adds them stretch by stretch of frames
    /// (``addQueued(from:to:)``), each frame member by member in the order they were routed.
    var queuesForMix = false
    /// Signals queued, in the order they were routed, with their groups (−1: added already).
    private let queueSignals: UnsafeMutablePointer<UnsafePointer<Float>>
    private let queueGroups: UnsafeMutablePointer<Int>
    private var queueLength = 0
    /// The same signals by group, each group's in routing order (``sealQueue()``).
    private let queueSorted: UnsafeMutablePointer<UnsafePointer<Float>>
    /// The groups with queued signals.
    private let queuedGroups: UnsafeMutablePointer<Int>
    private var queuedGroupCount = 0
    /// Member chunks added by the mix step so far (for tests).
    private(set) var queuedMembers = 0
    private let batch: FilterBatch
    /// The group in each of the batch's lanes.
    private let laneGroups: UnsafeMutablePointer<Int>
    /// Up to eight filters' outputs and pan gains being mixed into one bus (``StereoMix``).
    private let mixSources: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    private let mixGains: UnsafeMutablePointer<SIMD2<Float>>
    private let silence: UnsafeMutablePointer<Float>

    /// Shared filters for chunks of up to `chunkFrames` frames and up to `voices` voices.
    init(chunkFrames: Int, voices: Int) {
        self.chunkFrames = chunkFrames
        stride = FilterBatch.bufferStride(frames: chunkFrames)
        capacity = voices + 64
        joinCapacity = max(voices, 1)
        let c = capacity
        groups = .allocate(filledWith: Group(), count: c)
        filters = .allocate(filledWith: LowPassFilter(), count: c)
        inputs = .allocate(filledWith: 0, count: c * stride)
        joins = .allocate(filledWith: Join(group: 0, offset: 0), count: joinCapacity)
        joinStates = .allocate(filledWith: .zero, count: joinCapacity)
        // Every join, plus a settle point per 256 frames for each filter.
        eventCapacity = joinCapacity + c * (chunkFrames / 256 + 2)
        events = .allocate(filledWith: FilterEvent(.flush, at: 0), count: eventCapacity)
        groupOrder = .allocate(filledWith: 0, count: c)
        pendingSignals = .allocate(filledWith: UnsafePointer(inputs), count: c * Self.batch)
        queueSignals = .allocate(filledWith: UnsafePointer(inputs), count: joinCapacity)
        queueGroups = .allocate(filledWith: -1, count: joinCapacity)
        queueSorted = .allocate(filledWith: UnsafePointer(inputs), count: joinCapacity)
        queuedGroups = .allocate(filledWith: 0, count: joinCapacity)
        batch = FilterBatch(frames: chunkFrames)
        laneGroups = .allocate(filledWith: 0, count: FilterBatch.lanes)
        silence = .allocate(filledWith: 0, count: chunkFrames)
        mixSources = .allocate(filledWith: silence, count: 8)
        mixGains = .allocate(filledWith: .zero, count: 8)
    }

    deinit {
        groups.deallocate()
        filters.deallocate()
        inputs.deallocate()
        joins.deallocate()
        joinStates.deallocate()
        events.deallocate()
        groupOrder.deallocate()
        pendingSignals.deallocate()
        queueSignals.deallocate()
        queueGroups.deallocate()
        queueSorted.deallocate()
        queuedGroups.deallocate()
        laneGroups.deallocate()
        silence.deallocate()
        mixSources.deallocate()
        mixGains.deallocate()
    }

    /// True while some shared filter has members or is still ringing.
    var isActive: Bool {
        slotLimit > 0
    }

    /// Silences every shared filter (all sound off, reset).
    func clear() {
        for g in 0..<capacity {
            groups[g] = Group()
            filters[g] = LowPassFilter()
        }
        joinCount = 0
        slotLimit = 0
    }

    @inline(__always)
    private func input(_ g: Int) -> UnsafeMutablePointer<Float> { inputs + g * stride }

    /// Starts a chunk of `count` frames: clears the inputs of the filters in use (which hold
    /// the last chunk's output).
    func begin(count: Int) {
        self.count = count
        joinCount = 0
        for g in 0..<slotLimit where groups[g].inUse {
            input(g).update(repeating: 0, count: count)
            groups[g].members = 0
        }
    }

    /// Records that a voice joins the shared filter with `coefficients`, `bus` and bus `gains`
    /// at frame `offset` of this chunk: returns the group and the join's slot (where the state
    /// the voice's filter hands over goes, in ``joinStates``), or nil when every shared filter
    /// is taken.
    func join(coefficients: SIMD4<Float>, gains: SIMD4<Float>, bus: Int, offset: Int) -> (group: Int, join: Int)? {
        guard joinCount < joinCapacity else { return nil }
        var free = -1
        var found = -1
        for g in 0..<capacity {
            if g >= slotLimit && free >= 0 { break }
            if groups[g].inUse {
                if groups[g].coefficients == coefficients && groups[g].gains == gains && groups[g].bus == bus {
                    found = g
                    break
                }
            } else if free < 0 {
                free = g
            }
        }
        if found < 0 {
            guard free >= 0 else { return nil }
            found = free
            slotLimit = max(slotLimit, found + 1)
            groups[found] = Group(coefficients: coefficients, gains: gains, bus: bus, inUse: true)
            filters[found] = LowPassFilter()
            filters[found].apply(FilterEvent(.snap(to: coefficients), at: 0))
            // The input of a filter not in use was not cleared by `begin`.
            input(found).update(repeating: 0, count: chunkFrames)
        }
        joins[joinCount] = Join(group: Int32(found), offset: Int32(offset))
        joinStates[joinCount] = .zero
        joinCount += 1
        return (found, joinCount - 1)
    }

    /// Whether group `g` is the one for this bus and these gains.
    func matches(_ g: Int, bus: Int, gains: SIMD4<Float>) -> Bool {
        groups[g].bus == bus && groups[g].gains == gains
    }

    /// Counts a voice that is in `group` at the end of the chunk.
    func addMember(_ group: Int) { groups[group].members += 1 }

    /// Adds frames `from..<to` of a member's dry signal into the shared filter's input. A whole
    /// chunk may wait (`deferred`) for up to ``batch`` members to be added in one pass
    /// (``flush()``), or, while ``queuesForMix``, for the mix step (``addQueued(from:to:)``);
    /// `signal` must stay as it is until then. Each input frame is summed member by member in
    /// the order of the calls either way, so the bits are the same.
    func add(_ signal: UnsafePointer<Float>, from: Int, to: Int, group g: Int, deferred: Bool) {
        if queuesForMix {
            // A voice is routed once a round: the queue (a place per voice) has room.
            if deferred && from == 0 && to == count && queueLength < joinCapacity {
                queueSignals[queueLength] = signal
                queueGroups[queueLength] = g
                queueLength += 1
                return
            }
            // Nothing waits in `pendingSignals` while queueing.
            addQueuedNow(g)
            let x = input(g)
            for i in from..<to { x[i] += signal[i] }
            return
        }
        if deferred && from == 0 && to == count {
            pendingSignals[g * Self.batch + groups[g].pending] = signal
            groups[g].pending += 1
            if groups[g].pending == Self.batch { flush(g) }
            return
        }
        flush(g)
        let x = input(g)
        for i in from..<to { x[i] += signal[i] }
    }

    /// Adds every member still waiting (before their signals are overwritten).
    func flush() {
        for g in 0..<slotLimit where groups[g].pending > 0 { flush(g) }
    }

    /// Adds group `g`'s waiting members into its input: eight in one pass, fewer one by one.
    private func flush(_ g: Int) {
        let n = groups[g].pending
        guard n > 0 else { return }
        groups[g].pending = 0
        Self.add(pendingSignals + g * Self.batch, n, into: input(g), from: 0, to: count)
    }

    /// Adds frames `from..<to` of `n` signals into `x`, each frame signal by signal in their
    /// order: eight in one pass while eight are left, the rest one pass each (the same sums).
    @inline(__always)
    private static func add(_ s: UnsafePointer<UnsafePointer<Float>>, _ n: Int, into x: UnsafeMutablePointer<Float>,
                            from: Int, to: Int) {
        @inline(__always) func load(_ q: UnsafePointer<Float>, _ i: Int) -> SIMD4<Float> {
            UnsafeRawPointer(q + i).loadUnaligned(as: SIMD4<Float>.self)
        }
        var k = 0
        while k &+ batch <= n {
            let p0 = s[k], p1 = s[k + 1], p2 = s[k + 2], p3 = s[k + 3]
            let p4 = s[k + 4], p5 = s[k + 5], p6 = s[k + 6], p7 = s[k + 7]
            var i = from
            while i &+ 4 <= to {
                // One at a time, in call order.
                var v = load(x, i)
                v += load(p0, i); v += load(p1, i); v += load(p2, i); v += load(p3, i)
                v += load(p4, i); v += load(p5, i); v += load(p6, i); v += load(p7, i)
                UnsafeMutableRawPointer(x + i).storeBytes(of: v, as: SIMD4<Float>.self)
                i &+= 4
            }
            while i < to {
                var v = x[i]
                for m in k..<(k + batch) { v += s[m][i] }
                x[i] = v
                i += 1
            }
            k &+= batch
        }
        // A few: one pass each (the same sums, in the same order).
        while k < n {
            let p = s[k]
            for i in from..<to { x[i] += p[i] }
            k &+= 1
        }
    }

    // MARK: - Inputs summed by the mix step

    /// Adds group `g`'s queued signals at once (the whole chunk), before a member of it is
    /// added directly: a frame's sum keeps the routing order.
    private func addQueuedNow(_ g: Int) {
        let x = input(g)
        for q in 0..<queueLength where queueGroups[q] == g {
            let p = queueSignals[q]
            for i in 0..<count { x[i] += p[i] }
            queueGroups[q] = -1
        }
    }

    /// After a round's routing: sorts the queued signals by group, keeping each group's in
    /// routing order, for ``addQueued(from:to:)``.
    func sealQueue() {
        queuedGroupCount = 0
        for q in 0..<queueLength where queueGroups[q] >= 0 {
            let g = queueGroups[q]
            if groups[g].pending == 0 {
                queuedGroups[queuedGroupCount] = g
                queuedGroupCount += 1
            }
            groups[g].pending += 1
        }
        var start = 0
        for t in 0..<queuedGroupCount {
            let g = queuedGroups[t]
            groups[g].queueStart = start
            groups[g].queueCount = 0
            start += groups[g].pending
            groups[g].pending = 0
        }
        for q in 0..<queueLength where queueGroups[q] >= 0 {
            let g = queueGroups[q]
            queueSorted[groups[g].queueStart + groups[g].queueCount] = queueSignals[q]
            groups[g].queueCount += 1
        }
        queuedMembers &+= start
    }

    /// Adds frames `from..<to` of every queued signal into its group's input. Stretches of
    /// frames are independent: each may run on any thread, at the same time as the others.
    func addQueued(from: Int, to: Int) {
        for t in 0..<queuedGroupCount {
            let g = queuedGroups[t]
            Self.add(queueSorted + groups[g].queueStart, groups[g].queueCount, into: input(g), from: from, to: to)
        }
    }

    /// After the mix step: the queue is empty again.
    func endQueue() {
        queueLength = 0
        queuedGroupCount = 0
        queuesForMix = false
    }

    /// Runs the shared filters over the chunk, eight at a time, and mixes each one's output
    /// into its bus (`targets[bus]`) with its gains, in the order of their buses,
    /// coefficients and gains (left and right eight at a time); frees those with no member left whose state has died away.
    /// `clock` is the synthesizer's frame count at the chunk's start (for the denormal flush).
    func finish(count: Int, clock: Int64, into targets: UnsafePointer<MixTarget>) {
        var live = 0
        var used = 0
        for g in 0..<slotLimit where groups[g].inUse {
            // Insertion by bus, coefficients and gains: a fixed order whatever the slots.
            var k = live
            while k > 0 && precedes(g, groupOrder[k - 1]) {
                groupOrder[k] = groupOrder[k - 1]
                k -= 1
            }
            groupOrder[k] = g
            live += 1
            let first = used
            used = collectEvents(g, count, clock, at: used)
            laneGroups[batch.count] = g
            if batch.append(filters[g], buffer: input(g), events: events + first, eventCount: used - first) {
                runFilters(count)
            }
        }
        if batch.count > 0 { runFilters(count) }
        // Left and right eight filters at a time while they share a bus (the same sums, in the
        // same order, as one filter at a time).
        var k = 0
        while k < live {
            let bus = groups[groupOrder[k]].bus
            var n = 0
            while n < 8 && k + n < live && groups[groupOrder[k + n]].bus == bus {
                let g = groupOrder[k + n]
                mixSources[n] = input(g)
                mixGains[n] = SIMD2(groups[g].gains[0], groups[g].gains[1])
                n += 1
            }
            for m in n..<8 {
                mixSources[m] = silence
                mixGains[m] = .zero
            }
            let target = targets[bus]
            StereoMix.addEight(mixSources, gains: mixGains, left: target.left, right: target.right, count: count)
            k += n
        }
        for k in 0..<live {
            let g = groupOrder[k]
            let target = targets[groups[g].bus]
            let y = input(g), gains = groups[g].gains
            if let rv = target.reverb, gains[2] != 0 {
                let s = gains[2]
                for i in 0..<count { rv[i] += y[i] * s }
            }
            if let ch = target.chorus, gains[3] != 0 {
                let s = gains[3]
                for i in 0..<count { ch[i] += y[i] * s }
            }
            if groups[g].members == 0 && filters[g].hist1 == 0 && filters[g].hist2 == 0 {
                groups[g].inUse = false
            }
        }
        while slotLimit > 0 && !groups[slotLimit - 1].inUse { slotLimit -= 1 }
    }

    /// Filters the batch's groups over the chunk and takes their filters back.
    private func runFilters(_ count: Int) {
        let taken = batch.process(frames: count)
        for l in 0..<taken { filters[laneGroups[l]] = batch.filter(l) }
    }

    /// Writes group `g`'s events for the chunk from `events[start]` on, in frame order: each
    /// join's handed-over state (voice-pool order within a frame) and a settle point (`.settle`)
    /// every 256 frames of the synthesizer's clock. Returns the end.
    private func collectEvents(_ g: Int, _ count: Int, _ clock: Int64, at start: Int) -> Int {
        var n = start
        for j in 0..<joinCount where Int(joins[j].group) == g {
            let e = FilterEvent(.inject(joinStates[j]), at: Int(joins[j].offset))
            // Stable insertion by frame (joins were recorded in pool order).
            var k = n
            while k > start && events[k - 1].offset > e.offset {
                events[k] = events[k - 1]
                k -= 1
            }
            events[k] = e
            n += 1
        }
        // Merge settle points at the clock's 256-frame grid in front of the injections at their
        // frame: a state below 1e-8 (−160 dBFS) is set to 0 there, so a filter whose members
        // have left is freed at the end of the chunk after its ring fell that far (and a
        // resonant one left without input cannot hang on in a limit cycle of tiny numbers).
        var frame = Int((256 - (clock & 255)) & 255)
        while frame < count {
            var k = n
            while k > start && events[k - 1].offset >= Int32(frame) {
                events[k] = events[k - 1]
                k -= 1
            }
            events[k] = FilterEvent(.settle, at: frame)
            n += 1
            frame += 256
        }
        return n
    }

    private func precedes(_ a: Int, _ b: Int) -> Bool {
        let x = groups[a], y = groups[b]
        if x.bus != y.bus { return x.bus < y.bus }
        let c = x.coefficients, d = y.coefficients
        if c[0] != d[0] { return c[0] < d[0] }
        if c[1] != d[1] { return c[1] < d[1] }
        if c[3] != d[3] { return c[3] < d[3] }
        for i in 0..<4 where x.gains[i] != y.gains[i] { return x.gains[i] < y.gains[i] }
        return false
    }
}
