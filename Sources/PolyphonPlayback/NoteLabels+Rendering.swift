import PolyphonMIDI

extension Timeline {
    /// Every note as a render with `options` plays it, on the frames of its output: the
    /// song's loop passes laid out one after another when ``RenderOptions/loop`` repeats them,
    /// and the notes still sounding where the output ends (a fade-out's end, a loop-ready
    /// file's loop end, ``RenderOptions/length``) ending there. Without a loop or a length these
    /// are ``noteLabels(minimumNoteLength:liftPedalsAtEnd:)``.
    ///
    /// A pass follows the engine's jump: the notes still held at the loop's end are released
    /// there (the sustain pedal holding them as it would), the state the loop began in returns,
    /// and the loop's notes begin again on the frames the audio has them. The labels and the
    /// picture of a `--loops 3` render then show all three passes, not the song as written.
    ///
    /// With ``RenderOptions/trimLeadingSilence``, pass the render's
    /// ``RenderSummary/trimmedFrames``: the labels move earlier by that much, as the audio did
    /// (a note that began in the silence dropped starts at frame 0).
    public func noteLabels(for options: RenderOptions, trimmedFrames: Int64 = 0) -> [NoteLabel] {
        let minimumNoteLength = options.synthesizer.minimumNoteLength
        var labels: [NoteLabel]
        let trimmed = max(0, trimmedFrames)
        // `length` counts output frames, which begin `trimmed` frames into the song.
        var end = options.length.map { Int64((max(0, $0) * options.sampleRate).rounded()) + trimmed } ?? .max
        if let looping = options.loop, let loop, loop.length > 0 {
            let (jumps, outputEnd) = Self.jumps(looping, loop: loop, sampleRate: sampleRate)
            end = min(end, outputEnd)
            let played = Self.unrolled(events, loop: loop, jumps: jumps, to: outputEnd, portCount: portCount)
            let shift = Int64(jumps) * loop.length
            let ordinaryTail = (events.last?.frame ?? -1) >= lastEventFrame ? lastEventFrame + 1 : lastEventFrame
            labels = Self.noteLabels(of: played, lastEventFrame: min(lastEventFrame + shift, outputEnd),
                                     tailStart: min(ordinaryTail + shift, outputEnd), portCount: portCount,
                                     sampleRate: sampleRate, minimumNoteLength: minimumNoteLength,
                                     liftPedalsAtEnd: options.liftPedalsAtEnd)
        } else {
            labels = noteLabels(minimumNoteLength: minimumNoteLength, liftPedalsAtEnd: options.liftPedalsAtEnd)
        }
        guard end < .max || trimmed > 0 else { return labels }
        // The output ends at `end`: what starts later is not heard, what sounds on ends with
        // it. It begins at `trimmed`.
        return labels.compactMap { label in
            guard label.onsetFrame < end, label.offsetFrame > trimmed || label.onsetFrame >= trimmed else { return nil }
            var cut = label
            cut.onsetFrame = max(0, label.onsetFrame - trimmed)
            cut.offsetFrame = min(label.offsetFrame, end) - trimmed
            cut.onsetSeconds = Double(cut.onsetFrame) / sampleRate
            cut.offsetSeconds = Double(cut.offsetFrame) / sampleRate
            return cut
        }
    }

    /// How many times the engine jumps back for a loop render, and the engine frame its output
    /// ends on (`Int64.max`: the song's own end and tail).
    private static func jumps(_ looping: LoopRendering, loop: TimelineLoop, sampleRate: Double) -> (Int, Int64) {
        switch looping {
        case .passes(let passes):
            return (max(0, passes - 1), .max)
        case .loopReady:
            return (1, loop.startFrame + 2 * loop.length)
        case .fadeOut(let passes, let seconds):
            // The engine loops on until the fade ends: the passes that begin before it.
            let end = loop.startFrame + Int64(max(1, passes)) * loop.length + Int64((max(0, seconds) * sampleRate).rounded())
            let begun = (end - loop.startFrame + loop.length - 1) / loop.length
            return (Int(max(0, begun - 1)), end)
        }
    }

    /// The events as the engine sends them with `jumps` jumps back from the loop's end: the
    /// song up to the loop's end, then at each jump all notes off (the engine's release of the
    /// notes still held) and the state the loop began in, and the loop's events again; after
    /// the last pass, the rest of the song. Nothing from `end` on. A song's notes, which carry
    /// their note-off, get it as an event of its own.
    private static func unrolled(_ events: [Event], loop: TimelineLoop, jumps: Int, to end: Int64,
                                 portCount: Int) -> [Event] {
        let events = withNoteOffs(events)
        var played = events.filter { $0.frame < loop.endFrame }
        let inLoop = events.filter { $0.frame >= loop.startFrame && $0.frame < loop.endFrame }
        var jump = 0
        while jump < jumps {
            let jumpFrame = loop.endFrame + Int64(jump) * loop.length
            if jumpFrame >= end { return played }
            for channel in 0..<16 * max(1, portCount) {
                played.append(Event(frame: jumpFrame, port: channel / 16,
                                    message: .controlChange(channel: UInt8(channel % 16), controller: 123, value: 0)))
            }
            played += loop.restore.map { Event(frame: jumpFrame, port: $0.port, message: $0.message) }
            played += inLoop.map { var e = $0; e.frame += jumpFrame - loop.startFrame; return e }
            jump += 1
        }
        let shift = Int64(jumps) * loop.length
        played += events.filter { $0.frame >= loop.endFrame && $0.frame + shift < end }.map {
            var e = $0
            e.frame += shift
            return e
        }
        return played
    }

    /// `events` with a note-off for each song note that carries its end (a file's timeline has
    /// its note-offs already and comes back as it is).
    static func withNoteOffs(_ events: [Event]) -> [Event] {
        guard events.contains(where: { $0.noteEnd != nil }) else { return events }
        var all: [(frame: Int64, order: Int, event: Event)] = []
        for (i, e) in events.enumerated() {
            all.append((e.frame, 2 * i + 1, e))
            guard let end = e.noteEnd, case .noteOn(let channel, let key, _) = e.message else { continue }
            // The engine releases a note that ends on a frame before it sends that frame's later
            // events (a zero-length note after its own note-on).
            all.append((end.frame, 2 * i + 2, Event(frame: end.frame, track: e.track, port: e.port,
                                            message: .noteOff(channel: channel, note: key, velocity: end.releaseVelocity))))
        }
        return all.sorted { ($0.frame, $0.order) < ($1.frame, $1.order) }.map(\.event)
    }
}
