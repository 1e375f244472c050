/// A MIDI event waiting for its frame inside a coming render call.
struct ScheduledEvent {
    enum Kind: UInt8 {
        case noteOn, noteOff, controller, programChange, pitchBend, channelPressure, polyPressure
        case sysEx
        case allNotesOff, allSoundOff, reset
    }

    /// Absolute frame (frames rendered since the synthesizer was created).
    var frame: Int64
    var kind: Kind
    var channel: UInt8
    var data1: UInt8
    var data2: UInt8
    var data3: UInt8
    /// 14-bit value for pitch bend; sysex pool offset.
    var value: Int
    /// sysex length.
    var length: Int
}

/// Events sorted by frame (stable for equal frames), in storage reserved up front so
/// scheduling and dispatching never allocate while the queue stays within its capacity.
struct EventQueue {
    private(set) var events: [ScheduledEvent]
    private var head = 0
    var sysExPool: [UInt8]

    init(capacity: Int) {
        events = []
        events.reserveCapacity(capacity)
        sysExPool = []
        sysExPool.reserveCapacity(64 * 1024)
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

    mutating func removeAll() {
        events.removeAll(keepingCapacity: true)
        sysExPool.removeAll(keepingCapacity: true)
        head = 0
    }
}
