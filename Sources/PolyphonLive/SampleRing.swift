import Atomics

/// A lock-free single-producer single-consumer ring of interleaved stereo frames: the render
/// thread writes blocks, the device writer reads periods.
///
/// The two counters only grow (they are frame totals, not indices), so "how full" is a
/// subtraction that never confuses full with empty; the capacity is a power of two so the
/// index is a mask. The producer publishes with a releasing store after the samples are in
/// place and the consumer acquires before reading them (and the other way round for space).
/// Nothing here allocates or blocks after ``init(capacityFrames:)``.
final class SampleRing: @unchecked Sendable {
    // @unchecked: one producer thread and one consumer thread, ordered by the two atomics.

    /// Frames the ring holds (a power of two).
    let capacityFrames: Int
    private let mask: Int
    private let storage: UnsafeMutablePointer<Float>
    /// Total frames written (advanced by the producer only).
    private let written = ManagedAtomic<Int>(0)
    /// Total frames read (advanced by the consumer only).
    private let read = ManagedAtomic<Int>(0)

    /// A ring of at least `capacityFrames` stereo frames (rounded up to a power of two).
    init(capacityFrames: Int) {
        var size = 1
        while size < max(2, capacityFrames) { size <<= 1 }
        self.capacityFrames = size
        mask = size - 1
        storage = .allocate(capacity: 2 * size)
        storage.initialize(repeating: 0, count: 2 * size)
    }

    deinit { storage.deallocate() }

    /// Frames the producer may write now.
    var freeFrames: Int {
        capacityFrames - (written.load(ordering: .relaxed) - read.load(ordering: .acquiring))
    }

    /// Frames the consumer may read now.
    var availableFrames: Int {
        written.load(ordering: .acquiring) - read.load(ordering: .relaxed)
    }

    /// Producer: appends `count` frames from two planar buffers, interleaving them.
    /// The caller checks ``freeFrames`` first; excess frames are not written.
    /// - Returns: the frames written.
    @discardableResult
    func write(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int) -> Int {
        let start = written.load(ordering: .relaxed)
        let n = min(count, capacityFrames - (start - read.load(ordering: .acquiring)))
        for i in 0..<max(0, n) {
            let slot = ((start + i) & mask) << 1
            storage[slot] = left[i]
            storage[slot + 1] = right[i]
        }
        written.store(start + max(0, n), ordering: .releasing)
        return max(0, n)
    }

    /// Producer: appends `count` interleaved frames.
    @discardableResult
    func write(interleaved source: UnsafePointer<Float>, count: Int) -> Int {
        let start = written.load(ordering: .relaxed)
        let n = max(0, min(count, capacityFrames - (start - read.load(ordering: .acquiring))))
        copy(frames: n, ringStart: start) { ring, offset, length in
            ring.update(from: source + 2 * offset, count: 2 * length)
        }
        written.store(start + n, ordering: .releasing)
        return n
    }

    /// Consumer: moves up to `count` interleaved frames into `destination`.
    /// - Returns: the frames read.
    @discardableResult
    func read(into destination: UnsafeMutablePointer<Float>, count: Int) -> Int {
        let start = read.load(ordering: .relaxed)
        let n = max(0, min(count, written.load(ordering: .acquiring) - start))
        copy(frames: n, ringStart: start) { ring, offset, length in
            (destination + 2 * offset).update(from: ring, count: 2 * length)
        }
        read.store(start + n, ordering: .releasing)
        return n
    }

    /// Calls `body` once or twice (when the span wraps) with the ring memory, the offset in
    /// the caller's buffer and the length in frames.
    @inline(__always)
    private func copy(frames n: Int, ringStart: Int,
                      _ body: (UnsafeMutablePointer<Float>, Int, Int) -> Void) {
        guard n > 0 else { return }
        let index = ringStart & mask
        let first = min(n, capacityFrames - index)
        body(storage + 2 * index, 0, first)
        if first < n { body(storage, first, n - first) }
    }
}
