/// What a zone built in code plays beyond SoundFont 2 (SFZ instruments, with sfizz's designs):
/// a filter of another shape in place of the SF2 low-pass, envelopes of sfizz's shape moving
/// the pitch and the cutoff beside the SF2 modulation envelope, LFOs of any of sfizz's
/// waves on the volume, pitch and cutoff, the level's tracking of velocity, key and controllers,
/// and a stereo sample's placement. SF2 files carry it in a private chunk other readers skip
/// (see ``SoundFont/serialized()``).
public struct VoiceShaping: Hashable, Sendable {
    /// What the voice works out at its note-on from the velocity, the controllers and a random
    /// draw (SFZ `ampeg_*` with their `vel2*` and `_onccN` forms, `delay`, `offset_random`), nil
    /// for nothing. Not counted by ``isEmpty``, which speaks of the sound's shaping over time.
    public var noteStart: NoteStartShape?
    /// The filter played in place of the SF2 low-pass, nil for the SF2 one.
    public var filter: FilterShape?
    /// An envelope adding its depth in cents to the pitch (SFZ `pitcheg_*`).
    public var pitchEnvelope: ModulationEnvelopeShape?
    /// An envelope adding its depth in cents to the shaped filter's cutoff (SFZ `fileg_*`).
    public var filterEnvelope: ModulationEnvelopeShape?
    /// An LFO adding its depth in dB to the volume (SFZ `amplfo_*`).
    public var volumeLFO: LFOShape?
    /// An LFO adding its depth in cents to the pitch (SFZ `pitchlfo_*`).
    public var pitchLFO: LFOShape?
    /// An LFO adding its depth in cents to the shaped filter's cutoff (SFZ `fillfo_*`).
    public var filterLFO: LFOShape?
    /// A filter run after ``filter`` (SFZ `fil2_type`, `cutoff2` …), nil for none.
    public var secondFilter: FilterShape?
    /// Equaliser bands run after the filters (SFZ `eq1_*` … `eq3_*`; at most three play).
    public var equalizers: [EqualizerBandShape] = []
    /// Controllers moving the filters and equaliser bands, and the voice's volume, pan and
    /// pitch, through a curve, smoothed and stepped (SFZ `cutoff_onccN`, `cutoff_curveccN`,
    /// `cutoff_smoothccN`, `cutoff_stepccN`, `volume_curveccN`, `bend_smooth` …).
    public var controllerModulations: [ControllerModulationShape] = []
    /// LFOs of sums of waves sent to any of the voice's targets (SFZ `lfoN_*`; at most
    /// ``RoutedLFOShape/voiceLimit``).
    public var routedLFOs: [RoutedLFOShape] = []
    /// Envelopes through points sent to any of the voice's targets, one of them perhaps its
    /// amplitude envelope (SFZ `egN_*`; at most ``FlexEnvelopeShape/voiceLimit``).
    public var flexEnvelopes: [FlexEnvelopeShape] = []
    /// The level's tracking of velocity, key and controllers, crossfades, gain above 0 dB.
    public var amplitude: AmplitudeShape?
    /// Where one side of a stereo sample plays (`width`, `position`).
    public var stereo: StereoShape?

    /// Shaping with the given parts.
    public init(filter: FilterShape? = nil, pitchEnvelope: ModulationEnvelopeShape? = nil,
                filterEnvelope: ModulationEnvelopeShape? = nil, volumeLFO: LFOShape? = nil,
                pitchLFO: LFOShape? = nil, filterLFO: LFOShape? = nil) {
        self.filter = filter
        self.pitchEnvelope = pitchEnvelope
        self.filterEnvelope = filterEnvelope
        self.volumeLFO = volumeLFO
        self.pitchLFO = pitchLFO
        self.filterLFO = filterLFO
    }

    /// True when nothing is set.
    public var isEmpty: Bool {
        filter == nil && pitchEnvelope == nil && filterEnvelope == nil && volumeLFO == nil && pitchLFO == nil
            && filterLFO == nil && secondFilter == nil && equalizers.isEmpty && controllerModulations.isEmpty
            && routedLFOs.isEmpty && flexEnvelopes.isEmpty && amplitude == nil && stereo == nil
    }
}

/// An LFO of sfizz's: one of its waves at `frequency` Hz, starting at phase 0 after `delay`
/// seconds and fading in linearly over `fade` seconds; its output (−1…1, the pulses 0…1)
/// scales `depth`.
public struct LFOShape: Hashable, Sendable {
    /// sfizz's waves (its numbering), the sine its parabolic approximation; sample-and-hold
    /// holds a random value (−1…1) for each half cycle, and only ``RoutedLFOShape`` plays it.
    public enum Wave: UInt8, Hashable, Sendable {
        case triangle = 0, sine = 1, pulse75 = 2, square = 3, pulse25 = 4, pulse12_5 = 5, ramp = 6, saw = 7
        case sampleAndHold = 12
    }

    public var wave: Wave
    /// Cycles per second.
    public var frequency: Float
    /// The target's unit (dB, cents) at full output.
    public var depth: Float
    /// Seconds before it starts.
    public var delay: Float
    /// Seconds it takes to reach full depth after the delay.
    public var fade: Float

    /// An LFO of `wave` at `frequency` Hz moving its target by `depth`.
    public init(_ wave: Wave, frequency: Float, depth: Float, delay: Float = 0, fade: Float = 0) {
        self.wave = wave
        self.frequency = frequency
        self.depth = depth
        self.delay = delay
        self.fade = fade
    }
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
