/// Renders the active voices of one chunk in three passes over windows of voices: each voice's
/// dry signal into its own buffer, the resonant filters eight voices at a time (one per SIMD lane,
/// which hides the filter recursion's latency), then the mix.
///
/// With several output buses every voice is mixed on its own, in voice-pool order. With one
/// shared bus a filter batch mixes its eight voices' dry signal at once into a filtered bus of
/// its own (one load and store of the bus per four frames instead of one per voice); the
/// unfiltered voices are mixed into the output one by one, and the filtered bus is added to it
/// last. Every output sample is then (unfiltered voices, summed in pool order) + (filtered
/// voices, summed in pool order): a fixed order however render calls are sliced, since whether
/// a voice is filtered changes only with events, which start a chunk. Effect sends of voices
/// with filters of their own are mixed one voice at a time, in pool order. The filter lanes are
/// independent, so batching never changes a voice's sound.
///
/// Voices whose filters have settled mix into shared filters instead, one per filter setting,
/// bus and gains (``SharedFilters``): their dry signal goes into the shared filter's input (a
/// voice in one for the whole chunk skips its lane and the mix; one that joins or leaves
/// mid-chunk runs its lane over silence where it was in), and the shared filters' output,
/// sends included, is added to each bus last. Everything is allocated up front: rendering
/// allocates nothing.
final class VoiceRenderer {
    /// Voices rendered per window: their buffers (window × chunk floats) stay in cache.
    static let window = 32

    private let chunkFrames: Int
    /// From one voice's buffer to the next (``FilterBatch/bufferStride(frames:)``).
    private let stride: Int
    private let eventCapacity: Int
    private let voiceIndices: UnsafeMutablePointer<Int>
    private let produced: UnsafeMutablePointer<Int>
    private let buffers: UnsafeMutablePointer<Float>
    private let events: UnsafeMutablePointer<FilterEvent>
    private let eventCounts: UnsafeMutablePointer<Int>
    private let batch: FilterBatch
    /// The oscillators' widened sample points (see ``Oscillator/scratchPoints``).
    private let scratch: UnsafeMutablePointer<Float>
    /// The filtered voices' dry mix when they share one bus, and what goes into it.
    private let filteredLeft: UnsafeMutablePointer<Float>
    private let filteredRight: UnsafeMutablePointer<Float>
    private let lanePans: UnsafeMutablePointer<SIMD2<Float>>
    private let laneSlots: UnsafeMutablePointer<Int>
    /// Per window slot: the dry signal was mixed with its filter batch.
    private let batchMixed: UnsafeMutablePointer<Bool>
    /// Per window slot: every frame went into a shared filter (nothing left to filter or mix).
    private let sharedOnly: UnsafeMutablePointer<Bool>
    private let shared: SharedFilters

    init(chunkFrames: Int, voices: Int) {
        self.chunkFrames = chunkFrames
        stride = FilterBatch.bufferStride(frames: chunkFrames)
        eventCapacity = Voice.maximumFilterEvents(frames: chunkFrames)
        let w = Self.window
        voiceIndices = .allocate(filledWith: 0, count: w)
        produced = .allocate(filledWith: 0, count: w)
        buffers = .allocate(filledWith: 0, count: w * stride)
        events = .allocate(filledWith: FilterEvent(.flush, at: 0), count: w * eventCapacity)
        eventCounts = .allocate(filledWith: 0, count: w)
        shared = SharedFilters(chunkFrames: chunkFrames, voices: voices)
        batch = FilterBatch(frames: chunkFrames, handOverStates: shared.joinStates)
        scratch = .allocate(filledWith: 0, count: Oscillator.scratchPoints)
        filteredLeft = .allocate(filledWith: 0, count: chunkFrames)
        filteredRight = .allocate(filledWith: 0, count: chunkFrames)
        lanePans = .allocate(filledWith: .zero, count: FilterBatch.lanes)
        laneSlots = .allocate(filledWith: 0, count: FilterBatch.lanes)
        batchMixed = .allocate(filledWith: false, count: w)
        sharedOnly = .allocate(filledWith: false, count: w)
    }

    deinit {
        voiceIndices.deallocate()
        produced.deallocate()
        buffers.deallocate()
        events.deallocate()
        eventCounts.deallocate()
        scratch.deallocate()
        filteredLeft.deallocate()
        filteredRight.deallocate()
        lanePans.deallocate()
        laneSlots.deallocate()
        batchMixed.deallocate()
        sharedOnly.deallocate()
    }

