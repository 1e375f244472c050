/// An event waiting for its frame inside a coming render call.
struct ScheduledEvent {
    enum Kind {
        case noteOn(channel: UInt8, key: UInt8, velocity: UInt8, bus: UInt8)
        case noteOff(channel: UInt8, key: UInt8)
        case controlChange(channel: UInt8, controller: UInt8, value: UInt8)
        case programChange(channel: UInt8, program: UInt8)
        /// 14-bit, 8192 = centre.
        case pitchBend(channel: UInt8, value: UInt16)
        case channelPressure(channel: UInt8, pressure: UInt8)
        case keyPressure(channel: UInt8, key: UInt8, pressure: UInt8)
        /// A system-exclusive body in the queue's ``EventQueue/sysExPool``.
        case systemExclusive(start: Int32, length: Int32)
        /// The channel plays in a tuning program (defined by then), or in equal temperament.
        case selectTuning(channel: UInt8, bank: UInt8, program: UInt8)
        case equalTemperament(channel: UInt8)
        /// Every channel's keys go up (pedals ignored), every voice stops, everything resets.
        case allNotesOff, allSoundOff, reset
        /// Sustain and sostenuto pedals that are down go up.
        case liftPedals
    }

    /// Absolute frame (frames rendered since the synthesizer was created).
    var frame: Int64
    var kind: Kind
}

/// Events sorted by frame (stable for equal frames), in storage reserved up front so
/// scheduling and dispatching never allocate while the queue stays within its capacity.
struct EventQueue {
    private(set) var events: [ScheduledEvent]
    private var head = 0
    /// System-exclusive bodies, copied in as they are scheduled.
    private(set) var sysExPool: [UInt8]

    /// Bytes of system-exclusive bodies one render call takes without allocating.
    static let sysExPoolCapacity = 64 * 1024

    init(capacity: Int) {
        events = []
        events.reserveCapacity(capacity)
        sysExPool = []
        sysExPool.reserveCapacity(Self.sysExPoolCapacity)
    }

    var isEmpty: Bool { head >= events.count }

    /// Frame of the next event, or nil.
    var nextFrame: Int64? { head < events.count ? events[head].frame : nil }

    mutating func push(_ e: ScheduledEvent) {
        // Events almost always arrive in order: walk back from the end to the insertion point.
        var i = events.count
        while i > head && events[i - 1].frame > e.frame { i -= 1 }
        if i == events.count { events.append(e) } else { events.insert(e, at: i) }
    }

    /// Copies a system-exclusive body (straight from the caller's bytes, no intermediate
    /// array) into the pool; returns where it lies.
    mutating func storeSysEx(_ body: UnsafeBufferPointer<UInt8>) -> (start: Int32, length: Int32) {
        let start = sysExPool.count
        sysExPool.append(contentsOf: body)
        return (Int32(truncatingIfNeeded: start), Int32(truncatingIfNeeded: body.count))
    }

    mutating func pop() -> ScheduledEvent? {
        guard head < events.count else { return nil }
        let e = events[head]
        head += 1
        return e
    }

    /// Frees the storage of dispatched events once all have been handled (the SysEx pool must
    /// outlive the dispatch of the last event that points into it).
    mutating func compactIfDrained() {
        guard head > 0, head == events.count else { return }
        events.removeAll(keepingCapacity: true)
        sysExPool.removeAll(keepingCapacity: true)
        head = 0
    }
}
