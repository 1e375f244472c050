import ArgumentParser
import Foundation
import PolyphonAudio
import PolyphonPlayback
import PolyphonSynth

extension NoteLabelFormat: ExpressibleByArgument {}

/// `polyphon batch INPUT... -o OUTDIR`: every MIDI file of a corpus rendered on every core of
/// one process, the bank opened once and shared; one bad file never stops the rest.
struct BatchRenderCommand: ParsableCommand {
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
            """)

    @Argument(help: "MIDI files and directories.")
    var inputs: [String] = []

    @Option(name: .shortAndLong, help: "Output directory.")
    var output: String

    @Option(help: "A file listing inputs, one path per line (# comments).")
    var manifest: String?

    @Option(name: .shortAndLong, help: "Files rendered at once. Default: $SLURM_CPUS_PER_TASK, else the number of cores.")
    var jobs: Int?

    @Option(help: "wav, aiff, caf, flac, ogg, opus or mp3.")
    var format: String = "wav"

    @OptionGroup var render: OfflineRenderOptions

    @Option(help: "Also write one file per MIDI channel, per track, or per instrument (program); they add up to the mix.")
    var stems: StemMode?

    @Flag(help: "Write every note's onset and offset (seconds and frames), pitch, velocity, channel and program beside the audio.")
    var labels = false

    @Option(help: "Labels as csv or json (NAME.labels.csv / NAME.labels.json).")
    var labelFormat: NoteLabelFormat = .csv

    @Flag(help: "Draw NAME.png beside the audio: piano roll (notes coloured by instrument family), waveform, short-term loudness.")
    var picture = false

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
        if let timeout, !(timeout > 0 && timeout.isFinite) { throw ValidationError("--timeout must be a number of seconds > 0") }
        if let shard, BatchShard(argument: shard) == nil { throw ValidationError("--shard takes I/N with 0 ≤ I < N") }
        if let shardCount, shardCount < 1 { throw ValidationError("--shard-count must be ≥ 1") }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let part = try shard.flatMap { BatchShard(argument: $0) }
            ?? BatchShard.fromEnvironment(environment, shardCount: shardCount)
        let all = try BatchInputs.collect(arguments: inputs, manifest: manifest)
        let mine = all.enumerated().filter { part?.contains(position: $0.offset) ?? true }.map(\.element)
        let outputDirectory = output.hasSuffix("/") && output.count > 1 ? String(output.dropLast()) : output
        try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        let reportPath = Self.reportPath(report, outputDirectory: outputDirectory, shard: part)

        let (soundBank, _) = try render.synthesis.bank.load(quiet: quiet)
        let renderOptions = render.renderOptions
        let prepared = PreparedSoundBank(soundBank, velocityToFilter: renderOptions.synthesizer.velocityToFilter)
        let job = BatchJob(bank: prepared, options: renderOptions,
                           format: AudioFileFormat(rawValue: format.lowercased()) ?? .wav,
                           sampleFormat: render.sampleFormat ?? .int16, stems: stems,
                           labels: labels ? labelFormat : nil, picture: picture, timeout: timeout, outputDirectory: outputDirectory)
        let earlier = BatchReport.read(reportPath)
        var previous: [String: BatchReportEntry] = [:]
        for e in earlier { previous[e.input] = e }
        let writer = try BatchReportWriter(path: reportPath)
        let workers = jobs ?? Self.defaultJobs(environment)
        if !quiet, let part {
            note("polyphon: part \(part) (from \(part.source)): \(mine.count) of \(all.count) inputs")
        }
        let runner = BatchRunner(job: job, inputs: mine, previous: previous, report: writer, jobs: workers,
                                 showProgress: !quiet && isatty(STDERR_FILENO) == 1)
        let (entries, tally, wall) = runner.run()
        writer.close()
        try BatchReport.write(BatchReport.merged(earlier + entries), to: reportPath)
        print("polyphon batch: \(tally.summary(wallSeconds: wall)); report \(reportPath)")
        if tally.failures > 0 { throw ExitCode(1) }
    }

    /// The report's path: as given, or in OUTDIR; a shard's gets "-shardI" before its extension.
    static func reportPath(_ given: String?, outputDirectory: String, shard: BatchShard?) -> String {
        let path = given ?? outputDirectory + "/report.jsonl"
        guard let shard else { return path }
        let ext = (path as NSString).pathExtension
        let base = (path as NSString).deletingPathExtension
        return base + "-shard\(shard.index)" + (ext.isEmpty ? "" : "." + ext)
    }

    /// `$SLURM_CPUS_PER_TASK` under Slurm (the cores the job was given), else every core.
    static func defaultJobs(_ environment: [String: String]) -> Int {
        if let n = environment["SLURM_CPUS_PER_TASK"].flatMap({ Int($0) }), n > 0 { return n }
        return ProcessInfo.processInfo.activeProcessorCount
    }
}