    /// Renders `count` (≤ chunk) frames of every active voice into `targets`, one per bus: each
    /// voice into the one its note names. `clock` is the synthesizer's frame count at the
    /// chunk's start.
    func render(voices: UnsafeMutablePointer<Voice>, voiceCount: Int, count: Int, context: RenderContext,
                clock: Int64, into targets: UnsafePointer<MixTarget>, busCount: Int) {
        let grouped = busCount == 1
        @inline(__always) func target(_ v: Int) -> MixTarget { targets[voices[v].note.bus] }
        anyBatchMixed = false
        sharing = sharesFilters
        // Shared filters run while voices may join them or they still ring.
        let runsShared = sharing || shared.isActive
        if runsShared { shared.begin(count: count) }
        var next = 0
        while next < voiceCount {
            var w = 0
            while next < voiceCount && w < Self.window {
                if voices[next].isActive {
                    voiceIndices[w] = next
                    w += 1
                }
                next += 1
            }
            if w == 0 { break }
            renderWindow(voices, w, count, context, grouped, runsShared, targets)
            // The window's buffers are reused by the next one: members waiting go in now.
            if runsShared { shared.flush() }
            for k in 0..<w where produced[k] > 0 && !sharedOnly[k] {
                let v = voiceIndices[k]
                if batchMixed[k] {
                    voices[v].mixSends(buffers + k * stride, produced[k], target(v))
                } else {
                    voices[v].mix(buffers + k * stride, produced[k], target(v))
                }
            }
        }
        if grouped && anyBatchMixed {
            let l = targets[0].left, r = targets[0].right, fl = filteredLeft, fr = filteredRight
            for i in 0..<count {
                l[i] += fl[i]
                r[i] += fr[i]
            }
        }
        if runsShared { shared.finish(count: count, clock: clock, into: targets) }
    }

    /// Let settled voice filters share (``SharedFilters``); off only to compare in tests.
    var sharesFilters = true
    /// Voice frames mixed into a shared filter so far (for tests).
    private(set) var sharedFrames = 0
    /// Voices may join shared filters this chunk.
    private var sharing = false

    /// Silences the shared filters (all sound off, reset).
    func clearSharedFilters() { shared.clear() }

    /// True once a filter batch of the current chunk has mixed into the filtered bus.
    private var anyBatchMixed = false

    /// Let steady voices run through control points that would change nothing (see
    /// ``SteadyVoice.swift``); off only to compare the two paths in tests.
    var skipsSteadyPoints = true
    /// Control points steady voices passed without an update so far, and how many of them
    /// inside a longer oscillator run (for tests).
    private(set) var steadyPoints = 0
    private(set) var steadyPointsRunThrough = 0

    /// Render the two halves of a stereo pair with one phase stream while they are in step
    /// (``StereoTwins.swift``); off only to compare the two paths in tests.
    var pairsTwins = true
    /// Frames rendered that way so far (for tests).
    private(set) var twinFrames = 0

    private func renderWindow(_ voices: UnsafeMutablePointer<Voice>, _ w: Int, _ count: Int, _ context: RenderContext,
                              _ grouped: Bool, _ runsShared: Bool, _ targets: UnsafePointer<MixTarget>) {
        var next = 0
        var pairFrames = 0
        let steady = skipsSteadyPoints
        /// A member whose filter changed bus or gains (a pan or send controller), or that is not
        /// filtered any more, or all members when sharing is off, leave at the chunk's start:
        /// decided before rendering, so the voice knows whether it is in a shared filter.
        @inline(__always) func settleMembership(_ v: Int) {
            let group = voices[v].membership.group
            guard group >= 0 else { return }
            let b = voices[v].note.bus
            if !sharing || !voices[v].isFiltered
                || !shared.matches(group, bus: b, gains: voices[v].busGains(targets[b])) {
                voices[v].membership.group = -1
            }
        }
        if runsShared {
            for k in 0..<w { settleMembership(voiceIndices[k]) }
        }
        while next < w {
            let v = voiceIndices[next]
            if pairsTwins && context.interpolation == .cubic && next + 1 < w
                && Voice.twinOffset(voices + voiceIndices[next + 1], from: voices + v) != nil {
                // The two halves of a stereo pair, in step: one phase stream for both.
                let k = next
                (produced[k], produced[k + 1]) = Voice.renderSourcePair(
                    voices + v, voices + voiceIndices[k + 1], count: count,
                    into: buffers + k * stride, buffers + (k + 1) * stride,
                    events: events + k * eventCapacity, events + (k + 1) * eventCapacity,
                    eventCounts: &eventCounts[k], &eventCounts[k + 1], scratch: scratch,
                    sharing: sharing, steady: steady, context: context, twinFrames: &pairFrames)
                enqueue(k)
                enqueue(k + 1)
                next += 2
            } else {
                produced[next] = voices[v].renderSource(count: count, into: buffers + next * stride,
                                                        events: events + next * eventCapacity,
                                                        eventCount: &eventCounts[next], scratch: scratch,
                                                        sharing: sharing, steady: steady, context: context)
                enqueue(next)
                next += 1
            }
        }
        if pairFrames > 0 { twinFrames = twinFrames &+ pairFrames }

        /// Puts window slot `k` into the next filter lane if its voice sounded and is filtered.
        @inline(__always) func enqueue(_ k: Int) {
            batchMixed[k] = false
            sharedOnly[k] = false
            let v = voiceIndices[k], n = produced[k]
            let (passed, runThrough) = voices[v].takeSteadyCounts()
            steadyPoints &+= passed
            steadyPointsRunThrough &+= runThrough
            let out = buffers + k * stride
            let voiceEvents = events + k * eventCapacity
            if runsShared && (sharing || voices[v].membership.group >= 0) {
                let b = voices[v].note.bus
                if !route(k, voices + v, n, out, voiceEvents, bus: b, target: targets[b]) { return }
            }
            guard n > 0 && voices[v].isFiltered else { return }
            // The filter runs over the whole chunk: a voice that ended early feeds it silence.
            if n < count { (out + n).update(repeating: 0, count: count - n) }
            lanePans[batch.count] = voices[v].panGains
            laneSlots[batch.count] = k
            if batch.append(voices[v].filter, buffer: out, events: voiceEvents, eventCount: eventCounts[k]) {
                runFilters(voices, count, grouped)
            }
        }
        if batch.count > 0 {
            for l in batch.count..<FilterBatch.lanes { lanePans[l] = .zero }
            runFilters(voices, count, grouped)
        }
    }

