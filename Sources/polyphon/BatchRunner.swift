import Foundation

/// Renders a batch's inputs on `jobs` threads in one process, all sharing the job's bank.
///
/// Workers first estimate every input's cost (``BatchJob/estimatedCost(_:)``, a parse), then a
/// second round of workers takes the inputs from a shared counter, costliest first: a long song
/// started last would leave the other cores idle while it finishes, so the batch ends on short
/// ones. Each result is appended to the report as soon as it is known, and a failure is also
/// said on standard error. The calling thread draws the progress bar (when asked) until every
/// worker has finished.
final class BatchRunner: @unchecked Sendable {
    private let job: BatchJob
    /// The inputs in the order given, then (after the estimates, set by the calling thread
    /// between the two rounds of workers) in the order they are rendered.
    private var inputs: [BatchInput]
    /// Each input's estimated cost, by its index in the order given.
    private var costs: [Double]
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
        self.inputs = inputs
        costs = [Double](repeating: 0, count: inputs.count)
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
        // First every input's cost, then the renders, costliest first.
        onWorkerThreads(named: "estimate") { $0.estimate() }.wait()
        inputs = Self.costliestFirst(inputs, costs: costs)
        next = 0
        let group = onWorkerThreads(named: "render") { $0.work() }
        while group.wait(timeout: .now() + .milliseconds(250)) == .timedOut {
            if showProgress { draw(elapsed()) }
        }
        let wall = elapsed()
        if showProgress { draw(wall); FileHandle.standardError.write(Data("\n".utf8)) }
        lock.lock()
        defer { lock.unlock() }
        return (results, tally, wall)
    }

    /// Runs `body` on `jobs` new threads; the group is left when all have returned.
    private func onWorkerThreads(named name: String, _ body: @escaping @Sendable (BatchRunner) -> Void) -> DispatchGroup {
        let group = DispatchGroup()
        for k in 0..<jobs {
            group.enter()
            let thread = Thread { [self] in
                body(self)
                group.leave()
            }
            thread.name = "polyphon.batch.\(name).\(k)"
            // Room for deep MIDI parsing and the renderer's frames.
            thread.stackSize = 8 << 20
            thread.start()
        }
        return group
    }

    /// The next input's index from the shared counter, or nil when none is left.
    private func takeNext() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        let i = next
        next += 1
        return i < inputs.count ? i : nil
    }

    /// Estimates the costs of inputs taken from the shared counter.
    private func estimate() {
        while let i = takeNext() {
            let cost = job.estimatedCost(inputs[i])
            lock.lock()
            costs[i] = cost
            lock.unlock()
        }
    }

    /// `inputs` by decreasing cost, ties keeping their order.
    static func costliestFirst(_ inputs: [BatchInput], costs: [Double]) -> [BatchInput] {
        inputs.indices.sorted { costs[$0] != costs[$1] ? costs[$0] > costs[$1] : $0 < $1 }.map { inputs[$0] }
    }

    private func work() {
        while let i = takeNext() {
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

    private func draw(_ wallSeconds: Double) {
        lock.lock()
        defer { lock.unlock() }
        barShown = true
        FileHandle.standardError.write(Data("\r\(tally.progressLine(wallSeconds: wallSeconds))\u{1B}[K".utf8))
    }
}
