/// A region's playback settled against its sample file, as sfizz settles it when it loads an
/// instrument: the end clamped to the file, the loop taken from the file when the SFZ gives
/// none, the loop mode defaulted, the keycenter read from the file for `pitch_keycenter=sample`.
public struct SFZResolvedPlayback: Hashable, Sendable {
    /// The first frame played (before `offset_random` and controllers).
    public var offset: Int
    /// The last frame played.
    public var end: Int
    /// How the region loops.
    public var loopMode: SFZLoopMode
    /// The loop's first and last frame (meaningful when ``loopMode`` loops).
    public var loop: SFZRange<Int>
    /// The key at which the sample plays at its recorded pitch.
    public var keycenter: UInt8
    /// Frames per second of the sample (0 for a generator).
    public var sampleRate: Double

    /// Whether the region loops at all.
    public var loops: Bool { loopMode == .continuous || loopMode == .sustain }
}

extension SFZRegion {
    /// The playback of this region over a sample described by `sample` (nil for a generator,
    /// which loops its single cycle).
    ///
    /// - `end` is clamped to the file's last frame;
    /// - the loop is the SFZ's `loop_start`/`loop_end`, else the file's loop, else 0 … end;
    /// - without `loop_mode`: `loop_continuous` when the file has a loop, `one_shot` for
    ///   release triggers, else `no_loop`; a loop whose start lies after its end plays
    ///   `no_loop` (sfizz drops the loop mode then, whatever was written);
    /// - `pitch_keycenter=sample` takes the file's root key (60 when it has none).
    public func resolvedPlayback(sample: SFZSampleMetadata?) -> SFZResolvedPlayback {
        guard let sample else {
            return SFZResolvedPlayback(offset: 0, end: 0, loopMode: .continuous, loop: SFZRange(0, 0),
                                       keycenter: pitch.keycenter, sampleRate: 0)
        }
        let lastFrame = max(sample.frameCount - 1, 0)
        let end = min(max(playback.end ?? Int(Int32.max), 0), lastFrame)
        var mode = playback.loopMode
        var loopStart = playback.loopStart ?? 0
        var loopEnd = playback.loopEnd ?? end
        if let fileLoop = sample.loop {
            if playback.loopStart == nil { loopStart = fileLoop.lower }
            if playback.loopEnd == nil { loopEnd = min(fileLoop.upper, lastFrame) }
            if mode == nil { mode = .continuous }
        }
        if trigger.isRelease && mode == nil { mode = .oneShot }
        loopStart = min(max(loopStart, 0), end)
        loopEnd = min(max(loopEnd, 0), end)
        if loopStart > loopEnd { mode = nil }
        let keycenter = pitch.keycenterFromSample ? (sample.rootKey ?? 60) : pitch.keycenter
        return SFZResolvedPlayback(offset: max(playback.offset, 0), end: end, loopMode: mode ?? .noLoop,
                                   loop: SFZRange(loopStart, loopEnd), keycenter: keycenter,
                                   sampleRate: sample.sampleRate)
    }
}
