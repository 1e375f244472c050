/// A batch's totals: inputs by status and the audio rendered.
public struct BatchTally: Sendable, Hashable {
    /// The inputs of the run (or of the merged reports).
    public var total = 0
    /// Inputs finished, by how they ended.
    public var counts: [BatchStatus: Int] = [:]
    /// Audio seconds of the inputs rendered (skipped inputs do not count).
    public var audioSeconds = 0.0

    /// Totals of nothing yet, out of `total` inputs.
    public init(total: Int = 0) {
        self.total = total
    }

    /// The totals of `entries` (a report), one input per entry.
    public init(entries: [BatchReportEntry]) {
        total = entries.count
        for e in entries { add(e) }
    }

    /// Inputs finished, whatever their status.
    public var done: Int { counts.values.reduce(0, +) }
    /// Inputs that failed or timed out.
    public var failures: Int { counts[.failed, default: 0] + counts[.timeout, default: 0] }

    /// Counts one finished input.
    public mutating func add(_ entry: BatchReportEntry) {
        counts[entry.status, default: 0] += 1
        if entry.status == .ok { audioSeconds += entry.audioSeconds ?? 0 }
    }

    /// Audio seconds per wall second.
    public func speed(wallSeconds: Double) -> Double { wallSeconds > 0 ? audioSeconds / wallSeconds : 0 }
}
