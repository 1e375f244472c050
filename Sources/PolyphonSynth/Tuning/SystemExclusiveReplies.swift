/// System-exclusive messages a synthesizer sends back — a bulk tuning dump answering a dump
/// request — held in memory reserved up front until the host takes them
/// (``Synthesizer/takeSystemExclusiveReplies(_:)``) and sends them to a MIDI output.
struct SystemExclusiveReplies {
    /// Room for this many bulk dumps; replies beyond it are dropped (and counted).
    static let capacity = 8 * MIDITuningDump.byteCount(hasBank: true)

    private let bytes: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    /// Replies that found no room since the synthesizer was created.
    private(set) var dropped = 0

    init() {
        bytes = .allocate(capacity: Self.capacity)
        bytes.initialize(repeating: 0, count: Self.capacity)
    }

    func deallocate() { bytes.deallocate() }

    /// Writes a reply of at most `maximumLength` bytes with `write` (which returns the length
    /// it wrote), when there is room.
    mutating func append(maximumLength: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        guard count + maximumLength <= Self.capacity else { dropped += 1; return }
        count += write(bytes + count)
    }

    /// Hands every message (`F0` … `F7`) to `body` in order, then forgets them.
    mutating func drain(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var start = 0
        while start < count {
            var end = start
            while end < count && bytes[end] != 0xF7 { end += 1 }
            end = min(end + 1, count)
            body(UnsafeBufferPointer(start: bytes + start, count: end - start))
            start = end
        }
        count = 0
    }
}
