import PolyphonMIDI
import PolyphonSynth

extension MIDIPlayer {
    /// Renders the next `frameCount` frames of the song into two buffers (overwriting them).
    ///
    /// Call it from one thread only, the render thread. It applies waiting commands and the
    /// latest published song first, sends every event due in these frames to the synthesizer
    /// on its exact frame, and queues the callbacks they produce. It allocates nothing, takes no
    /// lock and never waits. While stopped or paused it still renders the synthesizer, so
    /// released notes ring out.
    public func render(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frameCount: Int) {
        applyCommands()
        adoptPublishedTimeline()
        var done = 0
        while done < frameCount {
            let remaining = frameCount - done
            let rendered: Int
            switch renderState {
            case .playing:
                rendered = renderPlaying(left + done, right + done, remaining)
            case .tail:
                rendered = renderTail(left + done, right + done, remaining)
            case .stopped, .paused:
                synthesizer.render(left: left + done, right: right + done, frameCount: remaining)
                outputFrame += Int64(remaining)
                rendered = remaining
            }
            done += rendered
        }
        positionBits.store(position.bitPattern, ordering: .releasing)
    }

    // MARK: - Playing

    /// Renders up to `count` frames of the song, stopping early at a loop end or the song's end.
    private func renderPlaying(_ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>,
                               _ count: Int) -> Int {
        let timeline = renderTimeline.takeUnretainedValue()
        let looping = renderLoop != nil && loopJumpsLeft != 0 && position < loopEndFrame
        let limit = looping ? loopEndFrame : Double(timeline.endFrame)
        if position >= limit {
            enterTail()
            return 0
        }
        let frames = min(count, max(1, Int(((limit - position) / renderRate).rounded(.up))))
        let segmentEnd = position + Double(frames) * renderRate
        let dispatchEnd = min(segmentEnd, limit)

        let events = timeline.events
        while nextEvent < events.count && Double(events[nextEvent].frame) < dispatchEnd {
            let event = events[nextEvent]
            releaseNotes(endingAtOrBefore: Double(event.frame))
            dispatch(event, timeline: timeline)
            nextEvent += 1
        }
        releaseNotes(endingBefore: dispatchEnd)
        if timeline.flags.beats || timeline.flags.bars {
            let grid = timeline.grid
            while nextGridPoint < grid.count && Double(grid[nextGridPoint].frame) < dispatchEnd {
                let point = grid[nextGridPoint]
                let frame = outputFrame + Int64(offset(of: Double(point.frame)))
                let time = Double(point.frame) / timeline.sampleRate
                if timeline.flags.bars && point.beat.beatInBar == 0 {
                    emit(PlayerCallback(kind: .bar(point.beat), frame: frame, time: time, beat: point.beat.position))
                }
                if timeline.flags.beats {
                    emit(PlayerCallback(kind: .beat(point.beat), frame: frame, time: time, beat: point.beat.position))
                }
                nextGridPoint += 1
            }
        }
        synthesizer.render(left: left, right: right, frameCount: frames)
        outputFrame += Int64(frames)
        position = segmentEnd
        if looping && position >= loopEndFrame {
            // Notes still sounding end at the loop's end, as in a DAW; the jump keeps the
            // fraction of a frame the last block went past the end.
            releaseAllNotes()
            position = loopStartFrame + (position - loopEndFrame)
            if loopJumpsLeft > 0 { loopJumpsLeft -= 1 }
            nextEvent = timeline.firstEvent(atOrAfter: position)
            nextGridPoint = timeline.firstGridPoint(atOrAfter: position)
        } else if !looping && position >= limit {
            enterTail()
        }
        return frames
    }

    /// The song is over: from here on only its tail renders.
    private func enterTail() {
        releaseAllNotes()
        // Pedals still down release their notes, as the offline renderer does.
        if liftsPedalsAtEndFlag.load(ordering: .relaxed) && !synthesizer.isIdle {
            synthesizer.liftPedals()
            synthesizer.allNotesOff()
        }
        renderState = .tail
        tailFrames = 0
        _ = completeIfTailEnded()
    }

    /// Renders the tail step by step (``RenderTail``: the offline renderer's rule) and completes
    /// at the first step boundary where every voice has ended and the effects are silent.
    private func renderTail(_ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>,
                            _ count: Int) -> Int {
        if completeIfTailEnded() { return 0 }
        let frames = max(1, tailRule.nextStep(elapsed: tailFrames, lead: tailLead, limit: count))
        synthesizer.render(left: left, right: right, frameCount: frames)
        outputFrame += Int64(frames)
        tailFrames += Int64(frames)
        // Checked here too, so a render call that ends on the tail's end already reports it.
        _ = completeIfTailEnded()
        return frames
    }

