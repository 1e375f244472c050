/// How sample points between stored values are computed.
public enum Interpolation: String, Sendable, CaseIterable {
    /// Two-point linear interpolation: cheapest, audible aliasing and dulling on transposed notes.
    case linear
    /// Four-point cubic (FluidSynth's default, `interpolation 4`).
    case cubic
    /// Eight-point windowed sinc (FluidSynth offers a 7-point one): the cleanest at high
    /// transpositions.
    case sinc
}

/// How bank-select controllers (CC0 MSB, CC32 LSB) choose a SoundFont bank.
public enum BankSelectMode: String, Sendable, CaseIterable {
    /// General MIDI: bank selects are ignored; channel 10 plays bank 128.
    case gm
    /// Roland GS: the MSB is the bank, the LSB is ignored.
    case gs
    /// Yamaha XG: MSB 127 (and 126) selects drums (bank 128), otherwise the LSB is the bank.
    case xg
    /// MMA: bank = MSB × 128 + LSB.
    case mma
}

/// Which voice gives way when a new note needs one and all are busy.
public enum VoiceStealing: String, Sendable, CaseIterable {
    /// Released voices first, then the quietest and oldest (FluidSynth-like).
    case quietestOldest
    /// The oldest voice, whatever its state (the seed's SoundBankPlayer).
    case oldest
}

/// What the default velocity → filter cutoff modulator (SF2 2.04 §8.4.2) does.
public enum VelocityToFilterMode: String, Sendable, CaseIterable {
    /// FluidSynth's behaviour: the default contributes 0, but a bank's modulator identical to it
    /// counts with its own amount (an instrument's replaces the 0, a preset's adds to it): that
    /// is how SoundFont designers turn velocity filtering on. FluidSynth's own variant of the
    /// default (velocity switch as amount source) contributes 0 wherever it appears.
    case fluidSynth
    /// The letter of the spec: up to −2400 cents of cutoff at low velocities.
    case specification
}

/// Everything about a ``Synthesizer`` that is fixed when it is created.
public struct SynthesizerConfiguration: Sendable, Hashable {
    /// Maximum number of voices sounding at once; further notes steal voices.
    public var polyphony: Int = 256
    /// How a voice is chosen when polyphony is exhausted.
    public var voiceStealing: VoiceStealing = .quietestOldest
    public var interpolation: Interpolation = .cubic
    /// MIDI channels (16 per port; 32 or more for multi-port files).
    public var channelCount: Int = 16
    /// Output gain with FluidSynth's `synth.gain` meaning: `0.2` matches FluidSynth's default level.
    public var gain: Float = 0.2

