// The code of PolyphonBatch's article "Render a corpus" and its overview, run on corpora and a
// bank built in code.
import Foundation
import Testing
import PolyphonAudio
import PolyphonTestSupport
// snippet: render-a-corpus
import PolyphonBatch
import PolyphonSoundFont

/// Renders every MIDI file under `corpus` into WAV files under `outputDirectory` on every core,
/// saying which inputs failed as they fail.
func renderCorpus(_ corpus: String, soundFont bankPath: String, into outputDirectory: String) async throws -> BatchTally {
    let bank = try SoundFont(contentsOf: bankPath)             // opened once, shared by every worker
    let renderer = BatchRenderer(bank: bank, options: BatchOptions())
    let inputs = try BatchInput.collect(from: [corpus])        // .mid .midi .rmi .kar, sorted
    let run = try renderer.start(inputs, outputDirectory: outputDirectory)
    for await entry in run.results where entry.status == .failed || entry.status == .timeout {
        print("\(entry.input): \(entry.error ?? entry.status.rawValue)")
    }
    return try await run.waitUntilFinished()                  // the report rewritten, one line per input
}
// end snippet

// snippet: batch-options
import PolyphonPlayback

/// A data set's settings: 48 kHz 24-bit WAV without reverb, one file per instrument beside each
/// mix, every note labelled, at most a minute of work and an hour of music per input.
func dataSetOptions() -> BatchOptions {
    var options = BatchOptions()
    options.render.sampleRate = 48_000                         // RenderOptions, as OfflineRenderer takes
    options.render.synthesizer.reverbEnabled = false
    options.render.maxDuration = DurationLimit(seconds: 3600)
    options.sampleFormat = .int24
    options.stems = .program                                   // NAME-program000-….wav, NAME-drums000-….wav
    options.labels = .csv                                      // NAME.labels.csv
    options.timeout = 60                                       // wall seconds, then status .timeout
    options.workerCount = 2                                    // default: one per core
    return options
}
// end snippet

// snippet: stop-at-the-first-failure
/// Renders inputs until one fails or times out — to try a bank or settings on a corpus before
/// the real run — and returns that input's entry.
func renderUntilAFailure(_ inputs: [BatchInput], renderer: BatchRenderer,
                         into outputDirectory: String) async throws -> BatchReportEntry? {
    let run = try renderer.start(inputs, outputDirectory: outputDirectory)
    var firstFailure: BatchReportEntry?
    for await entry in run.results where entry.status == .failed || entry.status == .timeout {
        if firstFailure == nil { firstFailure = entry }
        run.cancel()                          // nothing more starts; renders under way stop within a block
    }
    try await run.waitUntilFinished()         // what finished keeps its outputs and report lines
    return firstFailure
}
// end snippet

// snippet: render-a-shard
import Foundation

