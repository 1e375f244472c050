import Atomics
import PolyphonLockFree
import PolyphonMIDI

/// Carries MIDI messages from an input thread (the sequencer, stdin, an app) to the render
/// thread, which must not lock or allocate.
///
/// Messages travel in one lock-free ring; SysEx bodies in a ring of bytes beside it, copied
/// out on the render thread into a buffer allocated up front, so a SysEx costs no allocation
/// anywhere after `init`. A batch of messages pushed together becomes visible to the consumer
/// at once, so events that arrived in one read land in the same render block.
final class LiveMIDIQueue: @unchecked Sendable {
    // @unchecked: one producer and one consumer thread, ordered by the rings' atomics.

    /// One queued message as the render thread sees it.
    struct Message: Sendable, Equatable {
        /// A channel voice message, or nil for a SysEx, whose body is passed beside the message.
        var channelMessage: MIDIMessage?
        /// The SysEx body's length in bytes (0 for other messages).
        var sysExLength: Int
    }

    private let messages: SPSCRing<Message>
    private let sysExBytes: SPSCRing<UInt8>
    /// The consumer's copy of a SysEx body, contiguous even when the byte ring wraps.
    private let sysExScratch: UnsafeMutableBufferPointer<UInt8>
    private let dropped = ManagedAtomic<Int>(0)

    /// A queue of at least `capacity` messages and `sysExCapacity` bytes of SysEx bodies
    /// (each rounded up to a power of two).
    init(capacity: Int = 4096, sysExCapacity: Int = 65_536) {
        messages = SPSCRing(minimumCapacity: capacity)
        sysExBytes = SPSCRing(minimumCapacity: sysExCapacity)
        sysExScratch = .allocate(capacity: sysExBytes.capacity)
        sysExScratch.initialize(repeating: 0)
    }

    deinit { sysExScratch.deallocate() }

    /// The longest SysEx body the queue can carry.
    var sysExCapacity: Int { sysExBytes.capacity }

    /// Whether the consumer has taken every message pushed so far.
    var isEmpty: Bool { messages.availableCount == 0 }

    /// Messages dropped because the queue was full (the consumer fell far behind).
    var droppedCount: Int { dropped.load(ordering: .relaxed) }

    /// Producer: queues `batch` as one batch. Real-time and system common messages are skipped
    /// (a synthesizer has no use for them). Messages that do not fit are dropped and counted.
    func push(_ batch: [MIDIStreamMessage]) {
        for message in batch {
            let queued: Bool
            switch message {
            case .channelVoice(let message):
                queued = messages.append(Message(channelMessage: message, sysExLength: 0))
            case .systemExclusive(let body):
                // The body goes in first, so it is in place when its message is published.
                queued = messages.freeCount > 0 && body.count <= sysExBytes.freeCount
                if queued {
                    body.withUnsafeBufferPointer { _ = sysExBytes.append(contentsOf: $0) }
                    messages.append(Message(channelMessage: nil, sysExLength: body.count))
                }
            case .systemCommon, .realTime:
                continue
            }
            if !queued { dropped.wrappingIncrement(ordering: .relaxed) }
        }
        sysExBytes.publish()
        messages.publish()
    }

    /// Consumer: hands every message queued so far to `body`, with the SysEx body (empty for
    /// other messages). Neither allocates nor locks; the buffer is valid only during the call.
    func drain(_ body: (Message, UnsafeBufferPointer<UInt8>) -> Void) {
        for _ in 0..<messages.availableCount {
            guard let message = messages.pop() else { break }
            let length = sysExBytes.take(into: UnsafeMutableBufferPointer(rebasing: sysExScratch[0..<message.sysExLength]))
            body(message, UnsafeBufferPointer(rebasing: sysExScratch[0..<length]))
        }
    }
}
