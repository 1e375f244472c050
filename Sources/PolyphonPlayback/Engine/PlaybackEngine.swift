import PolyphonMIDI
import PolyphonSynth

/// Plays a ``Timeline`` through a synthesizer, stretch by stretch, on the render thread: the
/// one engine behind the offline renderer (which loops over it as fast as the CPU allows) and
/// ``MIDIPlayer`` (whose audio callback pulls from it).
///
/// Each ``step(maximumFrames:render:)`` sends the events due in the coming frames to the
/// synthesizer on their exact frames, lets the caller render them, and moves on: up to the
/// song's last event (the events on that frame get a one-frame step of their own), back to the
/// loop's start at its end while passes remain (sample-exact: the jump releases the notes still
/// held and restores the state the loop began in), then through the tail (``RenderTail``) until
/// the song is complete. It allocates nothing, takes no lock and never waits.
final class PlaybackEngine {
    /// What the engine is doing.
    enum State {
        case stopped, paused, playing
        /// After the last event: waiting for the voices and effects to die away.
        case tail
    }

    let synthesizer: Synthesizer
    /// The plan played; its owner keeps it alive (the engine neither retains nor releases it).
    private(set) var plan: Unmanaged<PlaybackPlan>
    var state = State.stopped
    /// The timeline position in frames (fractional when the rate is not 1).
    private(set) var position = 0.0
    /// Timeline frames per output frame.
    var rate = 1.0
    /// Frames rendered since the engine was created.
    private(set) var outputFrame: Int64 = 0
    /// Jumps back still to make: −1 for ever.
    var jumpsLeft = 0
    /// The loop pass playing, from 1.
    private(set) var pass = 1
    /// The longest the tail may ring, in seconds.
    var maximumTail = 10.0
    /// Lift the pedals and release every note where the tail begins.
    var liftsPedalsAtEnd = true
    /// The output frame the song completed on (−1: not yet).
    private(set) var completionFrame: Int64 = -1
    /// Per event index: the output bus of its note-on (stems); empty: bus 0.
    var outputBuses: [Int] = []
    /// Where callbacks go (the player's mailbox); `nil`: none are made.
    let callbacks: PlayerMailbox?

    private var nextEvent = 0
    private var nextGridPoint = 0
    /// Whether the effects' modulation at the loop's start is remembered (the first pass got
    /// there).
    private var modulationRemembered = false
    private var tailFrames: Int64 = 0
    private let notes: SoundingNotes

    init(synthesizer: Synthesizer, plan: PlaybackPlan, noteCapacity: Int, callbacks: PlayerMailbox? = nil) {
        self.synthesizer = synthesizer
        self.plan = Unmanaged.passUnretained(plan)
        self.callbacks = callbacks
        notes = SoundingNotes(capacity: noteCapacity, channelCount: synthesizer.configuration.channelCount)
    }

    // MARK: - Stepping

    /// Renders the next stretch: at most `maximumFrames` frames, fewer where the song's last
    /// event, a loop's end or a tail step comes. The events due in it are sent first; then
    /// `render(n)` renders the synthesizer's next `n` frames. Returns `n`: 0 once the song is
    /// complete. Stopped or paused, it renders `maximumFrames` of the synthesizer alone (so
    /// released notes ring out).
    @inline(__always)
    func step(maximumFrames: Int, render: (Int) throws -> Void) rethrows -> Int {
        let frames: Int
        switch state {
        case .playing: frames = try playStep(maximumFrames, render)
        case .tail: frames = try tailStep(maximumFrames, render)
        case .stopped, .paused:
            try render(maximumFrames)
            frames = maximumFrames
        }
        outputFrame += Int64(frames)
        return frames
    }

