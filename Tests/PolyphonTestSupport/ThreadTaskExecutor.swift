import Dispatch

/// Runs the tasks that prefer it on a serial dispatch queue of its own, outside Swift's
/// cooperative pool. A test that must react to something while it happens (a result arriving,
/// a task being cancelled) uses it so that its reaction is not queued behind the other tests'
/// synchronous work on a 2-core machine, where the pool has two threads.
public final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let queue: DispatchQueue

    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
