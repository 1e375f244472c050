/// What a filter is told at a frame of the current render chunk.
///
/// Two protocols use these events, both applied by ``LowPassFilter/apply(_:)`` as a
/// ``FilterBatch`` reaches their frame:
/// - A voice's control point steers its own filter: a new target to ``Change/glide(to:frames:)``
///   to or ``Change/snap(to:)`` to, or a ``Change/flush`` of denormal state only. A voice whose
///   filter has settled asks to ``Change/join(_:slot:)`` a shared filter (``SharedFilterPool``):
///   the ``FilterRouter`` either accepts the request (filling in the slot where the shared
///   filters collect the state the voice's filter hands over) or turns it into a flush.
/// - A shared filter takes in a joining voice's state (``Change/inject(_:)``) and lets its
///   ring end once it is far below hearing (``Change/settle``).
struct FilterEvent {
    enum Change {
        /// Nothing but the denormal flush every event brings.
        case flush
        /// Glide linearly to these coefficients over `frames` frames.
        case glide(to: SIMD4<Float>, frames: Int32)
        /// Jump to these coefficients.
        case snap(to: SIMD4<Float>)
        /// The filter has settled on these coefficients; the voice moves into the shared
        /// filter with them here, its filter's state going to ``SharedFilterPool`` join `slot`
        /// (−1 while the request is not accepted).
        case join(SIMD4<Float>, slot: Int32)
        /// A shared filter adds a joining voice's state (hist1, hist2) to its own.
        case inject(SIMD2<Float>)
        /// A shared filter's state below 1e-8 is set to 0.
        case settle
    }

    var change: Change
    /// Frame in the chunk.
    var offset: Int32

    init(_ change: Change, at offset: Int) {
        self.change = change
        self.offset = Int32(offset)
    }

    /// True for a plain flush (a control point with nothing to change).
    var isFlush: Bool {
        if case .flush = change { return true }
        return false
    }
}

/// One voice's filter events for a chunk, in frame order, written into storage the voice
/// renderer owns (room for ``Voice/maximumFilterEvents(frames:)``).
struct FilterEvents {
    let base: UnsafeMutablePointer<FilterEvent>
    private(set) var count = 0

    init(_ base: UnsafeMutablePointer<FilterEvent>) { self.base = base }

    @inline(__always)
    mutating func append(_ change: FilterEvent.Change, at offset: Int) {
        base[count] = FilterEvent(change, at: offset)
        count += 1
    }

    /// True when a control point asked to join a shared filter.
    var asksToJoin: Bool {
        for i in 0..<count {
            if case .join = base[i].change { return true }
        }
        return false
    }

    /// Empties the list for the next chunk.
    @inline(__always)
    mutating func removeAll() { count = 0 }
}
