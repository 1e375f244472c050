import Foundation

/// Hands rendered blocks to a consumer running on its own thread, so encoding, metering and
/// writing a file overlap with synthesis instead of following it block by block.
///
/// Blocks are copied into a fixed ring of slots allocated up front; the producer waits only when
/// every slot is full (the consumer is behind). The consumer is woken only once half the ring is
/// filled, then takes everything there: waking a thread per block would cost more than the
/// block's own encoding. The
/// consumer sees the blocks in order, so what it computes is the same as in-line processing. A
/// consumer error stops the pipeline and is rethrown to the producer by its next ``push`` or by
/// ``finish()``.
final class BlockPipeline: @unchecked Sendable {
    typealias Consumer = (UnsafePointer<Float>, UnsafePointer<Float>, Int) throws -> Void

    private let capacity: Int
    private let depth: Int
    private let left: UnsafeMutablePointer<Float>
    private let right: UnsafeMutablePointer<Float>
    private let counts: UnsafeMutablePointer<Int>
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var head = 0, filled = 0
    private var closed = false, done = false
    private var failure: Error?
    private let consumer: Consumer

    /// Starts the consumer thread. `capacity` is the largest block the producer will push.
    init(blockCapacity capacity: Int, depth: Int = 16, consumer: @escaping Consumer) {
        self.capacity = capacity
        self.depth = depth
        self.consumer = consumer
        left = .allocate(capacity: capacity * depth)
        right = .allocate(capacity: capacity * depth)
        counts = .allocate(capacity: depth)
        counts.initialize(repeating: 0, count: depth)
        let thread = Thread { [self] in run() }
        thread.name = "polyphon.writer"
        thread.start()
    }

    deinit {
        left.deallocate()
        right.deallocate()
        counts.deallocate()
    }

    /// Queues a copy of one block (at most the capacity), waiting while the ring is full.
    func push(_ l: UnsafePointer<Float>, _ r: UnsafePointer<Float>, _ n: Int) throws {
        precondition(n <= capacity, "block larger than the pipeline's capacity")
        condition.lock()
        while filled == depth && failure == nil { condition.wait() }
        if let failure {
            condition.unlock()
            throw failure
        }
        let slot = (head + filled) % depth
        condition.unlock()
        // The slot is the producer's alone until `filled` counts it.
        (left + slot * capacity).update(from: l, count: n)
        (right + slot * capacity).update(from: r, count: n)
        counts[slot] = n
        condition.lock()
        filled += 1
        if filled >= depth / 2 { condition.signal() }
        condition.unlock()
    }

    /// Waits until the consumer has taken every block, stops its thread, and rethrows its error.
    func finish() throws {
        condition.lock()
        closed = true
        condition.broadcast()
        while !done { condition.wait() }
        let failure = self.failure
        condition.unlock()
        if let failure { throw failure }
    }

    private func run() {
        let threshold = max(1, depth / 2)
        while true {
            condition.lock()
            while filled < threshold && !closed { condition.wait() }
            if filled == 0 {
                // Closed and drained.
                done = true
                condition.broadcast()
                condition.unlock()
                return
            }
            condition.unlock()
            // Take everything queued before waiting again.
            while true {
                condition.lock()
                if filled == 0 {
                    condition.unlock()
                    break
                }
                let slot = head
                condition.unlock()
                do {
                    try consumer(left + slot * capacity, right + slot * capacity, counts[slot])
                } catch {
                    condition.lock()
                    failure = error
                    done = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                condition.lock()
                head = (head + 1) % depth
                filled -= 1
                // The producer waits only on a full ring.
                if filled == depth - 1 { condition.signal() }
                condition.unlock()
            }
        }
    }
}
