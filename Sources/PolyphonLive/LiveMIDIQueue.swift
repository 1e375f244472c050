import PolyphonMIDI
import Atomics

/// A lock-free single-producer single-consumer queue that carries MIDI messages from an input
/// thread (the sequencer, stdin) to the render thread, which must not lock or allocate.
///
/// Messages are fixed-size slots; SysEx bodies go into a byte ring beside them. A batch of
/// messages pushed together becomes visible to the consumer at once, so events that arrived
/// in one read land in the same render block. Both rings are allocated up front.
public final class LiveMIDIQueue: @unchecked Sendable {
    // @unchecked: one producer and one consumer thread, ordered by the atomics.

    /// One queued message as the render thread sees it.
    public struct Message: Sendable, Equatable {
        /// A channel voice message, or nil for a SysEx, whose body is passed beside the message.
        public var channelMessage: MIDIMessage?
        /// The SysEx body's length in bytes (0 for other messages).
        public var sysExLength: Int
    }

    private let slots: UnsafeMutablePointer<Message>
    private let slotMask: Int
    private let bytes: UnsafeMutablePointer<UInt8>
    private let byteMask: Int
    /// The consumer's copy of a SysEx body, so it is contiguous even when the ring wraps.
    private let sysExScratch: UnsafeMutablePointer<UInt8>
    private let messagesWritten = ManagedAtomic<Int>(0)
    private let messagesRead = ManagedAtomic<Int>(0)
    private let bytesWritten = ManagedAtomic<Int>(0)
    private let bytesRead = ManagedAtomic<Int>(0)
    private let dropped = ManagedAtomic<Int>(0)

    /// A queue of at least `capacity` messages and `sysExCapacity` bytes of SysEx bodies
    /// (each rounded up to a power of two).
    public init(capacity: Int = 4096, sysExCapacity: Int = 65_536) {
        var slotCount = 1
        while slotCount < max(2, capacity) { slotCount <<= 1 }
        var byteCount = 1
        while byteCount < max(2, sysExCapacity) { byteCount <<= 1 }
        slots = .allocate(capacity: slotCount)
        slots.initialize(repeating: Message(channelMessage: nil, sysExLength: 0), count: slotCount)
        slotMask = slotCount - 1
        bytes = .allocate(capacity: byteCount)
        bytes.initialize(repeating: 0, count: byteCount)
        sysExScratch = .allocate(capacity: byteCount)
        sysExScratch.initialize(repeating: 0, count: byteCount)
        byteMask = byteCount - 1
    }

    deinit {
        slots.deallocate()
        bytes.deallocate()
        sysExScratch.deallocate()
    }

    /// Whether the consumer has taken every message pushed so far.
    public var isEmpty: Bool {
        messagesRead.load(ordering: .acquiring) == messagesWritten.load(ordering: .acquiring)
    }

    /// Messages dropped because the queue was full (the consumer fell far behind).
    public var droppedCount: Int { dropped.load(ordering: .relaxed) }

    /// Producer: queues `messages` as one batch. Real-time and system common messages are
    /// skipped (a synthesizer has no use for them). Messages that do not fit are dropped and
    /// counted.
    public func push(_ messages: [MIDIStreamMessage]) {
        var slot = messagesWritten.load(ordering: .relaxed)
        var byte = bytesWritten.load(ordering: .relaxed)
        let slotLimit = messagesRead.load(ordering: .acquiring) + slotMask + 1
        let byteLimit = bytesRead.load(ordering: .acquiring) + byteMask + 1
        for message in messages {
            let entry: Message
            switch message {
            case .channelVoice(let message):
                entry = Message(channelMessage: message, sysExLength: 0)
            case .systemExclusive(let body):
                guard byte + body.count <= byteLimit else {
                    dropped.wrappingIncrement(ordering: .relaxed)
                    continue
                }
                for value in body {
                    bytes[byte & byteMask] = value
                    byte += 1
                }
                entry = Message(channelMessage: nil, sysExLength: body.count)
            case .systemCommon, .realTime:
                continue
            }
            guard slot < slotLimit else {
                dropped.wrappingIncrement(ordering: .relaxed)
                byte -= entry.sysExLength
                continue
            }
            slots[slot & slotMask] = entry
            slot += 1
        }
        bytesWritten.store(byte, ordering: .releasing)
        messagesWritten.store(slot, ordering: .releasing)
    }

    /// Consumer: hands every queued message to `body`, with the SysEx body (empty for other
    /// messages). Neither allocates nor locks; the buffer is valid only during the call.
    public func drain(_ body: (Message, UnsafeBufferPointer<UInt8>) -> Void) {
        let end = messagesWritten.load(ordering: .acquiring)
        var slot = messagesRead.load(ordering: .relaxed)
        var byte = bytesRead.load(ordering: .relaxed)
        while slot < end {
            let message = slots[slot & slotMask]
            slot += 1
            for i in 0..<message.sysExLength {
                sysExScratch[i] = bytes[(byte + i) & byteMask]
            }
            byte += message.sysExLength
            body(message, UnsafeBufferPointer(start: sysExScratch, count: message.sysExLength))
        }
        bytesRead.store(byte, ordering: .releasing)
        messagesRead.store(slot, ordering: .releasing)
    }
}
