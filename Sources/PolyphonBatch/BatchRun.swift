import Foundation
import PolyphonPlayback

/// A batch being rendered: each input's result as it finishes, the totals so far, a cancel.
///
/// ``BatchRenderer/start(_:outputDirectory:reportPath:shard:)`` makes one and the work starts at
/// once, on threads of its own (a render blocks its thread for as long as it takes, so it does
/// not belong on Swift concurrency's cooperative pool). Workers first estimate every input's
/// cost (a parse), then take the inputs costliest first: a long song started last would leave
/// the other cores idle while it finishes, so the batch ends on short ones.
///
/// Each result is appended to the report as it is known and delivered on ``results``. When
/// the last worker is done the report is rewritten merged (one line per input, sorted), then
/// ``results`` ends and ``waitUntilFinished()`` returns. With
/// ``BatchOptions/writesReportPage``, the report page (``reportPagePath``) is written at the
/// start, rewritten as inputs finish — at most every ``pageInterval`` seconds, and never
/// spending more than a twentieth of one core on it for a huge corpus — and at the end.
///
/// ```swift
/// let run = try renderer.start(inputs, outputDirectory: "audio")
/// for await entry in run.results where entry.status == .failed {
///     print(entry.error ?? "")
/// }
/// let tally = try await run.waitUntilFinished()
/// ```
public final class BatchRun: @unchecked Sendable {
    // @unchecked: what changes while the run goes on is guarded by `lock`.

    /// The inputs of this run, in the order given.
    public let inputs: [BatchInput]
    /// Where the outputs go, mirroring the inputs' tree.
    public let outputDirectory: String
    /// The report (JSON Lines) this run appends to and rewrites at the end.
    public let reportPath: String
    /// The report page (``BatchReportPage``) this run keeps up to date, when it writes one.
    public let reportPagePath: String?
    /// Each input's entry as it finishes, in the order they finish; the sequence ends when the
    /// run has finished and the report is rewritten. Inputs cancelled before they finished
    /// have none. Iterate it from one task; cancelling that task cancels the run.
    public let results: AsyncStream<BatchReportEntry>

    private let job: BatchJob
    /// The report's entries from before this run: resumed inputs keep their figures, and the
    /// merged report keeps inputs this run did not render.
    private let earlier: [BatchReportEntry]
    private let previous: [String: BatchReportEntry]
    private let writer: BatchReportWriter
    private let workerCount: Int
    private let continuation: AsyncStream<BatchReportEntry>.Continuation
    private let started = DispatchTime.now().uptimeNanoseconds

    private let lock = NSLock()
    // Guarded by `lock`.
    /// The inputs in the order given, then (between the estimates and the renders) in the
    /// order they are rendered.
    private var order: [BatchInput]
    /// Each input's estimated cost, by its index in the order given.
    private var costs: [Double]
    private var next = 0
    private var entries: [BatchReportEntry] = []
    private var runningTally: BatchTally
    private var cancelled = false
    /// The cancellations of the renders under way.
    private var active: [ObjectIdentifier: RenderCancellation] = [:]
    private var endedAt: UInt64?
    private var outcome: Result<BatchTally, BatchError>?
    private var waiters: [CheckedContinuation<Result<BatchTally, BatchError>, Never>] = []
    /// When the page was last written (uptime nanoseconds), and how long that took.
    private var pageWrittenAt: UInt64 = 0
    private var pageWriteSeconds = 0.0
    /// Held while the page is written: one writer at a time, and a worker finding it held
    /// does not wait (the writer in progress, or the next, shows its entry).
    private let pageLock = NSLock()

    /// Seconds between two rewrites of the report page while the run goes on: often enough to
    /// watch, rarely enough that a corpus of 100,000 files does not spend its time writing pages.
    public static let pageInterval = 2.0

    init(job: BatchJob, inputs: [BatchInput], reportPath: String, reportPagePath: String?,
         earlier: [BatchReportEntry], writer: BatchReportWriter, workerCount: Int) {
        self.job = job
        self.inputs = inputs
        outputDirectory = job.outputDirectory
        self.reportPath = reportPath
        self.reportPagePath = reportPagePath
        self.earlier = earlier
        var previous: [String: BatchReportEntry] = [:]
        for e in earlier { previous[e.input] = e }
        self.previous = previous
        self.writer = writer
        self.workerCount = max(1, min(workerCount, max(1, inputs.count)))
        order = inputs
        costs = [Double](repeating: 0, count: inputs.count)
        runningTally = BatchTally(total: inputs.count)
        (results, continuation) = AsyncStream.makeStream(of: BatchReportEntry.self)
        continuation.onTermination = { [weak self] termination in
            if case .cancelled = termination { self?.cancel() }
        }
    }

    /// The totals so far: inputs finished by status, audio rendered.
    public var tally: BatchTally { locked { runningTally } }

    /// Wall seconds since the run started, until its last render ended.
    public var elapsedSeconds: Double {
        let end = locked { endedAt } ?? DispatchTime.now().uptimeNanoseconds
        return Double(end - started) / 1e9
    }

    /// Whether every worker is done and the report rewritten.
    public var isFinished: Bool { locked { outcome != nil } }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { locked { cancelled } }

