import PolyphonSynth

/// When a song's render is over — the one rule the offline renderer and the player share, so a
/// bounce and a live play end on the same frame.
///
/// After the song's last event the tail is rendered in steps of the engine's control period
/// (``Synthesizer/controlPeriod``), counted from where the tail begins, and the render ends at
/// the first step boundary where every voice has ended and the effects are silent, or once the
/// tail reaches ``maximumFrames`` past the last event. The tail begins on the frame after the
/// last event when that frame carries events (so they are heard), else on the last event's
/// frame itself.
struct RenderTail {
    /// Frames after the last event that the tail may last at most.
    let maximumFrames: Int64

    init(maximumSeconds: Double, sampleRate: Double) {
        maximumFrames = Int64(max(0, maximumSeconds) * sampleRate)
    }

    private static var step: Int64 { Int64(Synthesizer.controlPeriod) }

    /// Whether the render is over `elapsed` frames into the tail, which began `lead` frames
    /// after the last event; `silent` says whether the synthesizer is idle and its effects
    /// silent (asked only at step boundaries).
    func isOver(elapsed: Int64, lead: Int64, silent: () -> Bool) -> Bool {
        lead + elapsed >= maximumFrames || (elapsed % Self.step == 0 && silent())
    }

    /// Frames to render next `elapsed` frames into the tail: up to the next step boundary or
    /// the maximum, at most `limit`.
    func nextStep(elapsed: Int64, lead: Int64, limit: Int) -> Int {
        Int(min(Self.step - elapsed % Self.step, maximumFrames - lead - elapsed, Int64(limit)))
    }
}
