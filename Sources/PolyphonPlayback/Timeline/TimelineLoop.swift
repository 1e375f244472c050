import PolyphonMIDI

/// A loop on a timeline's frames: where the playback engine jumps back from and to, and what it
/// sends at the jump so every pass begins in the state the first began in.
public struct TimelineLoop: Sendable, Hashable {
    /// The first frame of the loop.
    public let startFrame: Int64
    /// The frame the loop jumps back from: the first frame after it.
    public let endFrame: Int64
    /// The song's mark the loop comes from, in ticks (`nil` for a range set in beats).
    public let marked: MIDILoop?
    /// Sent at every jump (``Timeline/restore(loopFrom:to:)``).
    let restore: [ChaseMessage]

    /// The frames of one pass.
    public var length: Int64 { endFrame - startFrame }
}

extension Timeline {
    /// `marked` placed on the timeline's frames (`nil` when the mark lies outside the song or
    /// spans no frame).
    func placed(_ marked: MIDILoop?) -> TimelineLoop? {
        guard let mark = marked, mark.startTick >= 0, mark.endTick > mark.startTick else { return nil }
        let start = Self.frame(seconds: tempoMap.seconds(atTick: mark.startTick), leadIn: leadIn, sampleRate: sampleRate)
        let end = Self.frame(seconds: tempoMap.seconds(atTick: mark.endTick), leadIn: leadIn, sampleRate: sampleRate)
        return loop(from: start, to: min(end, lastEventFrame), marked: mark)
    }

    /// A loop over the beats `range` (fractional beats land on the nearest frame).
    func loop(beats range: Range<Double>) -> TimelineLoop? {
        loop(from: Int64(frame(atBeat: range.lowerBound).rounded()), to: Int64(frame(atBeat: range.upperBound).rounded()),
             marked: nil)
    }

    private func loop(from start: Int64, to end: Int64, marked: MIDILoop?) -> TimelineLoop? {
        guard end > start, start >= 0 else { return nil }
        return TimelineLoop(startFrame: start, endFrame: end, marked: marked, restore: restore(loopFrom: start, to: end))
    }
}
