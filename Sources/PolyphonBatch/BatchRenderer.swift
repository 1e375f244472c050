import Foundation
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth

/// Renders a corpus of MIDI files on every core of one process, the bank opened once and
/// shared; one bad file never stops the rest.
///
/// Each output is written under a temporary name (`.NAME.partial`) and renamed into place when
/// complete, the mix last, so a batch killed at any moment leaves no truncated file under a
/// final name; started again on the same output directory, it skips inputs whose outputs exist
/// and renders the rest. A report (JSON Lines, one ``BatchReportEntry`` per input) records
/// what happened to each input.
///
/// ```swift
/// var options = BatchOptions()
/// options.format = .flac
/// let renderer = BatchRenderer(bank: try SoundFont(contentsOf: "FluidR3_GM.sf2"), options: options)
/// let inputs = try BatchInput.collect(from: ["midi/"])
/// let run = try renderer.start(inputs, outputDirectory: "audio")
/// for await entry in run.results {
///     print(entry.input, entry.status)
/// }
/// ```
///
/// To spread a corpus over many machines, give each the part ``BatchShard/part(of:)`` picks
/// and its own report (``BatchShard/reportPath(_:)``); ``BatchReport`` merges them.
public final class BatchRenderer: Sendable {
    /// The bank, its presets resolved once for every worker.
    public let bank: PreparedSoundBank
    /// How each input is rendered.
    public let options: BatchOptions

    /// A renderer playing `bank`; its presets are resolved here, once.
    public convenience init(bank: SoundFont, options: BatchOptions = BatchOptions()) {
        self.init(preparedBank: PreparedSoundBank(bank, velocityToFilter: options.render.synthesizer.velocityToFilter),
                  options: options)
    }

    /// A renderer playing a bank whose presets are already resolved (shared with other
    /// renderers or synthesizers).
    public init(preparedBank: PreparedSoundBank, options: BatchOptions = BatchOptions()) {
        bank = preparedBank
        self.options = options
    }

    /// Starts rendering `inputs` into `outputDirectory` and returns at once; the work goes on
    /// on ``BatchOptions/workerCount`` threads.
    ///
    /// - Parameters:
    ///   - inputs: the files (``BatchInput/collect(from:manifest:)`` finds a corpus's).
    ///   - outputDirectory: created if needed; outputs mirror the inputs' tree below it.
    ///   - reportPath: the report; `report.jsonl` in `outputDirectory` by default. Entries
    ///     already in it lend their figures to inputs skipped as done, and inputs this run does
    ///     not render keep their lines.
    ///   - shard: renders only this part of `inputs` (then the whole sorted list, the same for
    ///     every part), and gives the report "-shardI" before its extension.
    /// - Throws: ``BatchError`` when the output directory cannot be made or the report cannot
    ///   be opened.
    public func start(_ inputs: [BatchInput], outputDirectory: String, reportPath: String? = nil,
                      shard: BatchShard? = nil) throws(BatchError) -> BatchRun {
        let directory = outputDirectory.hasSuffix("/") && outputDirectory.count > 1
            ? String(outputDirectory.dropLast()) : outputDirectory
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw BatchError(path: directory, reason: "cannot create the output directory: \(error.localizedDescription)")
        }
        let whole = reportPath ?? directory + "/report.jsonl"
        let report = shard?.reportPath(whole) ?? whole
        let earlier = BatchReport.read(report)
        let writer = try BatchReportWriter(path: report)
        let part = shard?.part(of: inputs) ?? inputs
        var options = options
        options.render.threads = options.threadCount(forInputs: part.count)
        let run = BatchRun(job: BatchJob(bank: bank, batch: options, outputDirectory: directory),
                           inputs: part, reportPath: report,
                           reportPagePath: options.writesReportPage ? BatchReportPage.path(in: directory, shard: shard) : nil,
                           earlier: earlier, writer: writer, workerCount: options.workerCount)
        run.begin()
        return run
    }
}
