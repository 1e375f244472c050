import Foundation

/// Renders a batch's inputs on `jobs` threads in one process, all sharing the job's bank.
///
/// Workers take the next input from a shared counter, largest file first: a long song started
/// last would leave the other cores idle while it finishes, so the batch ends on short ones.
/// Each result is appended to the report as soon as it is known, and a failure is also said on standard error. The calling thread draws
/// the progress bar (when asked) until every worker has finished.
final class BatchRunner: @unchecked Sendable {
    private let job: BatchJob
    /// The inputs in the order workers take them.
    private let inputs: [BatchInput]
    private let previous: [String: BatchReportEntry]
    private let report: BatchReportWriter
    private let jobs: Int
    private let showProgress: Bool

    private let lock = NSLock()
    // Guarded by `lock`.
    private var next = 0
    private var results: [BatchReportEntry] = []
    private var tally = BatchTally()
    private var barShown = false

    init(job: BatchJob, inputs: [BatchInput], previous: [String: BatchReportEntry], report: BatchReportWriter,
         jobs: Int, showProgress: Bool) {
        self.job = job
        self.inputs = Self.largestFirst(inputs)
        self.previous = previous
        self.report = report
        self.jobs = max(1, min(jobs, max(1, inputs.count)))
        self.showProgress = showProgress
        tally.total = inputs.count
    }

    /// Renders every input; returns the entries in the order they finished and the totals.
    func run() -> (entries: [BatchReportEntry], tally: BatchTally, wallSeconds: Double) {
        let started = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 }
        let group = DispatchGroup()
        for k in 0..<jobs {
            group.enter()
            let thread = Thread { [self] in
                work()
                group.leave()
            }
            thread.name = "polyphon.batch.\(k)"
            // Room for deep MIDI parsing and the renderer's frames.
            thread.stackSize = 8 << 20
            thread.start()
        }
        while group.wait(timeout: .now() + .milliseconds(250)) == .timedOut {
            if showProgress { draw(elapsed()) }
        }
        let wall = elapsed()
        if showProgress { draw(wall); FileHandle.standardError.write(Data("\n".utf8)) }
        lock.lock()
        defer { lock.unlock() }
        return (results, tally, wall)
    }

    private func work() {
        while true {
            lock.lock()
            let i = next
            next += 1
            lock.unlock()
            guard i < inputs.count else { return }
            let input = inputs[i]
            let entry = job.run(input, previous: previous[input.path])
            report.append(entry)
            lock.lock()
            results.append(entry)
            tally.add(entry)
            if let error = entry.error {
                let clear = barShown ? "\r\u{1B}[K" : ""
                FileHandle.standardError.write(Data("\(clear)polyphon: \(entry.status.rawValue): \(error)\n".utf8))
            }
            lock.unlock()
        }
    }

    /// `inputs` by decreasing file size (a song's rendering time grows with its events), ties
    /// and unreadable files keeping their order.
    static func largestFirst(_ inputs: [BatchInput]) -> [BatchInput] {
        let sizes = inputs.map { input -> Int64 in
            var info = stat()
            return stat(input.path, &info) == 0 ? Int64(info.st_size) : 0
        }
        return inputs.indices.sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }.map { inputs[$0] }
    }

    private func draw(_ wallSeconds: Double) {
        lock.lock()
        defer { lock.unlock() }
        barShown = true
        FileHandle.standardError.write(Data("\r\(tally.progressLine(wallSeconds: wallSeconds))\u{1B}[K".utf8))
    }
}