    /// Sends the frames of window slot `k` that belong in a shared filter there, following the
    /// voice's joins (`.join` events, accepted here — the event then names the join slot its
    /// filter hands its state to — or turned into flushes) and leaves (a new filter target
    /// while in), and zeroes them in the voice's buffer. Returns whether the voice's own filter
    /// still has work this chunk: frames of its own, or a state to hand over.
    private func route(_ k: Int, _ voice: UnsafeMutablePointer<Voice>, _ n: Int, _ out: UnsafeMutablePointer<Float>,
                       _ voiceEvents: UnsafeMutablePointer<FilterEvent>, bus: Int, target: MixTarget) -> Bool {
        // (Members that had to leave at the chunk's start left before rendering.)
        var member = voice.pointee.membership.group
        let gains = voice.pointee.busGains(target)
        var start = 0            // where the current stretch (own or shared) began
        var ownFrames = 0
        var joined = false
        for j in 0..<eventCounts[k] {
            let offset = min(Int(voiceEvents[j].offset), n)
            switch voiceEvents[j].change {
            case .join(let coefficients, _):
                if member < 0 && offset < n,
                   let (group, slot) = shared.join(coefficients: coefficients, gains: gains, bus: bus, offset: offset) {
                    ownFrames += offset - start
                    member = group
                    start = offset
                    voiceEvents[j].change = .join(coefficients, slot: Int32(slot))
                    joined = true
                } else {
                    voiceEvents[j].change = .flush  // already in, or no shared filter free
                }
            case .glide, .snap:
                if member >= 0 {
                    // The cutoff moves: the voice leaves and filters on its own from silence.
                    shared.add(out, from: start, to: offset, group: member, deferred: false)
                    sharedFrames += offset - start
                    (out + start).update(repeating: 0, count: offset - start)
                    member = -1
                    start = offset
                }
            case .flush, .inject, .settle:
                break
            }
        }
        if member >= 0 {
            // A voice that joined this chunk gets its buffer cleared below: add it at once.
            shared.add(out, from: start, to: n, group: member, deferred: !joined)
            sharedFrames += n - start
        } else {
            ownFrames += n - start
        }
        let ownWork = ownFrames > 0 || joined
        if member >= 0 && ownWork { (out + start).update(repeating: 0, count: n - start) }
        sharedOnly[k] = !ownWork
        member = voice.pointee.isActive ? member : -1
        voice.pointee.membership.group = member
        if member >= 0 { shared.addMember(member) }
        return ownWork
    }

    @inline(__always)
    private func runFilters(_ voices: UnsafeMutablePointer<Voice>, _ count: Int, _ grouped: Bool) {
        let taken = batch.process(frames: count)
        for l in 0..<taken { voices[voiceIndices[laneSlots[l]]].filter = batch.filter(l) }
        guard grouped else { return }
        // A voice that ended inside the chunk: its filter rang on past the end, in silence that
        // the voice does not have. (The one-voice mix reads only the frames it produced.)
        for l in 0..<taken {
            let k = laneSlots[l], n = produced[k]
            if n < count { (batch.buffers[l] + n).update(repeating: 0, count: count - n) }
        }
        if !anyBatchMixed {
            filteredLeft.update(repeating: 0, count: count)
            filteredRight.update(repeating: 0, count: count)
            anyBatchMixed = true
        }
        mixLanes(count)
        for l in 0..<taken { batchMixed[laneSlots[l]] = true }
    }

    /// Adds the batch's eight filtered voices, panned, into the filtered bus in lane (= pool)
    /// order. Spare lanes add +0, which leaves a sum begun at +0 bit for bit as it was.
    private func mixLanes(_ count: Int) {
        StereoMix.addEight(batch.buffers, gains: lanePans, left: filteredLeft, right: filteredRight, count: count)
    }
}
