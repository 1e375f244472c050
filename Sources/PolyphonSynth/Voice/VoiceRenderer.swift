/// Renders the active voices of one chunk in three passes over windows of voices: each voice's
/// dry signal into its own buffer, the resonant filters eight voices at a time (one per SIMD lane,
/// which hides the filter recursion's latency), then the mix into the targets the mixer hands
/// down, one per bus.
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
/// bus and gains (``FilterRouter``, ``SharedFilterPool``): their dry signal goes into the shared
/// filter's input (a voice in one for the whole chunk skips its lane and the mix; one that joins
/// or leaves mid-chunk runs its lane over silence where it was in), and the shared filters'
/// output, sends included, is added to each bus last. Everything is allocated up front:
/// rendering allocates nothing.
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
    private let eventStorage: UnsafeMutablePointer<FilterEvent>
    /// Per window slot: the voice's filter events of the chunk.
    private let events: UnsafeMutablePointer<FilterEvents>
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
    let router: FilterRouter

    init(chunkFrames: Int, voices: Int) {
        self.chunkFrames = chunkFrames
        stride = FilterBatch.bufferStride(frames: chunkFrames)
        eventCapacity = Voice.maximumFilterEvents(frames: chunkFrames)
        let w = Self.window
        voiceIndices = .allocate(filledWith: 0, count: w)
        produced = .allocate(filledWith: 0, count: w)
        buffers = .allocate(filledWith: 0, count: w * stride)
        eventStorage = .allocate(filledWith: FilterEvent(.flush, at: 0), count: w * eventCapacity)
        events = .allocate(capacity: w)
        for k in 0..<w { (events + k).initialize(to: FilterEvents(eventStorage + k * eventCapacity)) }
        router = FilterRouter(chunkFrames: chunkFrames, voices: voices)
        batch = FilterBatch(frames: chunkFrames, handOverStates: router.pool.joinStates)
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
        eventStorage.deallocate()
        events.deallocate()
        scratch.deallocate()
        filteredLeft.deallocate()
        filteredRight.deallocate()
        lanePans.deallocate()
        laneSlots.deallocate()
        batchMixed.deallocate()
        sharedOnly.deallocate()
    }

    /// The speed tricks voices take; tests switch them off to compare with the plain path.
    var shortcuts = Shortcuts()
    /// Render the two halves of a stereo pair with one phase stream while they are in step
    /// (``StereoTwins.swift``); off only to compare the two paths in tests.
    var pairsTwins = true
    /// Frames rendered that way so far (for tests).
    private(set) var twinFrames = 0
    /// Control points steady voices passed without an update so far, and how many of them
    /// inside a longer oscillator run (for tests).
    private(set) var steadyPoints = 0
    private(set) var steadyPointsRunThrough = 0

    /// True once a filter batch of the current chunk has mixed into the filtered bus.
    private var anyBatchMixed = false

    /// Renders `count` (≤ chunk) frames of every active voice into `targets`, one per bus: each
    /// voice into the one its note names. `clock` is the synthesizer's frame count at the
    /// chunk's start.
    func render(voices: UnsafeMutablePointer<Voice>, voiceCount: Int, count: Int, context: RenderContext,
                clock: Int64, into targets: UnsafePointer<MixTarget>, busCount: Int) {
        let grouped = busCount == 1
        anyBatchMixed = false
        let sharing = shortcuts.sharing
        let pool = router.pool
        // Shared filters run while voices may join them or they still ring.
        let runsShared = sharing || pool.isActive
        if runsShared { pool.begin(count: count) }
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
            if runsShared { pool.flush() }
            for k in 0..<w where produced[k] > 0 && !sharedOnly[k] {
                let v = voiceIndices[k]
                let target = targets[voices[v].note.bus]
                if batchMixed[k] {
                    target.addSends(buffers + k * stride, produced[k], voices[v].sound)
                } else {
                    target.add(buffers + k * stride, produced[k], voices[v].sound)
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
        if runsShared { pool.finish(count: count, clock: clock, into: targets) }
    }

    /// The shortcuts on, or the plain path when both are off (the verdicts of steadiness it
    /// does not judge are dropped).
    @inline(__always)
    private func renderVoice(_ voice: UnsafeMutablePointer<Voice>, _ count: Int, into out: UnsafeMutablePointer<Float>,
                             _ voiceEvents: inout FilterEvents, _ context: RenderContext) -> Int {
        if shortcuts.steady || shortcuts.sharing {
            return voice.pointee.render(count: count, into: out, events: &voiceEvents, scratch: scratch,
                                        shortcuts: shortcuts, context: context)
        }
        voice.pointee.steadiness.isSteady = false
        return voice.pointee.render(count: count, into: out, events: &voiceEvents, scratch: scratch, context: context)
    }

    private func renderWindow(_ voices: UnsafeMutablePointer<Voice>, _ w: Int, _ count: Int, _ context: RenderContext,
                              _ grouped: Bool, _ runsShared: Bool, _ targets: UnsafePointer<MixTarget>) {
        var next = 0
        var pairFrames = 0
        let sharing = shortcuts.sharing
        if runsShared {
            for k in 0..<w { router.settle(voices + voiceIndices[k], sharing: sharing, targets: targets) }
        }
        while next < w {
            let v = voiceIndices[next]
            if pairsTwins && context.interpolation == .cubic && next + 1 < w
                && Voice.twinOffset(voices + voiceIndices[next + 1], from: voices + v) != nil {
                // The two halves of a stereo pair, in step: one phase stream for both.
                let k = next
                events[k].removeAll()
                events[k + 1].removeAll()
                (produced[k], produced[k + 1]) = Voice.renderPair(
                    voices + v, voices + voiceIndices[k + 1], count: count,
                    into: buffers + k * stride, buffers + (k + 1) * stride, events: &events[k], &events[k + 1],
                    scratch: scratch, shortcuts: shortcuts, context: context, twinFrames: &pairFrames)
                enqueue(k)
                enqueue(k + 1)
                next += 2
            } else {
                events[next].removeAll()
                produced[next] = renderVoice(voices + v, count, into: buffers + next * stride, &events[next], context)
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
            if runsShared && (sharing || voices[v].membership.group >= 0) {
                if !router.route(voices + v, n, out, events[k], target: targets[voices[v].note.bus]) {
                    sharedOnly[k] = true
                    return
                }
            }
            guard n > 0 && voices[v].isFiltered else { return }
            // The filter runs over the whole chunk: a voice that ended early feeds it silence.
            if n < count { (out + n).update(repeating: 0, count: count - n) }
            lanePans[batch.count] = SIMD2(voices[v].sound.panLeft, voices[v].sound.panRight)
            laneSlots[batch.count] = k
            if batch.append(voices[v].filter, buffer: out, events: events[k].base, eventCount: events[k].count) {
                runFilters(voices, count, grouped)
            }
        }
        if batch.count > 0 {
            for l in batch.count..<FilterBatch.lanes { lanePans[l] = .zero }
            runFilters(voices, count, grouped)
        }
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
