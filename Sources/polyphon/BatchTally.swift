import Foundation

/// A batch's running totals: files by status, audio rendered, time taken.
struct BatchTally: Sendable {
    var total = 0
    var counts: [BatchStatus: Int] = [:]
    /// Audio seconds of the files rendered (in a run, skipped files do not count).
    var audioSeconds = 0.0
    var done: Int { counts.values.reduce(0, +) }
    var failures: Int { counts[.failed, default: 0] + counts[.timeout, default: 0] }

    mutating func add(_ entry: BatchReportEntry) {
        counts[entry.status, default: 0] += 1
        if entry.status == .ok { audioSeconds += entry.audioSeconds ?? 0 }
    }

    /// Audio seconds per wall second.
    func speed(wallSeconds: Double) -> Double { wallSeconds > 0 ? audioSeconds / wallSeconds : 0 }

    /// The line printed at the end, e.g. "12 files: 10 ok, 1 skipped, 1 failed, 0 timed out;
    /// 1.23 h of audio in 14.2 s (312× real time)".
    /// Without `wallSeconds` (merged reports), the audio alone.
    func summary(wallSeconds: Double?) -> String {
        let statuses = "\(counts[.ok, default: 0]) ok, \(counts[.skipped, default: 0]) skipped, "
            + "\(counts[.failed, default: 0]) failed, \(counts[.timeout, default: 0]) timed out"
        guard let wallSeconds else {
            return String(format: "%d files: %@; %.3f h of audio", total, statuses, audioSeconds / 3600)
        }
        return String(format: "%d files: %@; %.3f h of audio in %.1f s (%.0f× real time)",
                      total, statuses, audioSeconds / 3600, wallSeconds, speed(wallSeconds: wallSeconds))
    }

    /// The progress bar: files done / total, failures, audio hours, × real time, ETA.
    func progressLine(wallSeconds: Double, width: Int = 24) -> String {
        let fraction = total > 0 ? Double(done) / Double(total) : 1
        let filled = min(width, Int(fraction * Double(width)))
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        var eta = "--:--"
        if done > 0 && done < total {
            let seconds = Int(wallSeconds / Double(done) * Double(total - done))
            eta = seconds >= 3600 ? String(format: "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
                                  : String(format: "%d:%02d", seconds / 60, seconds % 60)
        } else if done == total {
            eta = "0:00"
        }
        return String(format: "%@ %d/%d files, %d failed, %.2f h audio, %.0f× real time, ETA %@",
                      bar, done, total, failures, audioSeconds / 3600, speed(wallSeconds: wallSeconds), eta)
    }
}
