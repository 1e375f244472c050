import Atomics

/// A bounded lock-free queue between exactly one producer thread and one consumer thread.
///
/// It carries everything that crosses a real-time thread: the player's commands (to its render
/// thread) and callbacks (from it), the live output's audio frames (render thread → device
/// writer) and the live synthesizer's MIDI (input thread → render thread). Neither side ever
/// waits for the other: a full ring refuses what does not fit, an empty one returns nothing.
///
/// The slots are allocated once, in `init`; after that nothing allocates, locks or counts
/// references. A free slot holds no value: the producer initializes it and the consumer moves
/// the value out, so neither side ever releases a value the other still owns (a release could
/// free memory on a real-time thread), and elements of a trivial type (samples, bytes) are
/// copied as plain memory.
///
/// The two counters only grow (they are totals, not indices), so "how full" is a subtraction
/// that never confuses full with empty; the capacity is a power of two so a slot is a mask away.
/// The producer publishes with a releasing store after the elements are in place and the
/// consumer acquires before reading them, and the other way round for the space it frees.
///
/// The producer may append several elements and ``publish()`` them at once, so that what
/// arrived together (a chord, a block of frames) reaches the consumer together.
package final class SPSCRing<Element>: @unchecked Sendable {
    // @unchecked: one producer thread and one consumer thread, ordered by the two atomics;
    // `appended` is the producer's alone.

    /// Elements the ring holds when full (a power of two).
    package let capacity: Int
    @usableFromInline let mask: Int
    @usableFromInline let slots: UnsafeMutablePointer<Element>
    /// Elements shown to the consumer so far (advanced by the producer only).
    @usableFromInline let published: UnsafeAtomic<Int>
    /// Elements taken by the consumer so far (advanced by the consumer only).
    @usableFromInline let taken: UnsafeAtomic<Int>
    /// Elements appended by the producer, published or not.
    @usableFromInline var appended = 0

    /// A ring holding at least `minimumCapacity` elements (rounded up to a power of two, at
    /// least 2).
    package init(minimumCapacity: Int) {
        var size = 2
        while size < minimumCapacity { size <<= 1 }
        capacity = size
        mask = size - 1
        slots = .allocate(capacity: size)
        published = .create(0)
        taken = .create(0)
    }

    deinit {
        // Everything appended and not taken is still initialized.
        let first = taken.load(ordering: .acquiring)
        for position in first..<appended { (slots + (position & mask)).deinitialize(count: 1) }
        slots.deallocate()
        published.destroy()
        taken.destroy()
    }

    // MARK: Producer

    /// Elements the producer may still append.
    @inlinable package var freeCount: Int {
        capacity - (appended - taken.load(ordering: .acquiring))
    }

    /// Appends `element` behind those appended before, without showing it to the consumer
    /// (``publish()`` does); returns `false`, dropping nothing already queued, when full.
    @inlinable @discardableResult
    package func append(_ element: consuming Element) -> Bool {
        guard appended - taken.load(ordering: .acquiring) < capacity else { return false }
        (slots + (appended & mask)).initialize(to: element)
        appended += 1
        return true
    }

    /// Appends up to `count` elements written by `initialize`, which is called once, or twice
    /// when the free space wraps around the end, with storage it must initialize in full and
    /// the number of elements this call appended before it. Returns how many were appended:
    /// `count`, or fewer when the ring has no room for more.
    @inlinable @discardableResult
    package func append(count: Int,
                        _ initialize: (_ slots: UnsafeMutableBufferPointer<Element>, _ offset: Int) -> Void) -> Int {
        let n = max(0, min(count, freeCount))
        let start = appended & mask
        let first = min(n, capacity - start)
        if first > 0 { initialize(UnsafeMutableBufferPointer(start: slots + start, count: first), 0) }
        if first < n { initialize(UnsafeMutableBufferPointer(start: slots, count: n - first), first) }
        appended += n
        return n
    }

    /// Appends copies of the elements of `source` that fit; returns how many.
    @inlinable @discardableResult
    package func append(contentsOf source: UnsafeBufferPointer<Element>) -> Int {
        append(count: source.count) { slots, offset in
            _ = slots.initialize(fromContentsOf: UnsafeBufferPointer(rebasing: source[offset..<offset + slots.count]))
        }
    }

    /// Shows the consumer every element appended so far.
    @inlinable package func publish() {
        published.store(appended, ordering: .releasing)
    }

    /// Appends `element` and publishes it; returns `false` when the ring is full.
    @inlinable @discardableResult
    package func push(_ element: consuming Element) -> Bool {
        guard append(element) else { return false }
        publish()
        return true
    }

    // MARK: Consumer

    /// Elements the consumer may take now.
    @inlinable package var availableCount: Int {
        published.load(ordering: .acquiring) - taken.load(ordering: .relaxed)
    }

    /// Removes the oldest element, or returns `nil` when none is published.
    @inlinable package func pop() -> Element? {
        let position = taken.load(ordering: .relaxed)
        guard position != published.load(ordering: .acquiring) else { return nil }
        let element = (slots + (position & mask)).move()
        taken.store(position + 1, ordering: .releasing)
        return element
    }

    /// Takes up to `count` of the oldest elements through `move`, which is called once, or
    /// twice when they wrap around the end, with storage whose elements it must move out (or,
    /// for a trivial type, simply read) and the number of elements this call took before it.
    /// Returns how many were taken.
    @inlinable @discardableResult
    package func take(count: Int,
                      _ move: (_ slots: UnsafeMutableBufferPointer<Element>, _ offset: Int) -> Void) -> Int {
        let position = taken.load(ordering: .relaxed)
        let n = max(0, min(count, published.load(ordering: .acquiring) - position))
        let start = position & mask
        let first = min(n, capacity - start)
        if first > 0 { move(UnsafeMutableBufferPointer(start: slots + start, count: first), 0) }
        if first < n { move(UnsafeMutableBufferPointer(start: slots, count: n - first), first) }
        taken.store(position + n, ordering: .releasing)
        return n
    }

    /// Moves up to `destination.count` of the oldest elements into `destination`, whose
    /// elements are replaced; returns how many.
    @inlinable @discardableResult
    package func take(into destination: UnsafeMutableBufferPointer<Element>) -> Int {
        take(count: destination.count) { slots, offset in
            (destination.baseAddress! + offset).moveUpdate(from: slots.baseAddress!, count: slots.count)
        }
    }
}
