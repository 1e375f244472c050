import PolyphonMIDI
import PolyphonSynth

extension MIDIPlayer {
    /// Renders the next `frameCount` frames of the song into two buffers (overwriting them).
    ///
    /// Call it from one thread only, the render thread. It applies waiting commands and the
    /// latest published plan of the song first, sends every event due in these frames to the
    /// synthesizer on its exact frame, and queues the callbacks they produce. It allocates
    /// nothing, takes no lock and never waits. While stopped or paused it still renders the
    /// synthesizer, so released notes ring out.
    public func render(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frameCount: Int) {
        applyCommands()
        adoptPublishedPlan()
        engine.liftsPedalsAtEnd = mailbox.liftsPedalsAtEnd.load(ordering: .relaxed)
        let completedBefore = engine.completionFrame
        var done = 0
        while done < frameCount {
            let l = left + done, r = right + done
            done += engine.step(maximumFrames: frameCount - done) { n in
                synthesizer.render(left: l, right: r, frameCount: n)
            }
        }
        if engine.completionFrame != completedBefore && engine.completionFrame >= 0 {
            mailbox.isPlaying.store(false, ordering: .releasing)
            mailbox.completionFrame.store(engine.completionFrame, ordering: .releasing)
        }
        mailbox.positionBits.store(engine.position.bitPattern, ordering: .releasing)
    }

    private func applyCommands() {
        while let command = mailbox.commands.pop() {
            switch command.kind {
            case .play: engine.resume()
            case .pause: engine.halt(pausing: true)
            case .stop: engine.halt(pausing: false)
            case .seek(let plan):
                let seek = plan.takeUnretainedValue()
                engine.seek(toFrame: seek.frame, chase: seek.chase)
            case .rate(let rate): engine.rate = rate
            case .loopJumps(let jumps): engine.setLoopJumps(jumps)
            case .maximumTail(let seconds): engine.maximumTail = seconds
            }
            mailbox.appliedCommandSerial.store(command.serial, ordering: .releasing)
        }
    }

    /// Switches to the latest published plan, if there is a new one.
    private func adoptPublishedPlan() {
        guard let raw = mailbox.pendingPlan.exchange(nil, ordering: .acquiringAndReleasing) else { return }
        let plan = Unmanaged<PlaybackPlan>.fromOpaque(raw).takeUnretainedValue()
        engine.adopt(plan)
        mailbox.planGeneration.store(plan.generation, ordering: .releasing)
    }
}
