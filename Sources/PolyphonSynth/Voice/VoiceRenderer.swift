/// Renders the active voices of one chunk into the targets the mixer hands down, one per bus,
/// a round of voices at a time: each voice's dry signal into its own buffer with its filter
/// run after it (eight voices at a time, one per SIMD lane, which hides the filter recursion's
/// latency), then the round mixed.
///
/// With several output buses every voice is mixed on its own, in voice-pool order. With one
/// shared bus the filtered voices are summed eight at a time into a filtered bus of their own
/// (one load and store of the bus per four frames instead of one per voice); the unfiltered
/// voices are mixed into the output one by one, and the filtered bus is added to it last.
/// Every output sample is then (unfiltered voices, summed in pool order) + (filtered voices,
/// summed in pool order): a fixed order however render calls are sliced, since whether a voice
/// is filtered changes only with events, which start a chunk. Effect sends are mixed one voice
/// at a time, in pool order. The filter lanes are independent, so batching never changes a
/// voice's sound.
///
/// Voices whose filters have settled mix into shared filters instead, one per filter setting,
/// bus and gains (``FilterRouter``, ``SharedFilterPool``): their dry signal goes into the shared
/// filter's input (a voice in one for the whole chunk skips its filter and the mix; one that
/// joins or leaves mid-chunk runs its filter over silence where it was in), and the shared
/// filters' output, sends included, is added to each bus last.
///
/// With a ``RenderThreadPool`` the rounds are larger and spread over its threads in two
/// parallel steps: groups of voices render and filter on any thread, then the round is mixed
/// in stretches of frames, each stretch summing every voice in pool order, and every member
/// of a shared filter into its input in pool order. What must happen in pool order across
/// voices — the router's joins and leaves — runs on the render thread between the two. So every output sample is summed in the same
/// order whatever the thread count, and the output is the same bytes. Rounds too small to
/// repay the hand-off (``minimumThreadedVoices``, ``minimumThreadedWork``) stay on the render thread. Everything is
/// allocated up front: rendering allocates nothing.
final class VoiceRenderer {
    /// Voices per round on one thread: their buffers (round × chunk floats) stay in cache.
    static let window = 32
    /// Voices per round when threads share them: more work per hand-off.
    static let threadedWindow = 128
    /// The least a round must hold to be spread over threads, in voices and in voice frames:
    /// below either, handing tasks to other threads and waiting for them costs more than it
    /// saves. On free cores, a long song rendered fastest with 32 voices of all the thresholds
    /// tried (32, 16, 8, 4 voices: `PolyphonBenchmark --thread-sweep`, Documentation/threads.md),
    /// although rounds of 16–31 voices hold a third of its voice frames
    /// (`PolyphonBenchmark --thread-profile`).
    static let minimumThreadedVoices = 32
    static let minimumThreadedWork = 8 * 1024

    /// How a voice of the round goes into the mix.
    private enum VoiceMix: UInt8 {
        /// Not at all: it produced nothing, or every frame went into a shared filter.
        case none
        /// Not decided until the router has seen it (it joins, leaves or is in a shared filter).
        case waitsForRouter
        /// Its signal, panned, and its sends, on its own.
        case alone
        /// Its filtered signal with the other filtered voices' in the filtered bus; its sends on its own.
        case filteredBus
    }

    /// What each step of the chunk's tasks does.
    private enum Step { case renderVoices, mix }

    private let chunkFrames: Int
    /// From one voice's buffer to the next (``FilterBatch/bufferStride(frames:)``).
    private let stride: Int
    /// Voices per round.
    private let roundCapacity: Int
    // Per position in the round:
    private let voiceIndices: UnsafeMutablePointer<Int>
    private let produced: UnsafeMutablePointer<Int>
    private let mixing: UnsafeMutablePointer<VoiceMix>
    private let buffers: UnsafeMutablePointer<Float>
    private let eventStorage: UnsafeMutablePointer<FilterEvent>
    private let events: UnsafeMutablePointer<FilterEvents>
    /// The filtered voices' mix when they share one bus.
    private let filteredLeft: UnsafeMutablePointer<Float>
    private let filteredRight: UnsafeMutablePointer<Float>
    /// What each thread works with (index: the pool's thread number; 0 is the render thread).
    private let lanes: [RenderLane]
    private let threads: (any RenderThreadPool)?
    let router: FilterRouter

