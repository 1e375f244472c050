import Foundation

/// How one input of a batch ended.
enum BatchStatus: String, Codable, Sendable, CaseIterable {
    /// Rendered; every output is in place.
    case ok
    /// Not rendered: unreadable, not a MIDI file, longer than --max-duration, a render or write error.
    case failed
    /// Abandoned after --timeout wall seconds.
    case timeout
    /// Its outputs were already there (a batch run again).
    case skipped
}

/// One line of a batch report (JSON Lines): what happened to one input. Fields that do not
/// apply (no `error` for a file rendered, no figures for one that failed) are left out.
struct BatchReportEntry: Codable, Sendable, Hashable {
    var input: String
    var status: BatchStatus
    /// Paths of the files written (the mix first, then stems and labels).
    var outputs: [String] = []
    /// The reason, naming the place (track, byte offset, time) when there is one.
    var error: String?
    var audioSeconds: Double?
    var renderSeconds: Double?
    var peakDBFS: Double?
    var loudnessLUFS: Double?
    var maxVoices: Int?

    /// Replaces a non-finite figure (the peak or loudness of silence) by nothing: JSON has no −∞.
    static func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }
}

/// Reading, merging and writing batch reports.
///
/// While a batch runs, each input's line is appended as it finishes, so a report survives the
/// process being killed (a line cut short by the kill is skipped when read back). At the end the
/// report is rewritten merged: one line per input, the last status winning, sorted by input.
enum BatchReport {
    private static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    /// The entry as one line, newline included.
    static func line(_ entry: BatchReportEntry) -> Data {
        var data = (try? encoder.encode(entry)) ?? Data()
        data.append(0x0A)
        return data
    }

    /// The entries of a report file in order; lines that are not entries (cut short) are skipped.
    /// A missing file reads as empty.
    static func read(_ path: String) -> [BatchReportEntry] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: 0x0A).compactMap { try? decoder.decode(BatchReportEntry.self, from: Data($0)) }
    }

    /// One entry per input, the later one winning, sorted by input.
    static func merged(_ entries: [BatchReportEntry]) -> [BatchReportEntry] {
        var latest: [String: BatchReportEntry] = [:]
        for e in entries { latest[e.input] = e }
        return latest.values.sorted { $0.input < $1.input }
    }

    /// Writes `entries` to `path` under a temporary name, then renames it into place.
    static func write(_ entries: [BatchReportEntry], to path: String) throws {
        var data = Data()
        for e in entries { data.append(line(e)) }
        try AtomicFile.write(data, to: path)
    }
}

/// Appends report lines from many workers, one whole line per write.
final class BatchReportWriter: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()
    let path: String

    /// Opens `path` for appending, creating it (and its directory) if needed.
    init(path: String) throws {
        self.path = path
        let fm = FileManager.default
        try fm.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if !fm.fileExists(atPath: path) { fm.createFile(atPath: path, contents: nil) }
        guard let h = FileHandle(forWritingAtPath: path) else { throw CLIError("\(path): cannot open the report for writing") }
        h.seekToEndOfFile()
        handle = h
    }

    func append(_ entry: BatchReportEntry) {
        let data = BatchReport.line(entry)
        lock.lock()
        defer { lock.unlock() }
        handle.write(data)
    }

    func close() {
        lock.lock()
        defer { lock.unlock() }
        try? handle.close()
    }
}
