import Foundation

/// A batch's report as one self-contained web page (`index.html` in the output directory): the
/// summary, then a table of every input — status (with the error of a failure), duration, peak,
/// loudness, most voices, render time, outliers flagged (``BatchOutlier``), the picture as a
/// thumbnail that opens full size, and a player for its audio.
///
/// The page needs no network: its style, script and data are inline, and pictures and audio are
/// linked relative to the page, so the output directory can be copied anywhere and opened from
/// disk. Every column sorts; statuses and flagged inputs filter; failures come first. While the
/// batch runs, inputs not finished yet are listed as pending and the page reloads itself every
/// ten seconds, keeping its sort and filters.
///
/// ``BatchRenderer`` writes it as the batch goes when ``BatchOptions/writesReportPage`` is set;
/// for merged shard reports, make one from the merged entries:
///
/// ```swift
/// let entries = BatchReport.merged(try BatchReport.shardReports(in: "audio").flatMap(BatchReport.read))
/// try BatchReportPage(entries: entries, outputDirectory: "audio").write(to: "audio/index.html")
/// ```
public struct BatchReportPage: Sendable {
    /// The finished inputs, one entry each.
    public var entries: [BatchReportEntry]
    /// Inputs not finished yet (a batch under way), by path.
    public var pending: [String] = []
    /// The directory the page is written to and whose outputs it links (relative to it).
    public var outputDirectory: String
    /// The bank the batch played, for the summary.
    public var bankName: String?
    /// Wall seconds the batch has taken, for its speed; nil for merged reports (each entry's
    /// render time is summed instead, the speed of one worker).
    public var wallSeconds: Double?
    /// Whether the batch is still running: the page then reloads itself.
    public var isRunning = false

    public init(entries: [BatchReportEntry], pending: [String] = [], outputDirectory: String,
                bankName: String? = nil, wallSeconds: Double? = nil, isRunning: Bool = false) {
        self.entries = entries
        self.pending = pending
        self.outputDirectory = outputDirectory
        self.bankName = bankName
        self.wallSeconds = wallSeconds
        self.isRunning = isRunning
    }

    /// The page's path in `outputDirectory`: `index.html`, or `index-shardI.html` for a shard.
    public static func path(in outputDirectory: String, shard: BatchShard? = nil) -> String {
        let whole = outputDirectory + "/index.html"
        return shard?.reportPath(whole) ?? whole
    }

    /// Writes the page under a temporary name, then renames it into place, so that a browser
    /// reloading it never reads half a page.
    /// - Throws: ``BatchError`` when it cannot be written.
    public func write(to path: String) throws(BatchError) {
        try AtomicFile.write(Data(html().utf8), to: path)
    }

    /// One row of the table, as the page's script reads it: the input's report entry (its
    /// fields as the report has them), or only its path and "pending"; then the name shown,
    /// links to its picture and mix, and its flags.
    struct Row: Encodable {
        /// Nil while the input is pending.
        var entry: BatchReportEntry?
        var path: String
        var name: String
        var picture: String?
        var audio: String?
        var flags: [String] = []

        var status: String { entry?.status.rawValue ?? "pending" }

        private enum Keys: String, CodingKey { case input, status, name, picture, audio, flags }

        func encode(to encoder: any Encoder) throws {
            try entry?.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            if entry == nil {
                try container.encode(path, forKey: .input)
                try container.encode(status, forKey: .status)
            }
            try container.encode(name, forKey: .name)
            try container.encodeIfPresent(picture, forKey: .picture)
            try container.encodeIfPresent(audio, forKey: .audio)
            try container.encode(flags, forKey: .flags)
        }
    }

    /// What the page shows, before it becomes HTML.
    struct Content: Encodable {
        var title: String
        var root: String
        var rows: [Row]
        var counts: [String: Int]
        var total: Int
        var audioHours: Double
        var speed: Double?
        var speedIsPerWorker: Bool
        var medianLoudness: Double?
        var bank: String?
        var generated: String
        var running: Bool
        var flagRule: String
    }