    init(chunkFrames: Int, voices: Int, threads: (any RenderThreadPool)? = nil) {
        self.chunkFrames = chunkFrames
        self.threads = threads
        stride = FilterBatch.bufferStride(frames: chunkFrames)
        let threadCount = max(1, threads?.threadCount ?? 1)
        roundCapacity = min(max(voices, 1), threadCount > 1 ? Self.threadedWindow : Self.window)
        let r = roundCapacity
        let eventCapacity = Voice.maximumFilterEvents(frames: chunkFrames)
        voiceIndices = .allocate(filledWith: 0, count: r)
        produced = .allocate(filledWith: 0, count: r)
        mixing = .allocate(filledWith: .none, count: r)
        buffers = .allocate(filledWith: 0, count: r * stride)
        eventStorage = .allocate(filledWith: FilterEvent(.flush, at: 0), count: r * eventCapacity)
        events = .allocate(capacity: r)
        for k in 0..<r { (events + k).initialize(to: FilterEvents(eventStorage + k * eventCapacity)) }
        filteredLeft = .allocate(filledWith: 0, count: chunkFrames)
        filteredRight = .allocate(filledWith: 0, count: chunkFrames)
        let router = FilterRouter(chunkFrames: chunkFrames, voices: voices)
        self.router = router
        lanes = (0..<threadCount).map { _ in RenderLane(chunkFrames: chunkFrames, handOverStates: router.pool.joinStates) }
    }

