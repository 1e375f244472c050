import ArgumentParser
import PolyphonAudio
import PolyphonPlayback
import PolyphonSynth

/// The options every offline render shares (`render`, `batch`): sample rate and format, gain,
/// interpolation, effects, tails and the duration limit, parsed once into ``RenderOptions``.
struct SynthesisOptions: ParsableArguments {
    @Option(help: "Sample rate in Hz (8000–192000).")
    var rate: Double = 44100

    @Option(help: "Sample format: 16, 24 or 32f (float). Lossy formats ignore it.")
    var bits: String = "16"

    @Option(help: "Output gain with FluidSynth's meaning (0.2 = FluidSynth's default level).")
    var gain: Float = 0.2

    @Option(help: "Interpolation: linear, cubic or sinc.")
    var interpolation: String = "cubic"

    @OptionGroup var effects: EffectOptions

    @Option(help: "Longest tail after the last event, in seconds.")
    var maxTail: Double = 10

    @OptionGroup var duration: DurationOption

    @Flag(help: "Stop at the last event instead of letting notes ring out.")
    var endAtLastEvent = false

    @Option(help: "Shortest time a note sounds before its release, in ms (FluidSynth's synth.min-note-length; 0: off).")
    var minNoteLength: Double = 10

    @Flag(name: [.customLong("fluidsynth-compatible"), .customLong("fluidsynth-blocks")],
          help: "Play as FluidSynth does where the SoundFont text leaves room: pitch in whole cents rounded down, envelope stages and LFO delays in 64-frame blocks, resonant filters following their cutoff over up to 5 blocks (FluidSynth 2.6). Default: exact pitch, times exact to the frame. --fluidsynth-blocks is the old name.")
    var fluidsynthCompatible = false

    @OptionGroup var tuning: TuningOption

    @Flag(help: "Keep sustain and sostenuto pedals down when the song ends (default: lift them and release every note, as FluidSynth's player does).")
    var keepPedals = false

    func validate() throws {
        if !(8000...192_000).contains(rate) { throw ValidationError("--rate must be 8000–192000") }
        if Interpolation(rawValue: interpolation) == nil {
            throw ValidationError("--interpolation must be linear, cubic or sinc")
        }
        if sampleFormat == nil { throw ValidationError("--bits must be 16, 24 or 32f") }
        if gain < 0 || gain > 10 { throw ValidationError("--gain must be 0–10") }
        if maxTail < 0 { throw ValidationError("--max-tail must be ≥ 0") }
        if !(0...1000).contains(minNoteLength) { throw ValidationError("--min-note-length must be 0–1000 ms") }
    }

    /// The `--bits` sample format.
    var sampleFormat: SampleFormat? {
        switch bits.lowercased() {
        case "16": return .int16
        case "24": return .int24
        case "32f", "32", "float": return .float32
        default: return nil
        }
    }

    /// The render settings these options describe.
    var renderOptions: RenderOptions {
        var options = RenderOptions()
        options.sampleRate = rate
        options.synthesizer.gain = gain
        options.synthesizer.interpolation = Interpolation(rawValue: interpolation) ?? .cubic
        effects.apply(to: &options.synthesizer)
        options.maxTail = maxTail
        options.maxDuration = duration.limit
        options.endAtLastEvent = endAtLastEvent
        options.synthesizer.minimumNoteLength = minNoteLength / 1000
        options.liftPedalsAtEnd = !keepPedals
        options.synthesizer.fluidSynthCompatible = fluidsynthCompatible
        options.synthesizer.tuning = tuning.tuning
        return options
    }
}
