import Foundation
import PolyphonAudio
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth

/// Renders one input of a batch to its outputs, never throwing: whatever happens becomes the
/// input's report entry.
///
/// Every output is written under a temporary name beside its final one (``AtomicFile``) and
/// renamed into place only once complete — stems and labels first, the mix last — so a mix
/// under its final name means the input is done, and a run started again skips it.
struct BatchJob: Sendable {
    /// The bank, its presets resolved once for every worker.
    let bank: PreparedSoundBank
    let batch: BatchOptions
    let outputDirectory: String

    var options: RenderOptions { batch.render }
    var format: AudioFileFormat { batch.format }
    var sampleFormat: SampleFormat { batch.sampleFormat }
    var stems: StemMode? { batch.stems }
    var labels: NoteLabelFormat? { batch.labels }
    /// Whether to draw NAME.png (or .svg): the render's picture.
    var picture: Bool { batch.drawsPictures }

    /// The mix's final path.
    func mixPath(_ input: BatchInput) -> String {
        outputDirectory + "/" + input.outputStem + "." + format.fileExtension
    }

    /// The labels' final path, when labels are asked for.
    func labelsPath(_ input: BatchInput) -> String? {
        labels.map { outputDirectory + "/" + input.outputStem + ".labels." + $0.rawValue }
    }

    /// The picture's final path, when pictures are asked for.
    func picturePath(_ input: BatchInput) -> String? {
        picture ? outputDirectory + "/" + input.outputStem + "." + batch.pictureFormat.fileExtension : nil
    }

    /// The outputs a finished input has: the mix, then labels and picture when asked for.
    func expectedOutputs(_ input: BatchInput) -> [String] {
        [mixPath(input)] + [labelsPath(input), picturePath(input)].compactMap { $0 }
    }

    /// Whether every output of `input` is in place (a run before this one finished it).
    func isDone(_ input: BatchInput) -> Bool {
        expectedOutputs(input).allSatisfy { FileManager.default.fileExists(atPath: $0) }
    }

    /// Roughly how long `input` takes to render, for ordering the work: the seconds its voices
    /// sound — each note's, pedals included, with half a second of release, times the voices
    /// it starts — plus 18 per second of song (the engine's cost per frame without voices,
    /// fitted on the planetblupi songs: the estimate then follows their render times with a
    /// correlation of 0.88). Zero when it is done already or unreadable.
    func estimatedCost(_ input: BatchInput) -> Double {
        if isDone(input) { return 0 }
        guard let midi = try? MIDIFile(contentsOfFile: input.path) else { return 0 }
        let schedule = Timeline(file: midi, sampleRate: options.sampleRate, leadIn: 0)
        let notes = schedule.noteLabels(minimumNoteLength: options.synthesizer.minimumNoteLength,
                                        liftPedalsAtEnd: options.liftPedalsAtEnd)
        let songSeconds = Double(schedule.lastEventFrame) / options.sampleRate
        return 1 + 18 * songSeconds + notes.reduce(0) { total, note in
            let voices = bank.voiceCount(program: note.program, isDrumKit: note.isDrum, key: note.pitch, velocity: note.velocity)
            return total + Double(voices) * (note.offsetSeconds - note.onsetSeconds + 0.5)
        }
    }