    private func playStep(_ maximumFrames: Int, _ render: (Int) throws -> Void) rethrows -> Int {
        let plan = plan.takeUnretainedValue()
        let timeline = plan.timeline
        let loop = plan.loop
        let looping = loop != nil && jumpsLeft != 0 && position < Double(loop!.endFrame)
        if looping && !modulationRemembered && position >= Double(loop!.startFrame) {
            // Where the effects' modulation is as the loop begins: every jump returns there.
            synthesizer.rememberEffectModulation()
            modulationRemembered = true
        }
        // Up to the last event in blocks; the events on the last frame get a step of their own.
        // Looping: up to the loop's start (the first time), then its end.
        let target: Double = !looping
            ? position < Double(timeline.lastEventFrame) ? Double(timeline.lastEventFrame) : Double(timeline.endFrame)
            : !modulationRemembered ? Double(loop!.startFrame) : Double(loop!.endFrame)
        if position >= target {
            enterTail()
            return 0
        }
        let frames = min(maximumFrames, max(1, Int(((target - position) / rate).rounded(.up))))
        let segmentEnd = position + Double(frames) * rate
        let dispatchEnd = min(segmentEnd, target)

        let events = timeline.events
        while nextEvent < events.count && Double(events[nextEvent].frame) < dispatchEnd {
            let event = events[nextEvent]
            if notes.count > 0 { releaseNotes(endingBefore: Double(event.frame), inclusive: true) }
            dispatch(event, index: nextEvent, plan: plan, tracksHeld: loop != nil)
            nextEvent += 1
        }
        if notes.count > 0 { releaseNotes(endingBefore: dispatchEnd, inclusive: false) }
        if plan.flags.beats || plan.flags.bars { emitGrid(before: dispatchEnd, plan: plan) }
        try render(frames)
        position = segmentEnd
        if looping && position >= Double(loop!.endFrame) {
            jump(to: loop!, plan: plan, frames: frames)
        } else if !looping && position >= Double(timeline.endFrame) {
            enterTail(afterFrames: frames)
        }
        return frames
    }

    /// Back to the loop's start: the notes still sounding are released (they ring on, as in
    /// the song played through), the state the loop began in is restored, and the fraction of
    /// a frame the last step went past the end is kept.
    private func jump(to loop: TimelineLoop, plan: PlaybackPlan, frames: Int) {
        releaseAllNotes()
        notes.releaseHeld(on: synthesizer)
        for message in loop.restore { synthesizer.send(message.message, port: message.port) }
        if modulationRemembered { synthesizer.recallEffectModulation() }
        position = Double(loop.startFrame) + (position - Double(loop.endFrame))
        if jumpsLeft > 0 { jumpsLeft -= 1 }
        pass += 1
        nextEvent = plan.timeline.firstEvent(atOrAfter: position)
        nextGridPoint = plan.firstGridPoint(atOrAfter: position)
        if plan.flags.loops {
            emit(PlayerCallback(kind: .loop(pass: pass), frame: outputFrame + Int64(frames),
                                time: Double(loop.startFrame) / plan.timeline.sampleRate - plan.timeline.leadIn,
                                beat: plan.timeline.beat(atFrame: Double(loop.startFrame))))
        }
    }

    /// The song is over: from here on only its tail renders. `afterFrames`: frames the current
    /// step renders before the tail begins.
    private func enterTail(afterFrames: Int = 0) {
        releaseAllNotes()
        // Pedals still down and keys never let go release their notes, as FluidSynth's player
        // does (sustain off, sostenuto off, all notes off); with nothing sounding there is
        // nothing to release.
        if liftsPedalsAtEnd && !synthesizer.isIdle {
            synthesizer.liftPedals()
            synthesizer.allNotesOff()
        }
        state = .tail
        tailFrames = 0
        _ = completeIfTailEnded(atOutputFrame: outputFrame + Int64(afterFrames))
    }

    /// The tail step by step (``RenderTail``); complete at the first step boundary where every
    /// voice has ended and the effects are silent.
    private func tailStep(_ maximumFrames: Int, _ render: (Int) throws -> Void) rethrows -> Int {
        if completeIfTailEnded(atOutputFrame: outputFrame) { return 0 }
        let frames = max(1, tailRule.nextStep(elapsed: tailFrames, lead: tailLead, limit: maximumFrames))
        try render(frames)
        tailFrames += Int64(frames)
        // Checked here too, so a render call that ends on the tail's end already reports it.
        _ = completeIfTailEnded(atOutputFrame: outputFrame + Int64(frames))
        return frames
    }