    /// The tail rule at the current maximum tail.
    private var tailRule: RenderTail { RenderTail(maximumSeconds: renderMaximumTail, sampleRate: synthesizer.sampleRate) }

    /// Frames from the song's last event to where its tail began.
    private var tailLead: Int64 {
        let timeline = renderTimeline.takeUnretainedValue()
        return timeline.endFrame - timeline.lastEventFrame
    }

    /// Completes the song when the tail is over (``RenderTail``).
    private func completeIfTailEnded() -> Bool {
        guard renderState == .tail else { return false }
        guard tailRule.isOver(elapsed: tailFrames, lead: tailLead,
                              silent: { synthesizer.isIdle && synthesizer.effectsAreSilent }) else { return false }
        renderState = .stopped
        playingFlag.store(false, ordering: .releasing)
        lastCompletionFrame.store(outputFrame, ordering: .releasing)
        let timeline = renderTimeline.takeUnretainedValue()
        emit(PlayerCallback(kind: .completion, frame: outputFrame, time: timeline.duration,
                            beat: timeline.beat(atFrame: position)))
        return true
    }

    /// The offset in the coming synthesizer call of a song frame (past frames: 0).
    @inline(__always)
    private func offset(of frame: Double) -> Int {
        max(0, Int(((frame - position) / renderRate).rounded(.up)))
    }

    /// Sends one event and queues its callbacks.
    private func dispatch(_ event: PlayerTimeline.Event, timeline: PlayerTimeline) {
        let at = offset(of: Double(event.frame))
        let category = event.event.kind.category
        let audible = event.track < timeline.audible.count && timeline.audible[event.track]
        switch event.action {
        case .note(let channel, let port, let key, let velocity, let releaseVelocity, let endFrame):
            guard audible, activeNoteCount < activeNoteCapacity else { return }
            synthesizer.send(.noteOn(channel: channel, note: key, velocity: velocity), port: port, atFrame: at)
            activeNotes[activeNoteCount] = ActiveNote(channel: channel, port: port, key: key,
                                                      releaseVelocity: releaseVelocity, endFrame: Double(endFrame),
                                                      track: event.track)
            activeNoteCount += 1
        case .message(let message, let port):
            synthesizer.send(message, port: port, atFrame: at)
        case .program(let channel, let program, let msb, let lsb, let port):
            if let msb { synthesizer.send(.controlChange(channel: channel, controller: 0, value: msb), port: port, atFrame: at) }
            if let lsb { synthesizer.send(.controlChange(channel: channel, controller: 32, value: lsb), port: port, atFrame: at) }
            synthesizer.send(.programChange(channel: channel, program: program), port: port, atFrame: at)
        case .sysEx(let bytes):
            // A song's SysEx may be written with or without its F0: this call takes both.
            synthesizer.sendMIDISysExEvent(bytes, atFrame: at)
        case .none:
            break
        }
        let flags = timeline.flags
        let wantsEvent = flags.events && timeline.eventCallbackCategories[category.rawValue]
            && event.track < timeline.eventCallbackTracks.count && timeline.eventCallbackTracks[event.track]
        let wantsText = (category == .marker && flags.markers) || (category == .lyric && flags.lyrics)
        guard wantsEvent || wantsText else { return }
        let frame = outputFrame + Int64(at)
        let time = Double(event.frame) / timeline.sampleRate
        if wantsEvent {
            emit(PlayerCallback(kind: .event(event.event, track: event.track), frame: frame, time: time,
                                beat: event.event.beat))
        }
        if wantsText, case .meta(.text(_, let text)) = event.event.kind {
            let kind: PlayerCallback.Kind = category == .lyric
                ? .lyric(text, track: event.track) : .marker(text, track: event.track)
            emit(PlayerCallback(kind: kind, frame: frame, time: time, beat: event.event.beat))
        }
    }

    @inline(__always)
    private func emit(_ callback: PlayerCallback) {
        if !callbacks.push(callback) { droppedCallbackCount.wrappingIncrement(ordering: .relaxed) }
    }

    // MARK: - Note-offs

    private func releaseNotes(endingAtOrBefore frame: Double) {
        var index = 0
        while index < activeNoteCount {
            if activeNotes[index].endFrame <= frame { releaseNote(at: index) } else { index += 1 }
        }
    }