    /// Stops the run: no input is started any more, and renders under way stop within one
    /// block, their outputs removed and no entry made for them (a run started again renders
    /// them). Inputs already finished keep their outputs and entries; the report is still
    /// rewritten.
    public func cancel() {
        let running = locked {
            cancelled = true
            return Array(active.values)
        }
        for c in running { c.cancel() }
    }

    /// Waits until every worker is done and the report is rewritten, and returns the totals.
    /// Cancelling the waiting task cancels the run.
    /// - Throws: ``BatchError`` when the report could not be rewritten.
    @discardableResult
    public func waitUntilFinished() async throws(BatchError) -> BatchTally {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Result<BatchTally, BatchError>, Never>) in
                let done: Result<BatchTally, BatchError>? = locked {
                    if outcome == nil { waiters.append(waiter) }
                    return outcome
                }
                if let done { waiter.resume(returning: done) }
            }
        } onCancel: {
            cancel()
        }
        return try result.get()
    }

    // MARK: - The work

    /// Starts the coordinating thread: estimates, renders, the report.
    func begin() {
        let thread = Thread { [self] in coordinate() }
        thread.name = "polyphon.batch"
        thread.start()
    }

    private func coordinate() {
        writePage(force: true)
        onWorkerThreads(named: "estimate") { $0.estimate() }.wait()
        locked {
            order = Self.costliestFirst(order, costs: costs)
            next = 0
        }
        onWorkerThreads(named: "render") { $0.work() }.wait()
        locked { endedAt = DispatchTime.now().uptimeNanoseconds }
        writer.close()
        let finished = locked { (entries, runningTally) }
        var result: Result<BatchTally, BatchError>
        do {
            try BatchReport.write(BatchReport.merged(earlier + finished.0), to: reportPath)
            result = .success(finished.1)
        } catch {
            result = .failure(error)
        }
        if let error = writePage(force: true, finished: true), case .success = result { result = .failure(error) }
        let waiting = locked {
            outcome = result
            defer { waiters = [] }
            return waiters
        }
        continuation.finish()
        for w in waiting { w.resume(returning: result) }
    }

    /// Runs `body` on `workerCount` new threads; the group is left when all have returned.
    private func onWorkerThreads(named name: String, _ body: @escaping @Sendable (BatchRun) -> Void) -> DispatchGroup {
        let group = DispatchGroup()
        for k in 0..<workerCount {
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

    /// The next input and its index from the shared counter, or nil when none is left or the
    /// run is cancelled.
    private func takeNext() -> (index: Int, input: BatchInput)? {
        locked {
            guard !cancelled, next < order.count else { return nil }
            next += 1
            return (next - 1, order[next - 1])
        }
    }

    /// Estimates the costs of inputs taken from the shared counter.
    private func estimate() {
        while let (i, input) = takeNext() {
            let cost = job.estimatedCost(input)
            locked { costs[i] = cost }
        }
    }

    /// `inputs` by decreasing cost, ties keeping their order.
    static func costliestFirst(_ inputs: [BatchInput], costs: [Double]) -> [BatchInput] {
        inputs.indices.sorted { costs[$0] != costs[$1] ? costs[$0] > costs[$1] : $0 < $1 }.map { inputs[$0] }
    }

    /// Renders inputs taken from the shared counter.
    private func work() {
        while let (_, input) = takeNext() {
            let cancellation = RenderCancellation(timeLimit: job.batch.timeout)
            let key = ObjectIdentifier(cancellation)
            let startable = locked {
                active[key] = cancellation
                return !cancelled
            }
            let entry = startable ? job.run(input, previous: previous[input.path], cancellation: cancellation) : nil
            locked { active[key] = nil }
            guard let entry else { continue }
            writer.append(entry)
            locked {
                entries.append(entry)
                runningTally.add(entry)
            }
            continuation.yield(entry)
            writePage(force: false)
        }
    }

    /// Rewrites the report page, when this run writes one: if `force`, or if the last write is
    /// old enough (``pageInterval``, or twenty times what it took) and no other worker is
    /// writing it. Returns the error of a forced
    /// write; a failed write on the way is left for the next to retry.
    @discardableResult
    private func writePage(force: Bool, finished: Bool = false) -> BatchError? {
        guard let reportPagePath else { return nil }
        let now = DispatchTime.now().uptimeNanoseconds
        let due = locked {
            force || Double(now - pageWrittenAt) / 1e9 >= max(Self.pageInterval, 20 * pageWriteSeconds)
        }
        guard due else { return nil }
        if force {
            pageLock.lock()
        } else if !pageLock.try() {
            return nil
        }
        defer { pageLock.unlock() }
        let (done, wall) = locked {
            pageWrittenAt = now
            return (entries, Double((endedAt ?? now) - started) / 1e9)
        }
        let finishedInputs = Set(done.map(\.input))
        let pending = finished ? [] : inputs.map(\.path).filter { !finishedInputs.contains($0) }
        let waiting = Set(pending)
        let merged = BatchReport.merged(earlier + done).filter { !waiting.contains($0.input) }
        let page = BatchReportPage(entries: merged, pending: pending, outputDirectory: outputDirectory,
                                   bankName: job.batch.bankName, wallSeconds: wall, isRunning: !finished)
        defer {
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - now) / 1e9
            locked { pageWriteSeconds = seconds }
        }
        do {
            try page.write(to: reportPagePath)
            return nil
        } catch {
            return error
        }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
