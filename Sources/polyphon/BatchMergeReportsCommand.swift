import ArgumentParser
import Foundation
import PolyphonBatch

/// `polyphon batch merge-reports`: one report from the reports of a batch's shards (or of
/// several runs), one line per input, the last status winning.
struct BatchMergeReportsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-reports",
        abstract: "Merge batch reports into one, one line per input.",
        discussion: """
            Give report files, or an output directory to merge its report-shard*.jsonl into \
            OUTDIR/report.jsonl. Reports are read in the order given; for an input in several, \
            the last line wins. Prints the totals; exit code 1 when any input failed or timed out. \
            --html also writes the report page (index.html) beside the merged report, its links \
            relative to that directory.
            """)

    @Argument(help: "Report files, or a batch's output directory.")
    var reports: [String]

    @Option(name: .shortAndLong, help: "The merged report. Default: DIR/report.jsonl when one directory is given.")
    var output: String?

    @Flag(help: "Also write index.html beside the merged report: the report as a web page.")
    var html = false

    func validate() throws {
        var isDirectory: ObjCBool = false
        let oneDirectory = reports.count == 1
            && FileManager.default.fileExists(atPath: reports[0], isDirectory: &isDirectory) && isDirectory.boolValue
        if output == nil && !oneDirectory { throw ValidationError("give -o/--output, or one output directory") }
    }

    func run() throws {
        let fm = FileManager.default
        var files: [String] = []
        var defaultOutput: String?
        for r in reports {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: r, isDirectory: &isDirectory) else { throw CLIError("\(r): no such file") }
            if isDirectory.boolValue {
                let found = try BatchReport.shardReports(in: r)
                if found.isEmpty { throw CLIError("\(r): no report-shard*.jsonl here") }
                files += found
                defaultOutput = r + "/report.jsonl"
            } else {
                files.append(r)
            }
        }
        let merged = BatchReport.merged(files.flatMap(BatchReport.read))
        let path = output ?? defaultOutput!
        try BatchReport.write(merged, to: path)
        let tally = BatchTally(entries: merged)
        var page = ""
        if html {
            let directory = (path as NSString).deletingLastPathComponent
            let pagePath = BatchReportPage.path(in: directory.isEmpty ? "." : directory)
            try BatchReportPage(entries: merged, outputDirectory: directory.isEmpty ? "." : directory).write(to: pagePath)
            page = ", page \(pagePath)"
        }
        print("polyphon batch merge-reports: \(files.count) reports, \(tally.summaryLine(wallSeconds: nil)); merged into \(path)\(page)")
        if tally.failures > 0 { throw ExitCode(1) }
    }
}