    private func releaseNotes(endingBefore frame: Double) {
        var index = 0
        while index < activeNoteCount {
            if activeNotes[index].endFrame < frame { releaseNote(at: index) } else { index += 1 }
        }
    }

    /// Sends every sounding note its note-off now.
    func releaseAllNotes() {
        while activeNoteCount > 0 { releaseNote(at: 0, now: true) }
    }

    /// Sends a note its note-off (at its end frame, or at once) and removes it from the table,
    /// keeping the table in start order so simultaneous note-offs go out in the order the notes
    /// began.
    private func releaseNote(at index: Int, now: Bool = false) {
        let note = activeNotes[index]
        synthesizer.send(.noteOff(channel: note.channel, note: note.key, velocity: note.releaseVelocity), port: note.port,
                         atFrame: now ? 0 : offset(of: note.endFrame))
        let tail = activeNoteCount - index - 1
        if tail > 0 { (activeNotes + index).update(from: activeNotes + index + 1, count: tail) }
        activeNoteCount -= 1
    }

    // MARK: - Commands and snapshots

    private func applyCommands() {
        while let command = commands.pop() {
            switch command.kind {
            case .play:
                if renderState == .stopped || renderState == .paused { renderState = .playing }
            case .pause:
                releaseAllNotes()
                if renderState != .stopped { renderState = .paused }
            case .stop:
                releaseAllNotes()
                renderState = .stopped
            case .seek(let unmanagedPlan):
                seek(unmanagedPlan.takeUnretainedValue())
            case .rate(let rate):
                renderRate = rate
            case .loop(let loop):
                renderLoop = loop
                switch loop?.count {
                case .times(let times): loopJumpsLeft = max(0, times - 1)
                case .forever: loopJumpsLeft = -1
                case nil: loopJumpsLeft = 0
                }
                updateLoopFrames()
            case .maximumTail(let seconds):
                renderMaximumTail = seconds
            }
            appliedCommandSerial.store(command.serial, ordering: .releasing)
        }
    }

    private func seek(_ plan: SeekPlan) {
        activeNoteCount = 0
        synthesizer.reset()
        for chased in plan.chase {
            if case .systemExclusive(let bytes) = chased.message {
                synthesizer.sendMIDISysExEvent(bytes)
            } else {
                synthesizer.send(chased.message, port: chased.port)
            }
        }
        position = plan.frame
        let timeline = renderTimeline.takeUnretainedValue()
        nextEvent = timeline.firstEvent(atOrAfter: position)
        nextGridPoint = timeline.firstGridPoint(atOrAfter: position)
        if renderState == .tail { renderState = .playing }
    }

    /// Switches to the latest published timeline, if there is a new one.
    private func adoptPublishedTimeline() {
        guard let raw = pendingTimeline.exchange(nil, ordering: .acquiringAndReleasing) else { return }
        let old = renderTimeline.takeUnretainedValue()
        let new = Unmanaged<PlayerTimeline>.fromOpaque(raw)
        let timeline = new.takeUnretainedValue()
        if old.tempoMap != timeline.tempoMap {
            // Keep the musical position: the same beat, wherever the new tempo puts it.
            position = timeline.frame(atBeat: old.beat(atFrame: position))
            for index in 0..<activeNoteCount {
                activeNotes[index].endFrame = timeline.frame(atBeat: old.beat(atFrame: activeNotes[index].endFrame))
            }
        }
        renderTimeline = new
        renderGeneration.store(timeline.generation, ordering: .releasing)
        nextEvent = timeline.firstEvent(atOrAfter: position)
        nextGridPoint = timeline.firstGridPoint(atOrAfter: position)
        updateLoopFrames()
        // Notes of tracks muted by this change end now.
        var index = 0
        while index < activeNoteCount {
            let track = activeNotes[index].track
            if track >= timeline.audible.count || !timeline.audible[track] {
                releaseNote(at: index, now: true)
            } else {
                index += 1
            }
        }
        if renderState == .tail && position < Double(timeline.endFrame) { renderState = .playing }
    }

    private func updateLoopFrames() {
        guard let loop = renderLoop else { return }
        let timeline = renderTimeline.takeUnretainedValue()
        loopStartFrame = timeline.frame(atBeat: loop.beats.lowerBound)
        loopEndFrame = timeline.frame(atBeat: loop.beats.upperBound)
        if loopEndFrame <= loopStartFrame { loopJumpsLeft = 0 }
    }
}

extension Int64 {
    /// The value as an `Int`, clamped to `Int`'s range.
    fileprivate var clampedToInt: Int { Int(clamping: self) }
}
