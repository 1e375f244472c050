import PolyphonSoundFont
import Dispatch

/// Renders independent items on all cores. Each item's result depends only on the item (its
/// own seed, no shared mutable state), and results are returned in item order, so the bank's
/// bytes do not depend on scheduling.
enum ParallelRendering {
    /// `transform(i)` for i in 0..<count, computed concurrently, in index order.
    static func map<T>(_ count: Int, _ transform: (Int) -> T) -> [T] {
        let results = ResultSlots<T>(count: count)
        withoutActuallyEscaping(transform) { transform in
            let work = UncheckedSendable(transform)
            DispatchQueue.concurrentPerform(iterations: count) { i in
                results.store(work.value(i), at: i)
            }
        }
        return results.collect()
    }
}

/// One slot per result, each written by exactly one iteration.
private final class ResultSlots<T>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<T?>
    private let count: Int

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: max(count, 1))
        slots.initialize(repeating: nil, count: count)
    }

    func store(_ value: T, at index: Int) { slots[index] = value }

    func collect() -> [T] { (0..<count).map { slots[$0]! } }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }
}

/// Carries a value the compiler cannot prove Sendable into the concurrent loop; the closures
/// passed in only read their captures.
private struct UncheckedSendable<V>: @unchecked Sendable {
    let value: V
    init(_ value: V) { self.value = value }
}