    /// Renders `input`, or skips it when its outputs exist (`previous`, its last report entry,
    /// then lends the skipped entry its figures). `cancellation` carries the input's time limit;
    /// `nil` when it was cancelled (``RenderCancellation/cancel()``) before it finished: its
    /// outputs are then removed and it has no entry.
    func run(_ input: BatchInput, previous: BatchReportEntry?, cancellation: RenderCancellation) -> BatchReportEntry? {
        let started = DispatchTime.now().uptimeNanoseconds
        let mix = mixPath(input)
        if isDone(input) {
            var entry = previous.flatMap { $0.status == .ok || $0.status == .skipped ? $0 : nil }
                ?? BatchReportEntry(input: input.path, status: .skipped, outputs: expectedOutputs(input))
            entry.status = .skipped
            return entry
        }
        let outputs = Outputs()
        do {
            var entry = try render(input, mix: mix, cancellation: cancellation, outputs: outputs)
            entry.renderSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            return entry
        } catch {
            outputs.abandon()
            if let cancelled = error as? RenderCancelledError, cancelled.timeLimit == nil { return nil }
            let status: BatchStatus = error is RenderCancelledError ? .timeout : .failed
            var message = "\(error)"
            if var limit = error as? DurationLimitError {
                limit.fileName = input.path
                message = limit.description
            } else if !message.contains(input.path) {
                message = input.path + ": " + message
            }
            return BatchReportEntry(input: input.path, status: status, error: message,
                                    renderSeconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
        }
    }

    private func render(_ input: BatchInput, mix: String, cancellation: RenderCancellation,
                        outputs: Outputs) throws -> BatchReportEntry {
        let midi = try MIDIFile(contentsOfFile: input.path)
        try options.maxDuration.check(midi, leadIn: options.leadIn)
        try FileManager.default.createDirectory(atPath: (mix as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        let renderer = OfflineRenderer(preparedBank: bank, options: options, cancellation: cancellation)
        let rate = options.sampleRate
        func open(_ path: String) throws -> any AudioFileWriter {
            try outputs.open(path, format: format, sampleFormat: sampleFormat, sampleRate: rate)
        }

        let schedule = labels != nil || picture ? Timeline(file: midi, sampleRate: rate, leadIn: options.leadIn) : nil
        // With a picture, its analysis meters the loudness too.
        var analysis = picture ? RenderAnalysis(sampleRate: rate, expectedFrames: (schedule?.lastEventFrame ?? 0)
                                                    + Int64(options.maxTail * rate) + 4096) : nil
        var meter = picture ? nil : LoudnessMeter(sampleRate: rate, channelCount: 2)
        let mixWriter = try open(mix)
        // One array of channel pointers per file, updated in place, so no block allocates.
        var channels = [UnsafeBufferPointer<Float>](repeating: UnsafeBufferPointer(start: nil, count: 0), count: 2)
        let mixSink: OfflineRenderer.Sink = { l, r, n in
            channels[0] = UnsafeBufferPointer(start: l, count: n)
            channels[1] = UnsafeBufferPointer(start: r, count: n)
            meter?.process(planar: channels, frameCount: n)
            analysis?.process(left: l, right: r, count: n)
            try mixWriter.write(planar: channels, frameCount: n)
        }
        let summary: RenderSummary
        if let stems {
            let base = outputDirectory + "/" + input.outputStem
            summary = try renderer.renderStems(midi, mode: stems, stemSink: { stem in
                let writer = try open("\(base)-\(stem.label).\(format.fileExtension)")
                var pair = [UnsafeBufferPointer<Float>](repeating: UnsafeBufferPointer(start: nil, count: 0), count: 2)
                return { l, r, n in
                    pair[0] = UnsafeBufferPointer(start: l, count: n)
                    pair[1] = UnsafeBufferPointer(start: r, count: n)
                    try writer.write(planar: pair, frameCount: n)
                }
            }, mix: mixSink)
        } else {
            summary = try renderer.render(midi, into: mixSink)
        }
        // On the output's frames: a loop render's passes laid out, a cut end cutting.
        let notes = schedule?.noteLabels(for: options) ?? []
        if let labels, let path = labelsPath(input) {
            try outputs.add(path, contents: try labels.encode(notes, sampleRate: rate))
        }
        if let analysis, let path = picturePath(input) {
            let picture = RenderPicture(title: (input.path as NSString).lastPathComponent, bankName: batch.bankName,
                                        analysis: analysis, notes: notes)
            try outputs.add(path, contents: picture.data(format: batch.pictureFormat))
        }
        if let loop = summary.loop {
            try outputs.add(RenderedLoop.jsonPath(besideAudioFileAt: mix), contents: loop.json(sampleRate: rate))
        }
        try outputs.commit(mix: mix, loop: summary.loop.map { ($0.audioLoopPoints, format) })
        return BatchReportEntry(input: input.path, status: .ok, outputs: [mix] + outputs.paths.filter { $0 != mix },
                                audioSeconds: summary.duration,
                                peakDBFS: BatchReportEntry.finite(summary.peakDecibels),
                                loudnessLUFS: BatchReportEntry.finite(analysis?.integratedLoudness
                                                                          ?? meter?.integratedLoudness ?? -.infinity),
                                maxVoices: summary.maxVoices,
                                warnings: midi.warnings.isEmpty ? nil : midi.warnings.map(\.description))
    }
}

/// The files one input is writing: temporaries until ``commit(mix:)``. Used by one thread.
private final class Outputs {
    private var writers: [any AudioFileWriter] = []
    /// Final paths, in the order they were opened.
    private(set) var paths: [String] = []

    func open(_ path: String, format: AudioFileFormat, sampleFormat: SampleFormat,
              sampleRate: Double) throws -> any AudioFileWriter {
        paths.append(path)
        let writer = try makeAudioFileWriter(path: AtomicFile.temporaryPath(for: path), format: format,
                                             sampleFormat: sampleFormat, channelCount: 2, sampleRate: sampleRate)
        writers.append(writer)
        return writer
    }

    /// Writes a whole small file (labels) under its temporary name.
    func add(_ path: String, contents: Data) throws {
        paths.append(path)
        do {
            try contents.write(to: URL(fileURLWithPath: AtomicFile.temporaryPath(for: path)))
        } catch {
            throw BatchError(path: path, reason: "cannot write: \(error.localizedDescription)")
        }
    }

    /// Closes every writer, writes a loop-ready mix's loop points into it, and renames every
    /// file into place, `mix` last.
    func commit(mix: String, loop: (AudioLoopPoints, AudioFileFormat)? = nil) throws {
        for w in writers { try w.close() }
        if let (points, format) = loop { try points.write(intoFileAt: AtomicFile.temporaryPath(for: mix), format: format) }
        for p in paths where p != mix { try AtomicFile.commit(p) }
        try AtomicFile.commit(mix)
    }

    /// Closes and removes whatever was written.
    func abandon() {
        for w in writers { try? w.close() }
        for p in paths { AtomicFile.discard(p) }
    }
}
