import Atomics

/// A bounded, lock-free queue between exactly one producer thread and one consumer thread.
///
/// The player uses it in both directions: the render thread produces callbacks for the caller's
/// thread, and the caller's thread produces commands for the render thread. Neither side ever
/// waits for the other: a full queue refuses the push, an empty one returns `nil`.
///
/// Slots are preallocated and hold `nil` when free. The consumer moves a value out and leaves
/// `nil` behind, so the producer only ever overwrites an empty slot and never releases a value
/// (which could free memory on a real-time thread).
final class SPSCRing<Element>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Element?>
    private let mask: Int
    /// The next slot to read; written by the consumer only.
    private let head = ManagedAtomic<Int>(0)
    /// The next slot to write; written by the producer only.
    private let tail = ManagedAtomic<Int>(0)

    /// Creates a queue holding at least `minimumCapacity` elements (rounded up to a power of two).
    init(minimumCapacity: Int) {
        var capacity = 2
        while capacity < minimumCapacity { capacity <<= 1 }
        mask = capacity - 1
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
    }

    deinit {
        slots.deinitialize(count: mask + 1)
        slots.deallocate()
    }

    /// The number of elements the queue holds when full.
    var capacity: Int { mask + 1 }

    /// Appends an element (producer side); returns `false`, dropping nothing already queued,
    /// when the queue is full.
    @discardableResult
    func push(_ element: Element) -> Bool {
        let write = tail.load(ordering: .relaxed)
        let read = head.load(ordering: .acquiring)
        guard write - read < mask + 1 else { return false }
        (slots + (write & mask)).pointee = element
        tail.store(write + 1, ordering: .releasing)
        return true
    }

    /// Removes the oldest element (consumer side), or returns `nil` when the queue is empty.
    func pop() -> Element? {
        let read = head.load(ordering: .relaxed)
        let write = tail.load(ordering: .acquiring)
        guard read != write else { return nil }
        let slot = slots + (read & mask)
        let element = slot.pointee
        slot.pointee = nil
        head.store(read + 1, ordering: .releasing)
        return element
    }
}
