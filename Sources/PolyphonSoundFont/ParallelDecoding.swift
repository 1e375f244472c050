import Foundation

/// Runs `work` for every index in `0..<count` on every core (decoding a bank's samples ahead of
/// playing) and returns the failure of the lowest index that failed, so the error reported does
/// not depend on thread timing; nil when all succeeded.
package func firstFailure<Failure: Error>(concurrentlyPerforming count: Int,
                                          _ work: @Sendable (Int) throws(Failure) -> Void) -> Failure? {
    let failures = FirstFailure<Failure>()
    DispatchQueue.concurrentPerform(iterations: count) { i in
        do throws(Failure) {
            try work(i)
        } catch {
            failures.record(i, error)
        }
    }
    return failures.first
}

private final class FirstFailure<Failure: Error>: @unchecked Sendable {
    // @unchecked: fields touched only under `lock`.
    private let lock = NSLock()
    private var index = Int.max
    private var failure: Failure?

    func record(_ index: Int, _ failure: Failure) {
        lock.lock()
        defer { lock.unlock() }
        if index < self.index {
            self.index = index
            self.failure = failure
        }
    }

    var first: Failure? {
        lock.lock()
        defer { lock.unlock() }
        return failure
    }
}
