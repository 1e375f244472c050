/// What a zone built in code plays beyond SoundFont 2 (SFZ instruments, with sfizz's designs):
/// a filter of another shape in place of the SF2 low-pass, and envelopes of sfizz's shape
/// moving the pitch and the cutoff beside the SF2 modulation envelope. Never read from or
/// written to an SF2 file.
public struct VoiceShaping: Hashable, Sendable {
    /// The filter played in place of the SF2 low-pass, nil for the SF2 one.
    public var filter: FilterShape?
    /// An envelope adding its depth in cents to the pitch (SFZ `pitcheg_*`).
    public var pitchEnvelope: ModulationEnvelopeShape?
    /// An envelope adding its depth in cents to the shaped filter's cutoff (SFZ `fileg_*`).
    public var filterEnvelope: ModulationEnvelopeShape?

    /// Shaping with the given parts.
    public init(filter: FilterShape? = nil, pitchEnvelope: ModulationEnvelopeShape? = nil,
                filterEnvelope: ModulationEnvelopeShape? = nil) {
        self.filter = filter
        self.pitchEnvelope = pitchEnvelope
        self.filterEnvelope = filterEnvelope
    }

    /// True when nothing is set.
    public var isEmpty: Bool { filter == nil && pitchEnvelope == nil && filterEnvelope == nil }
}

/// An envelope of sfizz's shape: after `delay`, a linear attack from `start` to full, a hold,
/// a decay towards `sustain` and (after note-off) a release that each multiply the level by
/// e^−9 over their time; the level scales `depth`. Times in seconds, levels 0…1, velocity
/// terms added at full velocity (scaled by velocity/127).
public struct ModulationEnvelopeShape: Hashable, Sendable {
    public var delay: Float = 0
    public var start: Float = 0
    public var attack: Float = 0
    public var hold: Float = 0
    public var decay: Float = 0
    public var sustain: Float = 1
    public var release: Float = 0
    /// Cents at full level.
    public var depth: Float = 0
    public var velocityToDelay: Float = 0
    public var velocityToAttack: Float = 0
    public var velocityToHold: Float = 0
    public var velocityToDecay: Float = 0
    public var velocityToSustain: Float = 0
    public var velocityToRelease: Float = 0
    public var velocityToDepth: Float = 0

    /// An envelope of `depth` cents that holds at full level (set the stages to shape it).
    public init(depth: Float = 0) {
        self.depth = depth
    }
}
