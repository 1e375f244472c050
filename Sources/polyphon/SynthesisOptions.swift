import ArgumentParser
import Foundation
import PolyphonAudio
import PolyphonPlayback
import PolyphonSynth

extension Interpolation: ExpressibleByArgument {}

/// The synthesis options of every command that makes sound (`render`, `batch`, `play`,
/// `synth`): the bank, gain, interpolation, effects and FluidSynth's compatibility settings,
/// declared here once and parsed into a ``SynthesizerConfiguration``.
///
/// The sample rate and the tail are groups of their own (``SampleRateOption``,
/// ``TailOption``) because `play`'s `--rate` is its tempo and `play` has no tail of its own.
struct SynthesisOptions: ParsableArguments {
    @OptionGroup var bank: BankOption

    @Option(help: "Output gain with FluidSynth's meaning (0.2 = FluidSynth's default level), 0–10.")
    var gain: Float = 0.2

    @Option(help: "Interpolation between a sample's points.")
    var interpolation: Interpolation = .cubic

    @OptionGroup var effects: EffectOptions

    @Option(help: "Voices at most (FluidSynth's synth.polyphony), 1–65535; beyond it a new note takes a released voice first, then the quietest and oldest.")
    var polyphony: Int = 256

    @Option(help: "Shortest time a note sounds before its release, in ms (FluidSynth's synth.min-note-length; 0: off).")
    var minNoteLength: Double = 10

    @Option(help: ArgumentHelp("Threads the voices are spread over; the output is the same bytes for any count, and small blocks stay on one thread by themselves. Default: render, every core but the one that encodes and writes the file (at least 1); batch, the cores left over when there are fewer files than cores; play and synth, 1.",
                               valueName: "n"))
    var threads: Int?

    @Flag(help: "Play as FluidSynth does where the SoundFont text leaves room: pitch in whole cents rounded down, envelope stages and LFO delays in 64-frame blocks, resonant filters following their cutoff over up to 5 blocks (FluidSynth 2.6). Default: exact pitch, times exact to the frame.")
    var fluidsynthCompatible = false

    /// The former name of `--fluidsynth-compatible`, from when it timed envelopes and filters
    /// alone: still accepted, no longer listed.
    @Flag(name: .customLong("fluidsynth-blocks"), help: .hidden)
    var fluidsynthBlocks = false

    @OptionGroup var tuning: TuningOption

    func validate() throws {
        if gain < 0 || gain > 10 { throw ValidationError("--gain must be 0–10") }
        if !(0...1000).contains(minNoteLength) { throw ValidationError("--min-note-length must be 0–1000 ms") }
        if !(1...65535).contains(polyphony) { throw ValidationError("--polyphony must be 1–65535") }
        if let threads, !(1...256).contains(threads) { throw ValidationError("--threads must be 1–256") }
    }

    /// The synthesizer settings these options describe.
    var configuration: SynthesizerConfiguration {
        var configuration = SynthesizerConfiguration()
        configuration.gain = gain
        configuration.interpolation = interpolation
        configuration.polyphony = polyphony
        effects.apply(to: &configuration)
        configuration.minimumNoteLength = minNoteLength / 1000
        configuration.fluidSynthCompatible = fluidsynthCompatible || fluidsynthBlocks
        configuration.tuning = tuning.tuning
        return configuration
    }
}

/// `--rate`: the sample rate of `render`, `batch` and `synth`.
struct SampleRateOption: ParsableArguments {
    @Option(help: "Sample rate in Hz (8000–192000).")
    var rate: Double = 44100

    func validate() throws {
        if !(8000...192_000).contains(rate) { throw ValidationError("--rate must be 8000–192000") }
    }
}

/// `--max-tail` (or `--tail`): how long the sound may ring on once the music has stopped, in
/// `render`, `batch` and `synth --stdin`.
struct TailOption: ParsableArguments {
    @Option(name: [.customLong("max-tail"), .customLong("tail")],
            help: ArgumentHelp("Longest tail after the last event, in seconds.",
                               valueName: "seconds"))
    var seconds: Double = 10

    func validate() throws {
        if seconds < 0 { throw ValidationError("--max-tail/--tail must be ≥ 0") }
    }
}

/// The options of an offline render (`render`, `batch`): the synthesis options, sample rate and
/// format, tail, where the song ends and the duration limit, parsed into ``RenderOptions``.
struct OfflineRenderOptions: ParsableArguments {
    @OptionGroup var synthesis: SynthesisOptions

    @OptionGroup var sampleRate: SampleRateOption

    @Option(help: "Sample format: 16, 24 or 32f (float). Lossy formats ignore it.")
    var bits: String = "16"

    @OptionGroup var tail: TailOption

    @OptionGroup var duration: DurationOption

    @Flag(help: "Stop at the last event instead of letting notes ring out.")
    var endAtLastEvent = false

    @Flag(help: "Keep sustain and sostenuto pedals down when the song ends (default: lift them and release every note, as FluidSynth's player does).")
    var keepPedals = false

    func validate() throws {
        if sampleFormat == nil { throw ValidationError("--bits must be 16, 24 or 32f") }
    }

    /// The sample rate.
    var rate: Double { sampleRate.rate }

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
        options.synthesizer = synthesis.configuration
        options.maxTail = tail.seconds
        options.maxDuration = duration.limit
        options.endAtLastEvent = endAtLastEvent
        options.liftPedalsAtEnd = !keepPedals
        // The file is metered, encoded and written on a core of its own (when there are two).
        options.threads = synthesis.threads ?? max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
        return options
    }
}
