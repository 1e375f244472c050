import PolyphonLockFree

/// Stereo frames through a ring of interleaved samples: the render thread appends blocks, the
/// device writer takes periods.
///
/// A frame is two elements, left then right. The capacity is even and every call moves whole
/// frames, so a frame never straddles the end of the ring.
extension SPSCRing<Float> {
    /// A ring of at least `capacityFrames` stereo frames (rounded up to a power of two).
    convenience init(capacityFrames: Int) {
        self.init(minimumCapacity: 2 * max(1, capacityFrames))
    }

    /// Frames the ring holds when full.
    var capacityFrames: Int { capacity / 2 }

    /// Frames the producer may write now.
    var freeFrames: Int { freeCount / 2 }

    /// Frames the consumer may read now.
    var availableFrames: Int { availableCount / 2 }

    /// Producer: appends up to `count` frames from two planar buffers, interleaving them, and
    /// publishes them. Returns the frames written (fewer than `count` when the ring fills).
    @discardableResult
    func write(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int) -> Int {
        let samples = append(count: 2 * min(count, freeFrames)) { slots, offset in
            var frame = offset / 2
            for i in stride(from: 0, to: slots.count, by: 2) {
                slots.initializeElement(at: i, to: left[frame])
                slots.initializeElement(at: i + 1, to: right[frame])
                frame += 1
            }
        }
        publish()
        return samples / 2
    }

    /// Producer: appends up to `count` interleaved frames and publishes them.
    @discardableResult
    func write(interleaved source: UnsafePointer<Float>, count: Int) -> Int {
        let samples = append(contentsOf: UnsafeBufferPointer(start: source, count: 2 * max(0, min(count, freeFrames))))
        publish()
        return samples / 2
    }

    /// Consumer: moves up to `count` interleaved frames into `destination`; returns the frames
    /// read.
    @discardableResult
    func read(into destination: UnsafeMutablePointer<Float>, count: Int) -> Int {
        take(into: UnsafeMutableBufferPointer(start: destination, count: 2 * max(0, min(count, availableFrames)))) / 2
    }
}
