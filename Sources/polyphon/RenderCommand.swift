import ArgumentParser
import Foundation
import PolyphonAudio
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth

extension StemMode: ExpressibleByArgument {}
extension PictureFormat: ExpressibleByArgument {}

/// `polyphon render IN.mid …`: bounce MIDI to an audio file far faster than real time.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render MIDI files to WAV, AIFF, CAF, FLAC, Ogg, Opus or MP3.",
        discussion: """
            Events land on their exact sample; after the last event rendering continues until \
            every voice has died away (at most --max-tail seconds). One summary line per file: \
            duration, peak, loudness, voices, speed.

            --align-to-fluidsynth is a comparison aid: it moves every event to the sample where \
            FluidSynth's file player plays it (64-sample blocks on a millisecond clock), so that \
            `polyphon compare` against `fluidsynth -F` of the same file measures synthesis, not \
            FluidSynth's event timing. With --fluidsynth-compatible as well, pitch is rounded down \
            to whole cents and envelopes and resonant filter sweeps are timed in FluidSynth's \
            blocks too: the closest Polyphon comes to FluidSynth 2.6's output.

            --tuning FILE.scl plays the melodic channels in a Scala scale (with --tuning-key \
            FILE.kbm, mapped onto the keys as the keyboard mapping says); MIDI Tuning Standard \
            messages in the song apply as well.
            """)

    @Argument(help: "MIDI files to render.")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "Output file (one input only). Default: the input with the format's extension.")
    var output: String?

    @Option(help: "wav, aiff, caf, flac, ogg, opus or mp3. Default: from the output's extension, else wav.")
    var format: String?

    @Option(help: "Peak-normalise: peak (−1 dBFS) or peak=-0.3dBFS.")
    var normalize: String?

    @OptionGroup var render: OfflineRenderOptions

    @OptionGroup var loop: LoopOptions

    @Option(help: "Also write one file per MIDI channel, per track or per instrument (OUT-ch01.wav …); they add up to the mix.")
    var stems: StemMode?

    @Option(help: "Silence before the first event, in seconds.")
    var leadIn: Double = 0

    @Flag(help: "Drop silence before the first sound.")
    var trim = false

    @Flag(help: "Play events where FluidSynth's file player does (a comparison aid; not sample-accurate).")
    var alignToFluidsynth = false

    @Flag(help: "Also draw OUT.png: title, instrument legend, piano roll, waveform (dBFS), short-term loudness (LUFS), time axis.")
    var picture = false

    @Option(help: "The picture as png or svg (text as text).")
    var pictureFormat: PictureFormat = .png

    @Flag(name: .shortAndLong, help: "No progress bar.")
    var quiet = false

    func validate() throws {
        if output != nil && inputs.count > 1 { throw ValidationError("-o/--output takes one input only") }
        if let normalize, PeakNormalization(argument: normalize) == nil {
            throw ValidationError("--normalize takes peak or peak=-1dBFS")
        }
        if let format, AudioFileFormat(rawValue: format.lowercased()) == nil {
            throw ValidationError("--format must be one of wav, aiff, caf, flac, ogg, opus, mp3")
        }
        if stems != nil && normalize != nil {
            throw ValidationError("--normalize cannot be combined with --stems (stems must keep one common gain)")
        }
        if leadIn < 0 { throw ValidationError("--lead-in must be ≥ 0") }
        if stems != nil && (loop.looping != nil || loop.length != nil) {
            throw ValidationError("--stems cannot be combined with --loops, --fade-out, --loop-ready or --length")
        }
        if alignToFluidsynth && rate != rate.rounded() {
            throw ValidationError("--align-to-fluidsynth needs a whole sample rate")
        }
    }

    var sampleFormat: SampleFormat? { render.sampleFormat }
    var rate: Double { render.rate }

    func run() throws {
        let (soundBank, bankPath) = try render.synthesis.bank.load(quiet: false)
        let bankName = bankPath == "built-in" ? "built-in GM bank" : (bankPath as NSString).lastPathComponent
        var options = render.renderOptions
        options.leadIn = leadIn
        options.trimLeadingSilence = trim
        loop.apply(to: &options)
        let renderer = OfflineRenderer(soundBank: soundBank, options: options)
        let showProgress = !quiet && isatty(STDERR_FILENO) == 1

        for input in inputs {
            var midi = try MIDIFile(contentsOfFile: input)
            if alignToFluidsynth {
                do { midi = try midi.alignedToFluidSynthDispatch(sampleRate: Int(rate)) } catch {
                    throw CLIError("\(input): --align-to-fluidsynth: \(error)")
                }
            }
            try render.duration.check(midi, path: input, leadIn: leadIn)
            try loop.checkLoop(of: midi, path: input)
            // What the reader repaired, once the file is known to render (a refusal is one line).
            for warning in midi.warnings { note("polyphon: \(input): warning: \(warning)") }
            let (path, fileFormat) = try destination(for: input)
            if let stems {
                let (analysis, trimmed) = try renderStems(renderer, midi, mode: stems, path: path, format: fileFormat)
                if let analysis {
                    try drawPicture(midi, input: input, bankName: bankName, analysis: analysis, audioPath: path,
                                    options: options, trimmedFrames: trimmed)
                }
                continue
            }
            let target = AudioFileTarget(path: path, format: fileFormat, sampleFormat: sampleFormat ?? .int16,
                                         normalization: normalize.flatMap(PeakNormalization.init(argument:)))
            let summary: FileRenderSummary
            do {
                summary = try renderer.render(midi, to: target, analyzing: picture, progress: showProgress ? { p in
                    let width = 30
                    let filled = Int(p.fraction * Double(width))
                    let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
                    FileHandle.standardError.write(Data(String(format: "\r%@ %3.0f%% %6.0f× ", bar, p.fraction * 100, p.speed).utf8))
                } : nil)
            } catch let error as LoopRenderingError {
                throw CLIError(error.naming(input).description)
            }
            if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            let r = summary.render
            print(String(format: "%@: %.2f s, peak %.1f dBFS, %.1f LUFS, max %d voices, %.0f× real time%@",
                         path, r.duration, summary.peakDecibels, summary.loudness, r.maxVoices, r.speed,
                         summary.normalizationGain != 0 ? String(format: ", normalised %+.1f dB", summary.normalizationGain) : ""))
            if let points = r.loop {
                let inFile = AudioLoopPoints.writesInto(fileFormat) ? "in the file and " : ""
                print(String(format: "  loop %.3f s – %.3f s (frames %lld – %lld), %@%@",
                             Double(points.start) / rate, Double(points.end) / rate, points.start, points.end,
                             inFile, RenderedLoop.jsonPath(besideAudioFileAt: path)))
            }
            if let analysis = summary.analysis {
                try drawPicture(midi, input: input, bankName: bankName, analysis: analysis, audioPath: path,
                                options: options, trimmedFrames: r.trimmedFrames)
            }
        }
    }

    /// Draws the picture of a render from its analysis and the song's notes, beside the audio
    /// as NAME.png (or .svg); `trimmedFrames` of leading silence were dropped from the audio.
    func drawPicture(_ midi: MIDIFile, input: String, bankName: String, analysis: RenderAnalysis,
                     audioPath: String, options: RenderOptions, trimmedFrames: Int64) throws {
        let notes = Timeline(file: midi, sampleRate: analysis.sampleRate, leadIn: options.leadIn)
            .noteLabels(for: options, trimmedFrames: trimmedFrames)
        let picture = RenderPicture(title: (input as NSString).lastPathComponent, bankName: bankName,
                                    analysis: analysis, notes: notes)
        let path = (audioPath as NSString).deletingPathExtension + "." + pictureFormat.fileExtension
        do {
            try picture.data(format: pictureFormat).write(to: URL(fileURLWithPath: path))
        } catch {
            throw CLIError("\(path): cannot write the picture: \(error.localizedDescription)")
        }
        print("  \(path)")
    }

    /// Writes the mix to `path` and each stem beside it as NAME-LABEL.EXT; with `--picture`,
    /// returns the mix's analysis, and the frames of leading silence `--trim` dropped.
    func renderStems(_ renderer: OfflineRenderer, _ midi: MIDIFile, mode: StemMode, path: String,
                     format: AudioFileFormat) throws -> (RenderAnalysis?, trimmedFrames: Int64) {
        let base = (path as NSString).deletingPathExtension
        let ext = (path as NSString).pathExtension.isEmpty ? format.fileExtension : (path as NSString).pathExtension
        var writers: [any AudioFileWriter] = []
        func open(_ p: String) throws -> any AudioFileWriter {
            let w = try makeAudioFileWriter(path: p, format: format, sampleFormat: sampleFormat ?? .int16,
                                            channelCount: 2, sampleRate: rate)
            writers.append(w)
            return w
        }
        func sink(_ w: any AudioFileWriter) -> OfflineRenderer.Sink {
            // One pointer array per sink, updated in place, so no block allocates.
            var channels = [UnsafeBufferPointer<Float>](repeating: UnsafeBufferPointer(start: nil, count: 0), count: 2)
            return { l, r, n in
                channels[0] = UnsafeBufferPointer(start: l, count: n)
                channels[1] = UnsafeBufferPointer(start: r, count: n)
                try w.write(planar: channels, frameCount: n)
            }
        }
        let mixWriter = try open(path)
        let mixSink = sink(mixWriter)
        var analysis = picture ? RenderAnalysis(sampleRate: rate) : nil
        var names: [String] = []
        let summary = try renderer.renderStems(midi, mode: mode, stemSink: { stem in
            let p = "\(base)-\(stem.label).\(ext)"
            names.append(p)
            return sink(try open(p))
        }, mix: { l, r, n in
            analysis?.process(left: l, right: r, count: n)
            try mixSink(l, r, n)
        })
        for w in writers { try w.close() }
        print(String(format: "%@: %.2f s, peak %.1f dBFS, max %d voices, %.0f× real time, %d stems",
                     path, summary.duration, summary.peakDecibels, summary.maxVoices, summary.speed, names.count))
        for n in names { print("  \(n)") }
        return (analysis, summary.trimmedFrames)
    }

    /// Output path and format: -o wins; else the input's name with the format's extension.
    func destination(for input: String) throws -> (String, AudioFileFormat) {
        let explicit = format.flatMap { AudioFileFormat(rawValue: $0.lowercased()) }
        if let output {
            guard let f = explicit ?? AudioFileFormat(path: output) else {
                throw CLIError("\(output): cannot tell the audio format from the extension; use --format")
            }
            return (output, f)
        }
        let f = explicit ?? .wav
        let base = (input as NSString).deletingPathExtension
        return (base + "." + f.fileExtension, f)
    }
}
