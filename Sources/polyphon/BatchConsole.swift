import Foundation
import PolyphonBatch

/// `polyphon batch`'s standard error: a progress bar redrawn in place, and lines (failures)
/// that clear it first so the two never mix.
final class BatchConsole: @unchecked Sendable {
    // @unchecked: `barShown` and the writes are guarded by `lock`.
    let showsProgress: Bool
    private let lock = NSLock()
    private var barShown = false

    init(showsProgress: Bool) {
        self.showsProgress = showsProgress
    }

    /// Writes one line, over the bar if one is shown (the next redraw puts it back).
    func say(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        let clear = barShown ? "\r\u{1B}[K" : ""
        FileHandle.standardError.write(Data("\(clear)\(line)\n".utf8))
    }

    /// Redraws the bar every quarter second until `run` has finished, then draws it a last
    /// time and ends its line.
    func drawProgress(of run: BatchRun) async {
        while !run.isFinished {
            draw(run.tally.progressLine(wallSeconds: run.elapsedSeconds))
            try? await Task.sleep(nanoseconds: 250_000_000)
        }
        draw(run.tally.progressLine(wallSeconds: run.elapsedSeconds))
        FileHandle.standardError.write(Data("\n".utf8))
    }

    private func draw(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        barShown = true
        FileHandle.standardError.write(Data("\r\(line)\u{1B}[K".utf8))
    }
}

extension BatchTally {
    /// The line printed at the end, e.g. "12 files: 10 ok, 1 skipped, 1 failed, 0 timed out;
    /// 1.23 h of audio in 14.2 s (312× real time)". Without `wallSeconds` (merged reports),
    /// the audio alone.
    func summaryLine(wallSeconds: Double?) -> String {
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
