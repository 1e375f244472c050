import ArgumentParser
import Foundation
import PolyphonAudio
import PolyphonBatch
import PolyphonPlayback

extension NoteLabelFormat: ExpressibleByArgument {}

/// `polyphon batch INPUT... -o OUTDIR`: every MIDI file of a corpus rendered on every core of
/// one process by ``BatchRenderer``; this command parses the options and prints.
struct BatchRenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render every MIDI file under the inputs into OUTDIR, mirroring their tree.",
        discussion: """
            Inputs are files, directories (searched recursively for .mid, .midi, .rmi and .kar, \
            in any case) and the lines of --manifest. Outputs mirror the inputs' tree below their \
            common directory. Each output is written under a temporary name (.NAME.partial) and \
            renamed into place when complete, the mix last; run the same command again and inputs \
            whose outputs exist are skipped. The report (JSON Lines, one line per input: input, \
            status ok|failed|timeout|skipped, outputs, error, audioSeconds, renderSeconds, \
            peakDBFS, loudnessLUFS, maxVoices) gets a line as each input finishes and is rewritten \
            at the end with one line per input. Exit code 0 when every input is ok or skipped, 1 \
            when any failed or timed out, 64 for usage errors.

            Sharding: --shard I/N (I from 0) renders inputs k with k mod N = I of the sorted \
            list. Without it the part comes from SLURM_ARRAY_TASK_ID (less SLURM_ARRAY_TASK_MIN; \
            count SLURM_ARRAY_TASK_COUNT or max-min+1), JOB_COMPLETION_INDEX (count --shard-count \
            or JOB_COMPLETIONS) or AWS_BATCH_JOB_ARRAY_INDEX (count --shard-count or \
            AWS_BATCH_JOB_ARRAY_SIZE). Each part writes OUTDIR/report-shardI.jsonl; join them \
            with 'polyphon batch merge-reports OUTDIR'.

            --html writes OUTDIR/index.html (OUTDIR/index-shardI.html for a shard): one \
            self-contained page, rewritten every 2 s while the batch runs and at the end, listing \
            every input with its status, error, duration, peak, loudness, voices, render time, \
            outlier flags, picture and an audio player; 'merge-reports --html' writes it for all \
            shards.
            """)

    @Argument(help: "MIDI files and directories.")
    var inputs: [String] = []

    @Option(name: .shortAndLong, help: "Output directory.")
    var output: String

    @Option(help: "A file listing inputs, one path per line (# comments).")
    var manifest: String?

    @Option(name: .shortAndLong, help: "Files rendered at once. Default: $SLURM_CPUS_PER_TASK, else the number of cores (divided by --threads when given).")
    var jobs: Int?

    @Option(help: "wav, aiff, caf, flac, ogg, opus or mp3.")
    var format: String = "wav"

    @OptionGroup var render: OfflineRenderOptions

    @OptionGroup var loop: LoopOptions

    @Option(help: "Also write one file per MIDI channel, per track, or per instrument (program); they add up to the mix.")
    var stems: StemMode?

    @Flag(help: "Write every note's onset and offset (seconds and frames), pitch, velocity, channel and program beside the audio.")
    var labels = false

    @Option(help: "Labels as csv or json (NAME.labels.csv / NAME.labels.json).")
    var labelFormat: NoteLabelFormat = .csv

    @Flag(help: "Draw NAME.png beside the audio: title, instrument legend, piano roll, waveform (dBFS), short-term loudness (LUFS), time axis.")
    var picture = false

    @Option(help: "Pictures as png or svg (text as text).")
    var pictureFormat: PictureFormat = .png

    @Flag(help: "Also write OUTDIR/index.html: the report as a web page (summary, sortable table, pictures, audio players), rewritten as the batch goes.")
    var html = false

    @Option(help: "Wall seconds a file may take before it is abandoned (status timeout).")
    var timeout: Double?

    @Option(help: "The report. Default: OUTDIR/report.jsonl (OUTDIR/report-shardI.jsonl for a shard).")
    var report: String?

    @Option(help: "Render part I of N of the sorted inputs (I from 0).")
    var shard: String?

    @Option(help: "Number of parts when the index comes from JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX.")
    var shardCount: Int?

    @Flag(name: .shortAndLong, help: "No progress bar.")
    var quiet = false

    func validate() throws {
        if inputs.isEmpty && manifest == nil { throw ValidationError("give MIDI files or directories, or --manifest") }
        if AudioFileFormat(rawValue: format.lowercased()) == nil {
            throw ValidationError("--format must be one of wav, aiff, caf, flac, ogg, opus, mp3")
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be ≥ 1") }
        if stems != nil && (loop.looping != nil || loop.length != nil) {
            throw ValidationError("--stems cannot be combined with --loops, --fade-out, --loop-ready or --length")
        }
        if let timeout, !(timeout > 0 && timeout.isFinite) { throw ValidationError("--timeout must be a number of seconds > 0") }
        if let shard, BatchShard(shard) == nil { throw ValidationError("--shard takes I/N with 0 ≤ I < N") }
        if let shardCount, shardCount < 1 { throw ValidationError("--shard-count must be ≥ 1") }
    }

    func run() async throws {
        let part = try shardPart()
        let all = try BatchInput.collect(from: inputs, manifest: manifest)
        let (soundBank, bankPath) = try render.synthesis.bank.load(quiet: quiet)
        var options = BatchOptions()
        options.render = render.renderOptions
        loop.apply(to: &options.render)
        options.format = AudioFileFormat(rawValue: format.lowercased()) ?? .wav
        options.sampleFormat = render.sampleFormat ?? .int16
        options.stems = stems
        options.labels = labels ? labelFormat : nil
        options.drawsPictures = picture
        options.pictureFormat = pictureFormat
        options.bankName = bankPath == "built-in" ? "built-in GM bank" : (bankPath as NSString).lastPathComponent
        options.writesReportPage = html
        options.timeout = timeout
        if let threads = render.synthesis.threads {
            if let jobs {
                options.workerCount = jobs
                options.threadsPerInput = threads
            } else {
                options.divide(cores: options.workerCount, threadsPerInput: threads)
            }
        } else if let jobs {
            options.workerCount = jobs
        }
        if !quiet, let part {
            note("polyphon: part \(part) (from \(part.source)): \(part.part(of: all).count) of \(all.count) inputs")
        }
        let run = try BatchRenderer(bank: soundBank, options: options)
            .start(all, outputDirectory: output, reportPath: report, shard: part)
        let console = BatchConsole(showsProgress: !quiet && isatty(STDERR_FILENO) == 1)
        let progress = console.showsProgress ? Task.detached { await console.drawProgress(of: run) } : nil
        for await entry in run.results {
            if let error = entry.error { console.say("polyphon: \(entry.status.rawValue): \(error)") }
        }
        let tally = try await run.waitUntilFinished()
        await progress?.value
        print("polyphon batch: \(tally.summaryLine(wallSeconds: run.elapsedSeconds)); report \(run.reportPath)"
              + (run.reportPagePath.map { ", page \($0)" } ?? ""))
        if tally.failures > 0 { throw ExitCode(1) }
    }

    /// `--shard`, else the part a scheduler assigns through the environment (a usage error when
    /// it is set incompletely).
    func shardPart() throws -> BatchShard? {
        if let shard { return BatchShard(shard) }
        do {
            return try BatchShard.fromEnvironment(ProcessInfo.processInfo.environment, count: shardCount)
        } catch .countMissing(let indexVariable, let countVariable) {
            throw ValidationError("\(indexVariable) is set but the number of parts is not: give --shard-count or set \(countVariable)")
        } catch {
            throw ValidationError(error.description)
        }
    }
}