    func content(now: Date = Date()) -> Content {
        let median = BatchOutlier.medianLoudness(of: entries)
        let allInputs = entries.map(\.input) + pending
        let root = Self.commonDirectory(of: allInputs)
        func shown(_ path: String) -> String {
            root.isEmpty ? path : String(path.dropFirst(root.count + (root.hasSuffix("/") ? 0 : 1)))
        }
        var rows = entries.map { e in
            let media = e.status == .ok || e.status == .skipped ? e.outputs : []
            let picture = media.first { $0.hasSuffix(".png") || $0.hasSuffix(".svg") }
            return Row(entry: e, path: e.input, name: shown(e.input), picture: picture.flatMap(link),
                       audio: media.first.flatMap(link),
                       flags: BatchOutlier.outliers(of: e, medianLoudness: median).map(\.label))
        }
        rows += pending.map { Row(path: $0, name: shown($0)) }
        let tally = BatchTally(entries: entries)
        var counts: [String: Int] = [:]
        for status in BatchStatus.allCases { counts[status.rawValue] = tally.counts[status, default: 0] }
        counts["pending"] = pending.count
        let rendered = entries.filter { $0.status == .ok }
        let renderSeconds = rendered.compactMap(\.renderSeconds).reduce(0, +)
        let speed = wallSeconds.map { tally.speed(wallSeconds: $0) }
            ?? (renderSeconds > 0 ? tally.audioSeconds / renderSeconds : nil)
        let formatter = ISO8601DateFormatter()
        return Content(title: "Batch report: " + (outputDirectory as NSString).lastPathComponent, root: root,
                       rows: rows, counts: counts, total: entries.count + pending.count,
                       audioHours: tally.audioSeconds / 3600, speed: speed, speedIsPerWorker: wallSeconds == nil,
                       medianLoudness: median, bank: bankName, generated: formatter.string(from: now),
                       running: isRunning,
                       flagRule: "silent: peak below \(Int(BatchOutlier.silenceThreshold)) dBFS; clipping: peak at "
                           + "0 dBFS or above; peak above \(Int(BatchOutlier.headroomThreshold)) dBFS; loud / quiet: "
                           + "integrated loudness more than \(Int(BatchOutlier.loudnessDistance)) LU from the "
                           + "median of the files rendered (about twice or half as loud); repaired: the MIDI "
                           + "file has defects the reader played past (cut short, wrong track lengths), listed "
                           + "under its status")
    }

    /// The page's HTML.
    public func html() -> String {
        let content = content()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(content)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        // Inside <script> only "</script" could end the data early; "<" as \u003c is the same JSON.
        let data = json.replacingOccurrences(of: "<", with: "\\u003c")
        return BatchReportPageTemplate.page(title: Self.escaped(content.title), refresh: isRunning, data: data)
    }

    /// `output` as a link relative to the page: its path below ``outputDirectory``. A report
    /// written elsewhere (a shard on another machine, another working directory) names outputs
    /// under another prefix; then the longest tail of the path that exists below the output
    /// directory is taken. Nil when none does; each component percent-encoded.
    func link(_ output: String) -> String? {
        let directory = outputDirectory.hasSuffix("/") ? String(outputDirectory.dropLast()) : outputDirectory
        var relative: String?
        if output.hasPrefix(directory + "/") {
            relative = String(output.dropFirst(directory.count + 1))
        } else {
            let parts = output.split(separator: "/")
            for start in parts.indices {
                let tail = parts[start...].joined(separator: "/")
                if FileManager.default.fileExists(atPath: directory + "/" + tail) {
                    relative = tail
                    break
                }
            }
        }
        guard let relative else { return nil }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#;")
        return relative.split(separator: "/", omittingEmptySubsequences: true)
            .map { String($0).addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0) }
            .joined(separator: "/")
    }

    /// The directory every path is under ("" when they share none), to show inputs by the
    /// rest of their paths.
    static func commonDirectory(of paths: [String]) -> String {
        guard var common = paths.first.map({ ($0 as NSString).deletingLastPathComponent }) else { return "" }
        for path in paths.dropFirst() {
            while !common.isEmpty && !(path.hasPrefix(common + "/") || common == "/" && path.hasPrefix("/")) {
                let parent = (common as NSString).deletingLastPathComponent
                common = parent == common ? "" : parent
            }
        }
        return common
    }

    /// `text` safe in HTML.
    static func escaped(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
