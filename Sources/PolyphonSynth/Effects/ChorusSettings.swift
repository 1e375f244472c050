/// The parameters of the ``Chorus``, with FluidSynth 2.3's meaning, ranges and defaults.
///
/// FluidSynth's settings `synth.chorus.nr`, `.level`, `.speed` and `.depth` map one to one onto
/// these properties. Out-of-range values are clamped by the chorus, never trapped on.
public struct ChorusSettings: Sendable, Hashable {
    /// The shape of the delay modulation of each chorus voice.
    public enum Waveform: Sendable, Hashable {
        /// A sine LFO (FluidSynth's default, `FLUID_CHORUS_MOD_SINE`).
        case sine
        /// A triangle LFO: constant pitch shift that flips sign at the turning points.
        case triangle
    }

    /// Number of chorus voices (delayed, modulated copies), 0…99; 0 silences the chorus.
    public var voiceCount: Int = 3
    /// Output level, 0…10 (linear, as FluidSynth's `synth.chorus.level`).
    public var level: Double = 2.0
    /// LFO rate in Hz, 0.1…5.
    public var speed: Double = 0.3
    /// Peak-to-peak delay swing in milliseconds, 0…256: each voice's delay sweeps from about
    /// 0 ms to `depth` ms, as measured on FluidSynth 2.3.1.
    public var depth: Double = 8.0
    /// LFO shape.
    public var waveform: Waveform = .sine

    /// Creates settings; every argument defaults to FluidSynth 2.3's default.
    public init(voiceCount: Int = 3, level: Double = 2.0, speed: Double = 0.3, depth: Double = 8.0,
                waveform: Waveform = .sine) {
        self.voiceCount = voiceCount
        self.level = level
        self.speed = speed
        self.depth = depth
        self.waveform = waveform
    }

    /// The largest depth the chorus accepts (FluidSynth's `synth.chorus.depth` maximum), in ms.
    public static let maximumDepth: Double = 256
    /// The largest voice count (FluidSynth's `synth.chorus.nr` maximum).
    public static let maximumVoiceCount = 99

    /// The settings clamped into their documented ranges; NaN falls back to the default.
    var clamped: ChorusSettings {
        ChorusSettings(
            voiceCount: Swift.min(Swift.max(voiceCount, 0), Self.maximumVoiceCount),
            level: level.effectClamped(to: 0...10, default: 2.0),
            speed: speed.effectClamped(to: 0.1...5, default: 0.3),
            depth: depth.effectClamped(to: 0...Self.maximumDepth, default: 8.0),
            waveform: waveform)
    }

    /// Settings for a Roland GS chorus macro (GS parameter 40 01 38), 0…7. Values outside 0…7
    /// give Chorus 3, a GS module's default.
    ///
    /// FluidSynth ignores GS chorus macros; these values are our choice, after the rate and
    /// depth a Sound Canvas uses for each macro. This chorus has no feedback or pre-delay
    /// control, so the feedback and delay macros are approximated by depth and voice count:
    ///
    /// | type | GS name | voices | level | speed | depth |
    /// |---|---|---|---|---|---|
    /// | 0 | Chorus 1 | 3 | 1.2 | 0.40 Hz | 4 ms |
    /// | 1 | Chorus 2 | 3 | 1.2 | 1.10 Hz | 3 ms |
    /// | 2 | Chorus 3 | 3 | 2.0 | 0.40 Hz | 8 ms |
    /// | 3 | Chorus 4 | 4 | 2.0 | 0.40 Hz | 12 ms |
    /// | 4 | Feedback Chorus | 5 | 2.0 | 0.40 Hz | 10 ms |
    /// | 5 | Flanger | 1 | 2.0 | 0.30 Hz | 2 ms |
    /// | 6 | Short Delay | 1 | 1.5 | 0.10 Hz | 1 ms |
    /// | 7 | Short Delay (FB) | 2 | 1.5 | 0.10 Hz | 1 ms |
    public static func gs(type: Int) -> ChorusSettings {
        switch type {
        case 0: ChorusSettings(voiceCount: 3, level: 1.2, speed: 0.40, depth: 4)
        case 1: ChorusSettings(voiceCount: 3, level: 1.2, speed: 1.10, depth: 3)
        case 3: ChorusSettings(voiceCount: 4, level: 2.0, speed: 0.40, depth: 12)
        case 4: ChorusSettings(voiceCount: 5, level: 2.0, speed: 0.40, depth: 10)
        case 5: ChorusSettings(voiceCount: 1, level: 2.0, speed: 0.30, depth: 2)
        case 6: ChorusSettings(voiceCount: 1, level: 1.5, speed: 0.10, depth: 1)
        case 7: ChorusSettings(voiceCount: 2, level: 1.5, speed: 0.10, depth: 1)
        default: ChorusSettings(voiceCount: 3, level: 2.0, speed: 0.40, depth: 8)
        }
    }
}