    deinit {
        voiceIndices.deallocate()
        produced.deallocate()
        mixing.deallocate()
        buffers.deallocate()
        eventStorage.deallocate()
        events.deallocate()
        filteredLeft.deallocate()
        filteredRight.deallocate()
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
    /// Rounds spread over threads so far (for tests).
    private(set) var threadedRounds = 0
    /// Spread rounds over threads whenever there are any (tests), not only when it pays.
    var alwaysUsesThreads = false
    /// The threshold in use (benchmarks try others): ``minimumThreadedVoices``, ``minimumThreadedWork``.
    var minimumVoices = VoiceRenderer.minimumThreadedVoices
    var minimumWork = VoiceRenderer.minimumThreadedWork
    /// Measures each channel's level from the voices it mixes, when set (read only).
    var meter: ChannelLevelMeter?
    /// Counts rounds and times the chunk's parts, when set (``RenderProfile``).
    var profile: RenderProfile?

    // The chunk being rendered, for the tasks.
    private var step = Step.renderVoices
    private var voices = UnsafeMutablePointer<Voice>(bitPattern: 0x10)!
    private var count = 0
    private var context: RenderContext?
    private var targets = UnsafePointer<MixTarget>(bitPattern: 0x10)!
    private var grouped = false
    private var runsShared = false
    /// The round's members of shared filters are added to their inputs by the mix step.
    private var queuesShared = false
    private var roundCount = 0
    private var sliceCount = 1
    private var rangeFrames = 0
    /// True once the filtered bus holds this chunk's first filtered voices.
    private var filteredBusInUse = false

    /// Renders `count` (≤ chunk) frames of every active voice into `targets`, one per bus: each
    /// voice into the one its note names. `clock` is the synthesizer's frame count at the
    /// chunk's start.
    func render(voices: UnsafeMutablePointer<Voice>, voiceCount: Int, count: Int, context: RenderContext,
                clock: Int64, into targets: UnsafePointer<MixTarget>, busCount: Int) {
        self.voices = voices
        self.count = count
        self.context = context
        self.targets = targets
        grouped = busCount == 1
        filteredBusInUse = false
        let pool = router.pool
        // Shared filters run while voices may join them or they still ring.
        runsShared = shortcuts.sharing || pool.isActive
        if runsShared { pool.begin(count: count) }
        var next = 0
        while next < voiceCount {
            var r = 0
            while next < voiceCount && r < roundCapacity {
                // A voice waiting for its SFZ `delay` has not started yet.
                if voices[next].isActive && voices[next].note.startFrame <= clock {
                    voiceIndices[r] = next
                    r += 1
                }
                next += 1
            }
            if r == 0 { break }
            renderRound(r)
        }
        if grouped && filteredBusInUse {
            let l = targets[0].left, r = targets[0].right, fl = filteredLeft, fr = filteredRight
            for i in 0..<count {
                l[i] += fl[i]
                r[i] += fr[i]
            }
        }
        if runsShared {
            let t0 = profile?.clock() ?? 0
            pool.finish(count: count, clock: clock, into: targets)
            if let profile { profile.sharedFilterTime &+= profile.clock() &- t0 }
        }
        for lane in lanes {
            twinFrames &+= lane.twinFrames
            steadyPoints &+= lane.steadyPoints
            steadyPointsRunThrough &+= lane.steadyPointsRunThrough
            lane.resetCounters()
        }
        self.context = nil
    }

    /// One round of `r` voices: rendered and filtered (in slices, on any thread), routed (on
    /// this thread, in pool order), then mixed (in stretches of frames, on any thread).
    private func renderRound(_ r: Int) {
        roundCount = r
        let threaded = threads != nil && lanes.count > 1 && (alwaysUsesThreads || r >= minimumVoices && r * count >= minimumWork)
        let threadCount = threaded ? lanes.count : 1
        // A few slices per thread, so one that finishes early takes another.
        sliceCount = threaded ? max(1, min(3 * threadCount, r / 4)) : 1
        let t0 = profile?.clock() ?? 0
        run(.renderVoices, tasks: sliceCount, threaded: threaded)
        let t1 = profile?.clock() ?? 0
        if let meter { measure(meter) }
        // On threads, the mix step also sums the shared filters' inputs, stretch by stretch.
        queuesShared = threaded && runsShared
        router.pool.queuesForMix = queuesShared
        routeWaitingVoices()
        let t2 = profile?.clock() ?? 0
        // Stretches of at least 128 frames, starting on multiples of 4 (the mix's vector width).
        let ranges = threaded ? max(1, min(2 * threadCount, count / 128)) : 1
        rangeFrames = (count + ranges - 1) / ranges
        rangeFrames = (rangeFrames + 3) & ~3
        run(.mix, tasks: (count + rangeFrames - 1) / rangeFrames, threaded: threaded)
        if queuesShared { router.pool.endQueue() }
        if threaded { threadedRounds &+= 1 }
        if let profile { record(profile, threaded: threaded, t0, t1, t2) }
    }

    private func record(_ profile: RenderProfile, threaded: Bool, _ t0: UInt64, _ t1: UInt64, _ t2: UInt64) {
        let t3 = profile.clock()
        for lane in lanes {
            if threaded { profile.threadedTaskTime &+= lane.taskTime }
            lane.taskTime = 0
        }
        profile.countRound(voices: roundCount, frames: count, threaded: threaded, minimumVoices: minimumVoices)
        profile.routeTime &+= t2 &- t1
        if threaded {
            profile.threadedRenderTime &+= t1 &- t0
            profile.threadedMixTime &+= t3 &- t2
        } else {
            profile.serialRenderTime &+= t1 &- t0
            profile.serialMixTime &+= t3 &- t2
        }
    }

    private func run(_ step: Step, tasks: Int, threaded: Bool) {
        self.step = step
        if threaded, let threads {
            threads.perform(self, taskCount: tasks)
        } else {
            for i in 0..<tasks { performTask(i, thread: 0) }
        }
    }

    // MARK: - Rendering voices

    /// Slice `s` of the round: each voice's dry signal, then its filter unless it waits for
    /// the router.
    private func renderSlice(_ s: Int, _ lane: RenderLane) {
        let first = s * roundCount / sliceCount, end = (s + 1) * roundCount / sliceCount
        guard let context else { return }
        if runsShared {
            for k in first..<end { router.settle(voices + voiceIndices[k], sharing: shortcuts.sharing, targets: targets) }
        }
        for k in first..<end where voices[voiceIndices[k]].sound.pansWithinChunk {
            voices[voiceIndices[k]].sound.panFrom = SIMD2(voices[voiceIndices[k]].sound.panLeft,
                                                          voices[voiceIndices[k]].sound.panRight)
        }
        var k = first
        while k < end {
            let v = voiceIndices[k]
            if pairsTwins && context.interpolation == .cubic && k + 1 < end
                && Voice.twinOffset(voices + voiceIndices[k + 1], from: voices + v) != nil {
                // The two halves of a stereo pair, in step: one phase stream for both.
                events[k].removeAll()
                events[k + 1].removeAll()
                (produced[k], produced[k + 1]) = Voice.renderPair(
                    voices + v, voices + voiceIndices[k + 1], count: count,
                    into: buffers + k * stride, buffers + (k + 1) * stride, events: &events[k], &events[k + 1],
                    scratch: lane.scratch, shortcuts: shortcuts, context: context, twinFrames: &lane.twinFrames)
                rendered(k, lane)
                rendered(k + 1, lane)
                k += 2
            } else {
                events[k].removeAll()
                produced[k] = renderVoice(voices + v, into: buffers + k * stride, &events[k], lane.scratch, context)
                rendered(k, lane)
                k += 1
            }
        }
        if lane.batch.count > 0 { runFilters(lane) }
    }

    /// The shortcuts on, or the plain path when both are off (the verdicts of steadiness it
    /// does not judge are dropped).
    @inline(__always)
    private func renderVoice(_ voice: UnsafeMutablePointer<Voice>, into out: UnsafeMutablePointer<Float>,
                             _ voiceEvents: inout FilterEvents, _ scratch: UnsafeMutablePointer<Float>,
                             _ context: RenderContext) -> Int {
        if shortcuts.steady || shortcuts.sharing {
            return voice.pointee.render(count: count, into: out, events: &voiceEvents, scratch: scratch,
                                        shortcuts: shortcuts, context: context)
        }
        voice.pointee.steadiness.isSteady = false
        return voice.pointee.render(count: count, into: out, events: &voiceEvents, scratch: scratch, context: context)
    }

    /// Round position `k` has rendered: it waits for the router if it joins, leaves or is in a
    /// shared filter, else goes on to its filter.
    @inline(__always)
    private func rendered(_ k: Int, _ lane: RenderLane) {
        let voice = voices + voiceIndices[k]
        let (passed, runThrough) = voice.pointee.takeSteadyCounts()
        lane.steadyPoints &+= passed
        lane.steadyPointsRunThrough &+= runThrough
        if runsShared && (voice.pointee.membership.group >= 0 || (shortcuts.sharing && events[k].asksToJoin)) {
            mixing[k] = .waitsForRouter
        } else {
            filter(k, lane)
        }
    }

    /// Puts round position `k` into the lane's next filter if its voice sounded and is
    /// filtered, and decides how it is mixed.
    @inline(__always)
    private func filter(_ k: Int, _ lane: RenderLane) {
        let voice = voices + voiceIndices[k], n = produced[k]
        guard n > 0 else { mixing[k] = .none; return }
        guard voice.pointee.isFiltered else { mixing[k] = .alone; return }
        mixing[k] = grouped ? .filteredBus : .alone
        let out = buffers + k * stride
        // The filter runs over the whole chunk: a voice that ended early feeds it silence.
        if n < count { (out + n).update(repeating: 0, count: count - n) }
        lane.slots[lane.batch.count] = k
        if lane.batch.append(voice.pointee.filter, buffer: out, events: events[k].base, eventCount: events[k].count) {
            runFilters(lane)
        }
    }

    private func runFilters(_ lane: RenderLane) {
        let taken = lane.batch.process(frames: count)
        for l in 0..<taken {
            let k = lane.slots[l], n = produced[k]
            voices[voiceIndices[k]].filter = lane.batch.filter(l)
            // A voice that ended inside the chunk: its filter rang on past the end, in silence
            // that the voice does not have. (A voice mixed alone reads only its own frames.)
            if grouped && n < count { (buffers + k * stride + n).update(repeating: 0, count: count - n) }
        }
    }

    /// The voices waiting for the router, in pool order: their frames in shared filters go
    /// there, the rest to their own filters.
    private func routeWaitingVoices() {
        let lane = lanes[0]
        for k in 0..<roundCount where mixing[k] == .waitsForRouter {
            let voice = voices + voiceIndices[k]
            if router.route(voice, produced[k], buffers + k * stride, events[k], target: targets[voice.pointee.note.bus]) {
                filter(k, lane)
            } else {
                mixing[k] = .none
            }
        }
        if lane.batch.count > 0 { runFilters(lane) }
        // The round's buffers are reused by the next one: members waiting go in now, or in
        // the mix step.
        if runsShared { router.pool.flush() }
        if queuesShared { router.pool.sealQueue() }
        if grouped && !filteredBusInUse {
            for k in 0..<roundCount where mixing[k] == .filteredBus {
                filteredLeft.update(repeating: 0, count: count)
                filteredRight.update(repeating: 0, count: count)
                filteredBusInUse = true
                break
            }
        }
    }

    /// Every voice of the round into the meter, on the render thread (a peak is the same in
    /// any order): its own filter has run, unless it waits for the router to send it to a
    /// shared filter — then its dry signal is read, scaled by the filter's pass-band gain.
    private func measure(_ meter: ChannelLevelMeter) {
        for k in 0..<roundCount where produced[k] > 0 {
            let voice = voices + voiceIndices[k]
            var gain = max(voice.pointee.sound.panLeft, voice.pointee.sound.panRight)
            if mixing[k] == .waitsForRouter { gain *= voice.pointee.filter.passBandGain }
            meter.measure(buffers + k * stride, produced[k], gain: gain, channel: voice.pointee.note.channel)
        }
    }

    // MARK: - Mixing

    /// Frames `range · rangeFrames …` of the round into the buses: every voice in pool order;
    /// and members of shared filters into their inputs, when they were queued for the mix.
    private func mix(_ range: Int, _ lane: RenderLane) {
        let from = range * rangeFrames, to = min(count, from + rangeFrames)
        let frames = to - from
        if queuesShared { router.pool.addQueued(from: from, to: to) }
        var gathered = 0
        for k in 0..<roundCount {
            let how = mixing[k]
            guard how == .alone || how == .filteredBus else { continue }
            let voice = voices + voiceIndices[k]
            let signal = buffers + k * stride + from
            let target = targets[voice.pointee.note.bus].advanced(by: from)
            let own = min(produced[k], to) - from
            if how == .alone {
                if own > 0 {
                    if voice.pointee.sound.pansWithinChunk {
                        target.addPanning(signal, own, voice.pointee.sound, from: from, of: count)
                    } else {
                        target.add(signal, own, voice.pointee.sound)
                    }
                }
                continue
            }
            lane.mixSources[gathered] = signal
            lane.mixGains[gathered] = SIMD2(voice.pointee.sound.panLeft, voice.pointee.sound.panRight)
            gathered += 1
            if gathered == FilterBatch.lanes {
                StereoMix.addEight(lane.mixSources, gains: lane.mixGains, left: filteredLeft + from,
                                   right: filteredRight + from, count: frames)
                gathered = 0
            }
            if own > 0 { target.addSends(signal, own, voice.pointee.sound) }
        }
        if gathered > 0 {
            // Spare slots add +0, which leaves a sum begun at +0 bit for bit as it was.
            for g in gathered..<FilterBatch.lanes {
                lane.mixSources[g] = lane.silence
                lane.mixGains[g] = .zero
            }
            StereoMix.addEight(lane.mixSources, gains: lane.mixGains, left: filteredLeft + from,
                               right: filteredRight + from, count: frames)
        }
    }
}

extension VoiceRenderer: ParallelRenderWork {
    func performTask(_ index: Int, thread: Int) {
        if let profile {
            // Timed on the thread that runs it (profiled renders only).
            let t0 = profile.clock()
            performUntimedTask(index, thread: thread)
            lanes[thread].taskTime &+= profile.clock() &- t0
        } else {
            performUntimedTask(index, thread: thread)
        }
    }

