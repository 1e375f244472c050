/// An SFZ v1 envelope generator — `ampeg_*` (amplitude), `pitcheg_*`, `fileg_*` — with
/// delay, start level, attack, hold, decay, sustain and release, their velocity and controller
/// modifiers, and (for pitch and filter) the depth it moves its target by.
public struct SFZEnvelope: Hashable, Sendable {
    /// `*_delay`, seconds before the attack.
    public var delay: Float = 0
    /// `*_start`: the level the attack starts from, percent.
    public var start: Float = 0
    /// `*_attack`, seconds.
    public var attack: Float = 0
    /// `*_hold`, seconds at the peak.
    public var hold: Float = 0
    /// `*_decay`, seconds.
    public var decay: Float = 0
    /// `*_sustain`, percent of the peak (100).
    public var sustain: Float = 100
    /// `*_release`, seconds (the amplitude envelope's default is sfizz's 1 ms).
    public var release: Float = 0
    /// `*_vel2delay` (`*_veltodelay`) … `*_vel2release`: seconds (percent for sustain) added at
    /// full velocity, by stage.
    public var velocityModifiers: [SFZEnvelopeStage: Float] = [:]
    /// `*_delay_onccN`, `*_attack_curveccN` …: controllers adding to a stage (seconds or
    /// percent at full scale).
    public var controllerModifiers: [SFZEnvelopeControllerModifier] = []
    /// `pitcheg_depth` (cents) / `fileg_depth` (cents), and `*_depth_onccN`. Unused by
    /// `ampeg`.
    public var depth = SFZModulatedValue(0)
    /// `pitcheg_vel2depth` / `fileg_vel2depth`: cents added to the depth at full velocity.
    public var velocityToDepth: Float = 0
    /// `*_dynamic`: stage times follow controller changes while the note plays.
    public var isDynamic = false

    /// An envelope with SFZ's defaults (all stages 0 s, sustain 100 %).
    public init() {}

    /// The amplitude envelope's defaults: as ``init()`` with a 1 ms release (sfizz).
    public static var amplitudeDefault: SFZEnvelope {
        var envelope = SFZEnvelope()
        envelope.release = 0.001
        return envelope
    }
}

/// A stage of an SFZ v1 envelope.
public enum SFZEnvelopeStage: String, Hashable, Sendable, CaseIterable {
    case delay, start, attack, hold, decay, sustain, release
}

/// A controller changing one stage of an envelope (`ampeg_attack_oncc1=2`: controller 1 adds
/// up to 2 s to the attack).
public struct SFZEnvelopeControllerModifier: Hashable, Sendable {
    /// The stage changed.
    public var stage: SFZEnvelopeStage
    /// The controller, its depth (seconds, or percent for start and sustain) and curve.
    public var input: SFZControllerInput

    /// `input` changing `stage`.
    public init(stage: SFZEnvelopeStage, input: SFZControllerInput) {
        self.stage = stage
        self.input = input
    }
}