    private var tailRule: RenderTail { RenderTail(maximumSeconds: maximumTail, sampleRate: synthesizer.sampleRate) }

    /// Frames from the song's last event to where its tail began.
    private var tailLead: Int64 {
        let timeline = plan.takeUnretainedValue().timeline
        return timeline.endFrame - timeline.lastEventFrame
    }

    private func completeIfTailEnded(atOutputFrame frame: Int64) -> Bool {
        guard state == .tail else { return false }
        guard tailRule.isOver(elapsed: tailFrames, lead: tailLead,
                              silent: { synthesizer.isIdle && synthesizer.effectsAreSilent }) else { return false }
        state = .stopped
        completionFrame = frame
        let plan = plan.takeUnretainedValue()
        if callbacks != nil {
            emit(PlayerCallback(kind: .completion, frame: frame, time: plan.timeline.duration,
                                beat: plan.timeline.beat(atFrame: position)))
        }
        return true
    }

    // MARK: - Events

    /// The offset in the coming synthesizer call of a timeline frame (past frames: 0).
    @inline(__always)
    private func offset(of frame: Double) -> Int {
        max(0, Int(((frame - position) / rate).rounded(.up)))
    }

    /// Sends one event and queues its callbacks.
    @inline(__always)
    private func dispatch(_ event: Timeline.Event, index: Int, plan: PlaybackPlan, tracksHeld: Bool) {
        let at = offset(of: Double(event.frame))
        let bus = index < outputBuses.count ? outputBuses[index] : 0
        if let end = event.noteEnd {
            let audible = plan.audible.isEmpty || (event.track < plan.audible.count && plan.audible[event.track])
            guard audible, !notes.isFull, case .noteOn(let channel, let key, _) = event.message else { return }
            synthesizer.send(event.message, port: event.port, outputBus: bus, atFrame: at)
            notes.append(SoundingNotes.Note(channel: channel, port: event.port, key: key, releaseVelocity: end.releaseVelocity,
                                            endFrame: Double(end.frame), track: event.track))
        } else {
            if tracksHeld { notes.track(event.message, port: event.port) }
            synthesizer.send(event.message, port: event.port, outputBus: bus, atFrame: at)
        }
        if callbacks != nil && event.source >= 0 && plan.flags.any { emitCallbacks(for: event, at: at, plan: plan) }
    }

    private func emitCallbacks(for event: Timeline.Event, at: Int, plan: PlaybackPlan) {
        let timeline = plan.timeline
        let songEvent = timeline.songEvents[Int(event.source)]
        let category = songEvent.kind.category
        let flags = plan.flags
        let wantsEvent = flags.events && plan.eventCallbackCategories[category.rawValue]
            && event.track < plan.eventCallbackTracks.count && plan.eventCallbackTracks[event.track]
        let wantsText = (category == .marker && flags.markers) || (category == .lyric && flags.lyrics)
        guard wantsEvent || wantsText else { return }
        let frame = outputFrame + Int64(at)
        let time = Double(event.frame) / timeline.sampleRate
        if wantsEvent {
            emit(PlayerCallback(kind: .event(songEvent, track: event.track), frame: frame, time: time, beat: songEvent.beat))
        }
        if wantsText, case .meta(.text(_, let text)) = songEvent.kind {
            let kind: PlayerCallback.Kind = category == .lyric
                ? .lyric(text, track: event.track) : .marker(text, track: event.track)
            emit(PlayerCallback(kind: kind, frame: frame, time: time, beat: songEvent.beat))
        }
    }

    private func emitGrid(before end: Double, plan: PlaybackPlan) {
        let grid = plan.grid
        while nextGridPoint < grid.count && Double(grid[nextGridPoint].frame) < end {
            let point = grid[nextGridPoint]
            let frame = outputFrame + Int64(offset(of: Double(point.frame)))
            let time = Double(point.frame) / plan.timeline.sampleRate
            if plan.flags.bars && point.beat.beatInBar == 0 {
                emit(PlayerCallback(kind: .bar(point.beat), frame: frame, time: time, beat: point.beat.position))
            }
            if plan.flags.beats {
                emit(PlayerCallback(kind: .beat(point.beat), frame: frame, time: time, beat: point.beat.position))
            }
            nextGridPoint += 1
        }
    }