    @inline(__always)
    private func performUntimedTask(_ index: Int, thread: Int) {
        // Other threads compute in the render thread's floating-point mode, so every thread
        // gives the same bits.
        if thread == 0 {
            runTask(index, lanes[0])
        } else {
            DenormalMode.flushingToZero { runTask(index, lanes[thread]) }
        }
    }

    @inline(__always)
    private func runTask(_ index: Int, _ lane: RenderLane) {
        switch step {
        case .renderVoices: renderSlice(index, lane)
        case .mix: mix(index, lane)
        }
    }
}

/// What one thread renders voices with: the oscillator's scratch memory, a filter batch, room
/// to gather voices for the mix, and counters for tests.
final class RenderLane {
    /// The oscillators' widened sample points (see ``Oscillator/scratchPoints``).
    let scratch: UnsafeMutablePointer<Float>
    let batch: FilterBatch
    /// The round position in each of the batch's lanes.
    let slots: UnsafeMutablePointer<Int>
    /// Up to eight filtered voices (and their pans) being summed into the filtered bus.
    let mixSources: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    let mixGains: UnsafeMutablePointer<SIMD2<Float>>
    let silence: UnsafeMutablePointer<Float>
    var twinFrames = 0
    var steadyPoints = 0
    var steadyPointsRunThrough = 0
    /// Nanoseconds of tasks run here since the round began, on the profile's clock.
    var taskTime: UInt64 = 0

    init(chunkFrames: Int, handOverStates: UnsafeMutablePointer<SIMD2<Float>>) {
        scratch = .allocate(filledWith: 0, count: Oscillator.scratchPoints)
        batch = FilterBatch(frames: chunkFrames, handOverStates: handOverStates)
        slots = .allocate(filledWith: 0, count: FilterBatch.lanes)
        silence = .allocate(filledWith: 0, count: chunkFrames)
        mixSources = .allocate(filledWith: silence, count: FilterBatch.lanes)
        mixGains = .allocate(filledWith: .zero, count: FilterBatch.lanes)
    }

    deinit {
        scratch.deallocate()
        slots.deallocate()
        mixSources.deallocate()
        mixGains.deallocate()
        silence.deallocate()
    }

    func resetCounters() {
        twinFrames = 0
        steadyPoints = 0
        steadyPointsRunThrough = 0
    }
}