/// Renders the part of a corpus that this task of a Slurm, Kubernetes or AWS Batch job array is
/// given (the whole corpus outside a job array), with the part's own report.
func renderMyPart(of corpus: String, renderer: BatchRenderer, into outputDirectory: String,
                  environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> BatchTally {
    let shard = try BatchShard.fromEnvironment(environment)   // nil outside a job array
    let inputs = try BatchInput.collect(from: [corpus])        // the same sorted list in every task
    let run = try renderer.start(inputs, outputDirectory: outputDirectory, shard: shard)
    return try await run.waitUntilFinished()                  // OUTDIR/report-shardI.jsonl
}
// end snippet

// snippet: merge-shard-reports
/// Joins the reports of a sharded batch's parts, once every part has finished.
func mergeShardReports(in outputDirectory: String) throws -> BatchTally {
    let parts = try BatchReport.shardReports(in: outputDirectory)          // report-shard0.jsonl …
    let merged = BatchReport.merged(parts.flatMap(BatchReport.read))       // one line per input
    try BatchReport.write(merged, to: outputDirectory + "/report.jsonl")
    return BatchTally(entries: merged)
}
// end snippet

// snippet: read-a-report
/// The inputs of a batch that have no audio, and why: from its report.
func failures(inReport reportPath: String) -> [(input: String, reason: String)] {
    BatchReport.read(reportPath)
        .filter { $0.status == .failed || $0.status == .timeout }
        .map { ($0.input, $0.error ?? $0.status.rawValue) }
}
// end snippet

@Suite struct RenderACorpusSnippets {
    /// The corpus of the batch tests: five songs of 2–3 s in a small tree and three broken files
    /// (cut short, not MIDI, asking for 142 years).
    static func corpus(in directory: TemporaryDirectory) throws -> String {
        let root = directory.file("corpus")
        try BatchCorpus.make(at: root)
        return root
    }

    static func twoWorkers() -> BatchOptions {
        var options = BatchOptions()
        options.workerCount = 2
        return options
    }

    /// Regular files under `root`, relative to it.
    static func files(under root: String) -> Set<String> {
        Set((FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + $0, isDirectory: &isDirectory) && !isDirectory.boolValue
        })
    }

    @Test func aCorpusRendersIntoAMirroredTreeWithAReportAndResumes() async throws {
        let directory = try TemporaryDirectory()
        let corpus = try Self.corpus(in: directory), out = directory.file("audio")
        let bank = try SnippetFixtures.sineBankFile(in: directory)
        let tally = try await renderCorpus(corpus, soundFont: bank, into: out)
        #expect(tally.total == 8 && tally.counts == [.ok: 5, .failed: 3])
        #expect(tally.audioSeconds > 10)
        #expect(Self.files(under: out) == ["a.wav", "sub/a.wav", "sub/deeper/b.wav", "sub/C.wav", "karaoke.wav",
                                          "report.jsonl"])
        let broken = failures(inReport: out + "/report.jsonl")
        #expect(broken.count == 3)
        for (path, reason) in BatchCorpus.broken {
            #expect(broken.contains { $0.input.hasSuffix(path) && $0.reason.contains(reason) }, "\(path)")
        }

        // The same call again: what is done is skipped, the broken files fail again.
        let again = try await renderCorpus(corpus, soundFont: bank, into: out)
        #expect(again.counts == [.skipped: 5, .failed: 3])
        #expect(BatchReport.read(out + "/report.jsonl").count == 8)
    }

    @Test func dataSetOptionsWriteStemsAndLabelsAt48kHz() async throws {
        let directory = try TemporaryDirectory()
        let corpus = directory.file("corpus"), out = directory.file("audio")
        try BatchCorpus.write(BatchCorpus.tune(seconds: 1), to: corpus + "/song.mid")
        let renderer = BatchRenderer(bank: SnippetFixtures.sineBank(), options: dataSetOptions())
        let tally = try await renderer.start(BatchInput.collect(from: [corpus]), outputDirectory: out).waitUntilFinished()
        #expect(tally.counts == [.ok: 1])
        let written = Self.files(under: out)
        #expect(written.contains("song.labels.csv"))
        #expect(written.contains { $0.hasPrefix("song-program000") } && written.contains { $0.hasPrefix("song-drums000") })
        let mix = try AudioFile(contentsOf: out + "/song.wav")
        #expect(mix.sampleRate == 48_000 && mix.sourceEncoding == .signedInteger(bits: 24))
    }

    @Test func theFirstFailureStopsTheRunAndTheRenderUnderWayLeavesNoFile() async throws {
        let directory = try TemporaryDirectory()
        let corpus = directory.file("corpus"), out = directory.file("audio")
        // Three hours of one held note: the costliest input, so one worker starts on it first
        // while the other renders the short songs and then meets the broken file.
        try BatchCorpus.write(BatchCorpus.song([(0, 69, 0, 480 * 2 * 3 * 3600)]), to: corpus + "/long.mid")
        for name in ["a.mid", "b.mid"] { try BatchCorpus.write(BatchCorpus.tune(seconds: 1), to: corpus + "/" + name) }
        try BatchCorpus.write(bytes: Array("not a MIDI file".utf8), to: corpus + "/garbage.mid")
        let renderer = BatchRenderer(bank: SnippetFixtures.sineBank(), options: Self.twoWorkers())
        // The article's loop runs on a thread of its own, so that it stops the run as soon as the
        // failure arrives, whatever the rest of the suite keeps the cooperative pool busy with;
        // the run is timed there too, since the test itself may wait long for a pool thread to
        // resume on when the suite runs in parallel.
        let inputs = try BatchInput.collect(from: [corpus])
        let (failure, elapsed) = try await Task(executorPreference: ThreadTaskExecutor(label: "corpus-first-failure")) {
            let started = ContinuousClock.now
            let failure = try await renderUntilAFailure(inputs, renderer: renderer, into: out)
            return (failure, ContinuousClock.now - started)
        }.value
        #expect(failure?.input.hasSuffix("garbage.mid") == true && failure?.status == .failed)
        let report = BatchReport.read(out + "/report.jsonl")
        #expect(report.map { ($0.input as NSString).lastPathComponent } == ["a.mid", "b.mid", "garbage.mid"])
        #expect(Self.files(under: out) == ["a.wav", "b.wav", "report.jsonl"])   // nothing of long.mid
        // Stopped, not rendered for three hours of audio (a bound against a run that never
        // stops, generous for a loaded 2-core machine).
        #expect(elapsed < .seconds(600), "\(elapsed)")
    }

    @Test func threePartsOfAJobArrayRenderEveryInputOnceAndTheirReportsMerge() async throws {
        let directory = try TemporaryDirectory()
        let corpus = try Self.corpus(in: directory), out = directory.file("audio")
        let renderer = BatchRenderer(bank: SnippetFixtures.sineBank(), options: Self.twoWorkers())
        var parts: [Int] = []
        for task in 0..<3 {
            let slurm = ["SLURM_ARRAY_TASK_ID": "\(task)", "SLURM_ARRAY_TASK_COUNT": "3"]
            parts.append(try await renderMyPart(of: corpus, renderer: renderer, into: out, environment: slurm).total)
        }
        #expect(parts == [3, 3, 2])
        #expect(try BatchReport.shardReports(in: out).map { ($0 as NSString).lastPathComponent }
                == ["report-shard0.jsonl", "report-shard1.jsonl", "report-shard2.jsonl"])
        let merged = try mergeShardReports(in: out)
        #expect(merged.total == 8 && merged.counts == [.ok: 5, .failed: 3])
        #expect(try BatchReport.read(out + "/report.jsonl").map(\.input) == BatchInput.collect(from: [corpus]).map(\.path))

        // Outside a job array: the whole corpus, everything already done.
        let whole = try await renderMyPart(of: corpus, renderer: renderer, into: out, environment: [:])
        #expect(whole.total == 8 && whole.counts == [.skipped: 5, .failed: 3])
    }
}
