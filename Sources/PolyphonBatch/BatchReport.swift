import Foundation

/// How one input of a batch ended.
public enum BatchStatus: String, Codable, Sendable, CaseIterable {
    /// Rendered; every output is in place.
    case ok
    /// Not rendered: unreadable, not a MIDI file, longer than the duration limit, a render or
    /// write error.
    case failed
    /// Abandoned after ``BatchOptions/timeout`` wall seconds.
    case timeout
    /// Its outputs were already there (a batch run again).
    case skipped
}

/// What happened to one input: one line of a batch report (JSON Lines). Fields that do not
/// apply (no `error` for a file rendered, no figures for one that failed) are left out.
public struct BatchReportEntry: Codable, Sendable, Hashable {
    /// The input's path (``BatchInput/path``): the report's key.
    public var input: String
    /// How it ended.
    public var status: BatchStatus
    /// Paths of the files written (the mix first, then stems, labels and picture).
    public var outputs: [String] = []
    /// The reason, naming the place (track, byte offset, time) when there is one.
    public var error: String?
    /// Seconds of audio rendered.
    public var audioSeconds: Double?
    /// Wall seconds the input took, parsing and writing included.
    public var renderSeconds: Double?
    /// The mix's sample peak in dBFS.
    public var peakDBFS: Double?
    /// The mix's integrated loudness (ITU-R BS.1770) in LUFS.
    public var loudnessLUFS: Double?
    /// The most voices sounding at once.
    public var maxVoices: Int?
    /// What the MIDI reader repaired to play the file (cut short, wrong track lengths, a track
    /// count the file does not hold…), each naming the track and byte offset
    /// (`MIDIFileWarning` of PolyphonMIDI); left out when it read cleanly.
    public var warnings: [String]?

    /// An entry with the given fields; the others are left out.
    public init(input: String, status: BatchStatus, outputs: [String] = [], error: String? = nil,
                audioSeconds: Double? = nil, renderSeconds: Double? = nil, peakDBFS: Double? = nil,
                loudnessLUFS: Double? = nil, maxVoices: Int? = nil, warnings: [String]? = nil) {
        self.input = input
        self.status = status
        self.outputs = outputs
        self.error = error
        self.audioSeconds = audioSeconds
        self.renderSeconds = renderSeconds
        self.peakDBFS = peakDBFS
        self.loudnessLUFS = loudnessLUFS
        self.maxVoices = maxVoices
        self.warnings = warnings
    }

    /// Replaces a non-finite figure (the peak or loudness of silence) by nothing: JSON has no −∞.
    static func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }
}

/// Reading, merging and writing batch reports.
///
/// While a batch runs, each input's line is appended as it finishes, so a report survives the
/// process being killed (a line cut short by the kill is skipped when read back). At the end the
/// report is rewritten merged: one line per input, the last status winning, sorted by input.
public enum BatchReport {
    private static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    /// The entry as one line of JSON, newline included.
    public static func line(_ entry: BatchReportEntry) -> Data {
        var data = (try? encoder.encode(entry)) ?? Data()
        data.append(0x0A)
        return data
    }

    /// The entries of the report at `path`, in order; lines that are not entries (cut short)
    /// are skipped. A missing file reads as empty.
    public static func read(_ path: String) -> [BatchReportEntry] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: 0x0A).compactMap { try? decoder.decode(BatchReportEntry.self, from: Data($0)) }
    }

    /// One entry per input, the later one winning, sorted by input.
    public static func merged(_ entries: [BatchReportEntry]) -> [BatchReportEntry] {
        var latest: [String: BatchReportEntry] = [:]
        for e in entries { latest[e.input] = e }
        return latest.values.sorted { $0.input < $1.input }
    }

    /// Writes `entries` to `path` under a temporary name, then renames it into place, so the
    /// file is always whole.
    /// - Throws: ``BatchError`` when the file cannot be written.
    public static func write(_ entries: [BatchReportEntry], to path: String) throws(BatchError) {
        var data = Data()
        for e in entries { data.append(line(e)) }
        try AtomicFile.write(data, to: path)
    }

    /// The reports the parts of a sharded batch wrote into `directory` (`report-shardI.jsonl`,
    /// see ``BatchShard/reportPath(_:)``), by part number.
    /// - Throws: ``BatchError`` when the directory cannot be read.
    public static func shardReports(in directory: String) throws(BatchError) -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw BatchError(path: directory, reason: "cannot list: \(error.localizedDescription)")
        }
        return names.filter { $0.hasPrefix("report-shard") && $0.hasSuffix(".jsonl") }
            .sorted { shardNumber($0) < shardNumber($1) }
            .map { directory + "/" + $0 }
    }

    private static func shardNumber(_ name: String) -> Int {
        Int(name.dropFirst("report-shard".count).dropLast(".jsonl".count)) ?? .max
    }
}

/// Appends report lines from many workers, one whole line per write.
final class BatchReportWriter: @unchecked Sendable {
    // @unchecked: the handle is used under `lock` only.
    private let handle: FileHandle
    private let lock = NSLock()
    let path: String

    /// Opens `path` for appending, creating it (and its directory) if needed.
    init(path: String) throws(BatchError) {
        self.path = path
        let fm = FileManager.default
        do {
            try fm.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        } catch {
            throw BatchError(path: path, reason: "cannot create the report's directory: \(error.localizedDescription)")
        }
        if !fm.fileExists(atPath: path) { _ = fm.createFile(atPath: path, contents: nil) }
        guard let h = FileHandle(forWritingAtPath: path) else {
            throw BatchError(path: path, reason: "cannot open the report for writing")
        }
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