    /// How much louder FluidSynth plays a voice than sample × gain × pan × attenuation, with
    /// the SF2 2.04 source mapping of FluidSynth 2.6 (velocity 127, CC7 127 and CC11 127 add no
    /// attenuation): 1.1905 (+1.51 dB) whatever the gain, key, filter or sample level. The
    /// engine applies it so that `gain` means exactly what FluidSynth's does. FluidSynth 2.3.1
    /// measured 1.1357 on the same full-velocity, full-volume, hard-panned sine: its mapping
    /// left 1.36 cB on each of the three sources (0.41 dB), which 2.6 took away.
    public static let fluidSynthLevelFactor: Float = 1.1905
    public var bankSelectMode: BankSelectMode = .gs
    public var velocityToFilter: VelocityToFilterMode = .fluidSynth
    /// Channels that play percussion (bank 128) from the start; GM's channel 10 is index 9.
    public var percussionChannels: Set<Int> = [9]
    /// Render effect buses (reverb, chorus). When false the dry path is all there is.
    public var reverbEnabled: Bool = true
    public var chorusEnabled: Bool = true
    /// Reverb parameters (FluidSynth 2.3's meaning and defaults).
    public var reverb = ReverbSettings()
    /// Chorus parameters (FluidSynth 2.3's meaning and defaults).
    public var chorus = ChorusSettings()
    /// Keep each channel's output (with its own effect sends) apart as well as the mix, for
    /// stems. Costs a bus and, when effects are on, effect units per channel.
    public var channelOutputs = false
    /// Instead of one bus per channel: this many output buses, each note going to the bus its
    /// note-on names (`outputBus:`), e.g. one per track for track stems. Overrides
    /// ``channelOutputs`` when set.
    public var outputBusCount: Int? = nil
    /// Starts the synthesizer with ``Synthesizer/channelLevelMetering`` on: each channel's level
    /// is measured as it renders (read only; the samples do not change).
    public var channelLevelMetering = false
    /// The shortest a note sounds before its release begins, in seconds (FluidSynth's
    /// `synth.min-note-length`, 10 ms by default; 0 turns it off). Drum tracks hold notes for
    /// 1–3 ms, which the SoundFont rules alone would release before their attack is heard. Applied
    /// per voice, from the voice's start, in whole control periods as FluidSynth's 64-frame
    /// blocks do: at 44.1 kHz a note released earlier releases 448 frames after it started.
    public var minimumNoteLength: Double = 0.010
    /// Play as FluidSynth does where the SoundFont text leaves room, for renders meant to match
    /// it: pitch in whole cents rounded down (FluidSynth's cents-to-hertz table drops the
    /// fraction), envelope stage times counted in whole 64-frame blocks, LFO delays ended on a
    /// block, and a resonant filter's cutoff following its modulators over up to five blocks, as
    /// FluidSynth 2.6 does (`FluidSynthBlockTiming`). Off (the default), pitch is exact to a
    /// fraction of a cent, stage times and delays exact to the frame and the cutoff follows at
    /// once, as the SoundFont text gives them. On, with events placed where FluidSynth's file
    /// player plays them (`polyphon render --align-to-fluidsynth`), a render comes as close to
    /// FluidSynth 2.6's as Polyphon gets.
    public var fluidSynthCompatible = false
    /// The former name of ``fluidSynthCompatible``, from when it timed envelopes and filters alone.
    @available(*, deprecated, renamed: "fluidSynthCompatible")
    public var fluidSynthBlockTiming: Bool {
        get { fluidSynthCompatible }
        set { fluidSynthCompatible = newValue }
    }
    /// The tuning melodic channels play in when nothing selects another — at the start and after
    /// every GM, GS or XG reset (nil: twelve-tone equal temperament). Percussion channels stay in
    /// equal temperament: a drum kit's keys name instruments, not pitches. MIDI Tuning Standard
    /// messages and ``Synthesizer/selectTuning(program:bank:onChannel:atFrame:)`` choose others.
    public var tuning: Tuning? = nil
    /// Tuning programs (MIDI Tuning Standard bulk dumps, note changes, ``Synthesizer/setTuning(_:program:bank:retuningSoundingNotes:)``)
    /// a synthesizer holds at once, in memory reserved when it is created (512 bytes each);
    /// further programs are ignored. The standard addresses up to 128 × 128.
    public var tuningProgramCapacity: Int = 64
    /// This synthesizer's system-exclusive device ID: MIDI Tuning Standard messages addressed to
    /// it or to every device (`7F`) apply, others are ignored. FluidSynth's default is 0 too.
    public var deviceID: UInt8 = 0
    /// Capacity of the queue of events scheduled into the next render call.
    public var eventQueueCapacity: Int = 8192

    public init() {}

    public init(polyphony: Int = 256, interpolation: Interpolation = .cubic, channelCount: Int = 16,
                gain: Float = 0.2, bankSelectMode: BankSelectMode = .gs) {
        self.polyphony = polyphony
        self.interpolation = interpolation
        self.channelCount = channelCount
        self.gain = gain
        self.bankSelectMode = bankSelectMode
    }
}

/// Errors creating a synthesizer.
public enum SynthesizerError: Error, CustomStringConvertible, Equatable {
    case unsupportedSampleRate(Double)
    case invalidConfiguration(String)
    /// Every tuning program the synthesizer has room for is defined
    /// (``SynthesizerConfiguration/tuningProgramCapacity``).
    case tuningProgramsExhausted(capacity: Int)

    public var description: String {
        switch self {
        case .unsupportedSampleRate(let r): return "sample rate \(r) Hz is outside 8000–192000 Hz"
        case .invalidConfiguration(let why): return "invalid synthesizer configuration: \(why)"
        case .tuningProgramsExhausted(let capacity): return "all \(capacity) tuning programs are taken"
        }
    }
}
