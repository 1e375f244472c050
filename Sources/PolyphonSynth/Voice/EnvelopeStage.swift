/// The stages every envelope of a voice passes through, in order. SF2's volume and modulation
/// envelopes and SFZ's shaped ones (``VolumeEnvelope``, ``ModulationEnvelope``,
/// ``ShapedEnvelope``) differ only in the curve each stage draws and how its time is counted.
enum EnvelopeStage: UInt8 {
    case delay, attack, hold, decay, sustain, release, finished

    /// True while the envelope's value holds still until a note-off (the sustain) or for good.
    var isSteady: Bool { self == .sustain || self == .finished }
}
