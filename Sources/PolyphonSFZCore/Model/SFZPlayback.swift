/// How a region plays its sample: what it plays, where it starts and ends, how it loops, and
/// how long after the note it starts.
///
/// Positions are in sample frames of the file. `end` and `loop_end` name the *last* frame
/// played (SFZ counts them inclusively), so a loop over a whole 1000-frame sample is
/// `loop_start=0 loop_end=999`.
public struct SFZPlayback: Hashable, Sendable {
    /// `sample`: the file (with `default_path`) or generator; nil when the region names none.
    public var sample: SFZSampleSource?
    /// `direction=reverse`: the sample plays backwards.
    public var isReversed = false
    /// `offset`: the first frame played.
    public var offset = 0
    /// `offset_random`: up to this many frames added at random per note.
    public var offsetRandom = 0
    /// `offset_onccN`: frames added at full controller value.
    public var offsetControllers: [SFZControllerInput] = []
    /// `end`: the last frame played; nil plays to the end of the sample. `end=0` silences the
    /// region (sfizz), and the reader skips it.
    public var end: Int?
    /// `end_onccN`: frames added to the end at full controller value.
    public var endControllers: [SFZControllerInput] = []
    /// `count`: times the sample plays (the region becomes one-shot).
    public var count: Int?
    /// `loop_mode` (`loopmode`); nil leaves it to the sample: `loop_continuous` when the file
    /// has a loop, `one_shot` for release triggers, else `no_loop`.
    public var loopMode: SFZLoopMode?
    /// `loop_start` (`loopstart`); nil takes the file's loop start, or 0.
    public var loopStart: Int?
    /// `loop_end` (`loopend`), the loop's last frame; nil takes the file's loop, or the end.
    public var loopEnd: Int?
    /// `loop_start_onccN` (`loop_startccN`): frames added at full controller value.
    public var loopStartControllers: [SFZControllerInput] = []
    /// `loop_end_onccN` (`loop_lengthccN`): frames added at full controller value.
    public var loopEndControllers: [SFZControllerInput] = []
    /// `loop_count`: times the loop repeats before playing on (nil: until released).
    public var loopCount: Int?
    /// `loop_crossfade`: seconds of crossfade at the loop's seam (sfizz's minimum, 1 ms).
    public var loopCrossfade: Float = 0.001
    /// `delay` in seconds before the region sounds, and `delay_onccN`.
    public var delay = SFZModulatedValue(0)
    /// `delay_random`: up to this many seconds added at random per note.
    public var delayRandom: Float = 0
    /// `sample_quality`: interpolation quality 0–10 (nil: the synthesizer's).
    public var quality: Int?
    /// `oscillator*`: the sample played as a wavetable.
    public var oscillator = SFZOscillator()

    /// Nothing to play yet.
    public init() {}
}

/// `loop_mode` values.
public enum SFZLoopMode: String, Hashable, Sendable, CaseIterable {
    /// Play once from offset to end, stopping early when released.
    case noLoop = "no_loop"
    /// Play once to the end whatever the key does (the envelope's release is ignored).
    case oneShot = "one_shot"
    /// Loop for as long as the region sounds, through the release.
    case continuous = "loop_continuous"
    /// Loop while the key is held, then play on to the end.
    case sustain = "loop_sustain"
}

/// The wavetable oscillator opcodes (`oscillator`, `oscillator_phase` …): a sample, or a
/// generator, played as a single cycle.
public struct SFZOscillator: Hashable, Sendable {
    /// `oscillator`: `auto` (a file sample of at most 3000 frames is a wavetable), `on`, `off`.
    public var mode: Mode = .automatic
    /// `oscillator_phase`, 0…1; negative: a random phase per note.
    public var phase: Float = 0
    /// `oscillator_mode`: 0 plain, 1 ring modulation, 2 frequency modulation.
    public var modulation = 0
    /// `oscillator_multi`: 1–9 detuned copies (unison).
    public var voices = 1
    /// `oscillator_detune` in cents between copies, and `oscillator_detune_onccN`.
    public var detune = SFZModulatedValue(0)
    /// `oscillator_mod_depth` in percent, and `oscillator_mod_depth_onccN`.
    public var modulationDepth = SFZModulatedValue(0)
    /// `oscillator_quality` 0–3 (nil: the synthesizer's).
    public var quality: Int?

    /// `oscillator=` values.
    public enum Mode: String, Hashable, Sendable {
        case automatic = "auto", on, off
    }

    /// The defaults.
    public init() {}
}