    @inline(__always)
    private func emit(_ callback: PlayerCallback) {
        callbacks?.post(callback)
    }

    // MARK: - Note-offs

    /// Sends the note-offs due before `frame` (at it too when `inclusive`).
    private func releaseNotes(endingBefore frame: Double, inclusive: Bool) {
        var index = 0
        while index < notes.count {
            let end = notes[index].endFrame
            if end < frame || (inclusive && end == frame) { releaseNote(at: index, now: false) } else { index += 1 }
        }
    }

    /// Sends every sounding song note its note-off now.
    func releaseAllNotes() {
        while notes.count > 0 { releaseNote(at: 0, now: true) }
    }

    private func releaseNote(at index: Int, now: Bool) {
        let note = notes[index]
        synthesizer.send(.noteOff(channel: note.channel, note: note.key, velocity: note.releaseVelocity), port: note.port,
                         atFrame: now ? 0 : offset(of: note.endFrame))
        notes.remove(at: index)
    }

    /// Releases the song notes of tracks that no longer sound (a new plan muted them).
    private func releaseInaudibleNotes(_ plan: PlaybackPlan) {
        guard !plan.audible.isEmpty else { return }
        var index = 0
        while index < notes.count {
            let track = notes[index].track
            if track >= plan.audible.count || !plan.audible[track] { releaseNote(at: index, now: true) } else { index += 1 }
        }
    }

    // MARK: - Control (called on the render thread)

    /// Goes to a timeline frame after a reset and chase (a seek): nothing sounds any more.
    func seek(toFrame frame: Double, chase: [ChaseMessage]) {
        notes.removeAll()
        notes.forgetHeld()
        synthesizer.reset()
        for chased in chase { synthesizer.send(chased.message, port: chased.port) }
        modulationRemembered = false
        position = frame
        locate()
        if state == .tail { state = .playing }
    }

    /// Starts from the beginning of the plan's timeline (an offline render).
    func start(jumps: Int) {
        jumpsLeft = jumps
        pass = 1
        modulationRemembered = false
        state = .playing
        locate()
    }

    /// Sets the jumps the loop still makes (the count of a loop just set).
    func setLoopJumps(_ jumps: Int) {
        jumpsLeft = jumps
    }

    /// Switches to another plan: a changed tempo keeps the musical position (and sounding
    /// notes end on their beats), notes of tracks muted now end.
    func adopt(_ newPlan: PlaybackPlan) {
        let old = plan.takeUnretainedValue()
        if old.timeline.tempoMap != newPlan.timeline.tempoMap {
            let oldTimeline = old.timeline, newTimeline = newPlan.timeline
            position = newTimeline.frame(atBeat: oldTimeline.beat(atFrame: position))
            for index in 0..<notes.count {
                notes[index].endFrame = newTimeline.frame(atBeat: oldTimeline.beat(atFrame: notes[index].endFrame))
            }
        }
        if old.loop != newPlan.loop { modulationRemembered = false }
        plan = Unmanaged.passUnretained(newPlan)
        locate()
        releaseInaudibleNotes(newPlan)
        if state == .tail && position < Double(newPlan.timeline.endFrame) { state = .playing }
    }

    /// Pauses or stops: sounding notes are released.
    func halt(pausing: Bool) {
        releaseAllNotes()
        notes.releaseHeld(on: synthesizer)
        if pausing { if state != .stopped { state = .paused } } else { state = .stopped }
    }

    /// Resumes or starts playing.
    func resume() {
        if state == .stopped || state == .paused {
            state = .playing
            completionFrame = -1
        }
    }

    private func locate() {
        let plan = plan.takeUnretainedValue()
        nextEvent = plan.timeline.firstEvent(atOrAfter: position)
        nextGridPoint = plan.firstGridPoint(atOrAfter: position)
    }
}
