import Foundation
import Testing

import PolyphonLockFree
import PolyphonMIDI
@testable import PolyphonLive

@Suite("Lock-free rings between the threads")
struct RingAndQueueTests {
    @Test func elementsKeepTheirOrderAndAFullRingRefuses() {
        let ring = SPSCRing<Int>(minimumCapacity: 100)
        #expect(ring.capacity == 128)
        for value in 0..<128 { #expect(ring.push(value)) }
        #expect(!ring.push(128))
        #expect(ring.freeCount == 0 && ring.availableCount == 128)
        #expect(ring.pop() == 0)
        #expect(ring.push(128))
        for value in 1...128 { #expect(ring.pop() == value) }
        #expect(ring.pop() == nil)
        #expect(SPSCRing<Int>(minimumCapacity: 0).capacity == 2)
    }

    /// Appended elements wait, unseen, until the producer publishes them all at once.
    @Test func aBatchIsSeenWholeOrNotAtAll() {
        let ring = SPSCRing<Int>(minimumCapacity: 8)
        #expect(ring.append(1) && ring.append(2) && ring.append(3))
        #expect(ring.availableCount == 0 && ring.pop() == nil)
        #expect(ring.freeCount == 5, "appended elements take room before they are published")
        ring.publish()
        #expect(ring.availableCount == 3)
        #expect([ring.pop(), ring.pop(), ring.pop(), ring.pop()] == [1, 2, 3, nil])
    }

    /// Bulk appends and takes cross the end of the storage in two spans, in order.
    @Test func spansWrapAroundTheEnd() {
        let ring = SPSCRing<UInt8>(minimumCapacity: 8)
        var out = [UInt8](repeating: 0, count: 8)
        var next: UInt8 = 0
        for round in 0..<10 {
            let chunk = (0..<5).map { next &+ UInt8($0) }
            #expect(chunk.withUnsafeBufferPointer { ring.append(contentsOf: $0) } == 5)
            #expect(chunk.withUnsafeBufferPointer { ring.append(contentsOf: $0) } == 3, "round \(round): only the free room")
            ring.publish()
            #expect(out.withUnsafeMutableBufferPointer { ring.take(into: $0) } == 8)
            #expect(out == chunk + chunk.prefix(3), "round \(round)")
            next &+= 5
        }
        #expect(out.withUnsafeMutableBufferPointer { ring.take(into: $0) } == 0)
    }

    /// Values that own memory are moved through, never copied or released by the producer, and
    /// what is still queued when the ring goes away is released with it.
    @Test func ownedValuesAreMovedAndReleasedExactlyOnce() {
        typealias Tracked = TrackedValue
        do {
            let ring = SPSCRing<Tracked>(minimumCapacity: 4)
            for i in 0..<4 { #expect(ring.push(Tracked(i))) }
            #expect(!ring.push(Tracked(4)))
            #expect(Tracked.alive.value == 4, "the refused value is released by its sender")
            #expect(ring.pop()?.value == 0)
            #expect(Tracked.alive.value == 3)
            #expect(ring.append(Tracked(5)))
            #expect(Tracked.alive.value == 4, "appended and unpublished values are held too")
        }
        #expect(Tracked.alive.value == 0)
    }

    /// A producer and a consumer thread pass 50 000 values that own memory through a small ring
    /// (some eight hundred trips round it): none lost, repeated or reordered.
    @Test func ownedValuesCrossBetweenTwoThreadsInOrder() async {
        let transfer = SPSCRing<[Int]>(minimumCapacity: 64)
        let count = 50_000
        let producer = Thread {
            var next = 0
            while next < count {
                if transfer.push([next, next * 2]) { next += 1 }
            }
        }
        producer.start()
        let (received, inOrder) = await onThreadOfItsOwn {
            var received = 0
            var inOrder = true
            let deadline = Date().addingTimeInterval(600)  // against a hang, not for speed
            while received < count && Date() < deadline {
                if let pair = transfer.pop() {
                    inOrder = inOrder && pair == [received, received * 2]
                    received += 1
                }
            }
            return (received, inOrder)
        }
        #expect(received == count)
        #expect(inOrder)
    }

    @Test func stereoFramesKeepTheirOrderAcrossTheWrap() {
        let ring = SPSCRing<Float>(capacityFrames: 6)  // rounded up to 8
        #expect(ring.capacityFrames == 8)
        var left: [Float] = (0..<5).map { Float($0) }
        var right: [Float] = (0..<5).map { Float(-$0) }
        var out = [Float](repeating: 0, count: 16)
        var next: Float = 0
        for round in 0..<7 {
            left = (0..<5).map { next + Float($0) }
            right = left.map { -$0 }
            #expect(ring.write(left: left, right: right, count: 5) == 5)
            #expect(ring.availableFrames == 5)
            #expect(ring.freeFrames == 3)
            #expect(ring.write(left: left, right: right, count: 5) == 3, "round \(round): only the free space is written")
            #expect(ring.read(into: &out, count: 8) == 8)
            let expected = (0..<5).map { next + Float($0) } + (0..<3).map { next + Float($0) }
            for i in 0..<8 {
                #expect(out[2 * i] == expected[i] && out[2 * i + 1] == -expected[i], "round \(round) frame \(i)")
            }
            next += 5
        }
        #expect(ring.availableFrames == 0)
        #expect(ring.read(into: &out, count: 4) == 0)
    }

    /// A producer and a consumer thread pass half a million frames of a counting sequence
    /// through a small ring (some two thousand trips round it): any lost, repeated or torn frame
    /// breaks the count.
    @Test func stereoFramesPassBetweenTwoThreadsInOrder() async {
        let ring = SPSCRing<Float>(capacityFrames: 256)
        let total = 500_000
        let producer = Thread {
            var left = [Float](repeating: 0, count: 97)
            var right = left
            var sent = 0
            while sent < total {
                let n = min(97, total - sent, ring.freeFrames)
                if n == 0 { continue }
                for i in 0..<n { left[i] = Float(sent + i); right[i] = -Float(sent + i) }
                sent += ring.write(left: left, right: right, count: n)
            }
        }
        producer.start()
        let (received, errors) = await onThreadOfItsOwn {
            var received = 0
            var errors = 0
            var buffer = [Float](repeating: 0, count: 2 * 61)
            let deadline = Date().addingTimeInterval(600)  // against a hang, not for speed
            while received < total && Date() < deadline {
                let n = ring.read(into: &buffer, count: 61)
                for i in 0..<n where buffer[2 * i] != Float(received + i) || buffer[2 * i + 1] != -Float(received + i) {
                    errors += 1
                }
                received += n
            }
            return (received, errors)
        }
        #expect(errors == 0)
        #expect(received == total)
    }

    @Test func midiQueueDeliversBatchesWithSysExAndCountsDrops() {
        let queue = LiveMIDIQueue(capacity: 4, sysExCapacity: 8)
        queue.push([.channelVoice(MIDIMessage(channelVoiceStatus: 0x90, data1: 60, data2: 100)!), .realTime(0xF8),
                    .systemExclusive([0x7E, 0x7F, 0x09, 0x01]), .channelVoice(MIDIMessage(channelVoiceStatus: 0xC1, data1: 5, data2: 0)!)])
        var seen: [(LiveMIDIQueue.Message, [UInt8])] = []
        queue.drain { seen.append(($0, Array($1))) }
        #expect(seen.count == 3)
        #expect(seen[0].0 == .init(channelMessage: .noteOn(channel: 0, note: 60, velocity: 100), sysExLength: 0))
        #expect(seen[1].0.channelMessage == nil && seen[1].1 == [0x7E, 0x7F, 0x09, 0x01])
        #expect(seen[2].0 == .init(channelMessage: .programChange(channel: 1, program: 5), sysExLength: 0))
        #expect(queue.isEmpty)
        // The byte ring wraps (4 used of 8, then 6 more), and a fifth message does not fit.
        queue.push([.systemExclusive([1, 2, 3, 4, 5, 6]), .channelVoice(MIDIMessage(channelVoiceStatus: 0x80, data1: 1, data2: 0)!),
                    .channelVoice(MIDIMessage(channelVoiceStatus: 0x80, data1: 2, data2: 0)!), .channelVoice(MIDIMessage(channelVoiceStatus: 0x80, data1: 3, data2: 0)!),
                    .channelVoice(MIDIMessage(channelVoiceStatus: 0x80, data1: 4, data2: 0)!)])
        #expect(queue.droppedCount == 1)
        seen.removeAll()
        queue.drain { seen.append(($0, Array($1))) }
        #expect(seen.map(\.1) == [[1, 2, 3, 4, 5, 6], [], [], []])
        #expect(seen.map(\.0.channelMessage) == [nil] + (1...3).map { .noteOff(channel: 0, note: $0, velocity: 0) })
    }

    /// An input thread and a render thread: 200 000 messages in batches, every seventh batch
    /// with a SysEx whose bytes encode its sequence number; none lost, reordered or torn.
    @Test func midiQueuePassesBatchesBetweenTwoThreadsInOrder() {
        let queue = LiveMIDIQueue(capacity: 256, sysExCapacity: 1024)
        let total = 200_000
        let producer = Thread {
            var sent = 0
            var batch = 0
            while sent < total {
                let size = min(1 + batch % 13, total - sent)
                var messages: [MIDIStreamMessage] = (0..<size).map { i in
                    let n = sent + i
                    return .channelVoice(MIDIMessage(channelVoiceStatus: 0x90 | UInt8(n % 16), data1: UInt8(n >> 7 & 0x7F), data2: UInt8(n & 0x7F))!)
                }
                if batch % 7 == 0 { messages.append(.systemExclusive([UInt8(batch >> 14 & 0x7F), UInt8(batch >> 7 & 0x7F), UInt8(batch & 0x7F)])) }
                // Every tenth batch, wait for the consumer to catch up: ten batches (at most 140
                // messages) always fit, so nothing is dropped; this test is about order.
                while !queue.isEmpty && batch % 10 == 0 { usleep(20) }
                queue.push(messages)
                sent += size
                batch += 1
            }
        }
        producer.start()
        var received = 0
        var errors = 0
        var sysExCount = 0
        let deadline = Date().addingTimeInterval(60)
        while received + queue.droppedCount < total && Date() < deadline {
            queue.drain { message, body in
                guard let channelMessage = message.channelMessage else {
                    sysExCount += 1
                    if body.count != 3 { errors += 1 }
                    return
                }
                let n = received
                if channelMessage != .noteOn(channel: UInt8(n % 16), note: UInt8(n >> 7 & 0x7F), velocity: UInt8(n & 0x7F)) {
                    errors += 1
                }
                received += 1
            }
        }
        #expect(queue.droppedCount == 0)
        #expect(errors == 0)
        #expect(received == total)
        #expect(sysExCount > 1000)
    }

    /// Interleaved frames in, interleaved frames out, whole frames only.
    @Test func interleavedFramesGoInAndComeOutWhole() {
        let ring = SPSCRing<Float>(capacityFrames: 4)
        let frames: [Float] = [1, -1, 2, -2, 3, -3, 4, -4, 5, -5]
        #expect(ring.write(interleaved: frames, count: 5) == 4)
        var out = [Float](repeating: 0, count: 10)
        #expect(ring.read(into: &out, count: 3) == 3)
        #expect(out.prefix(6) == [1, -1, 2, -2, 3, -3])
        #expect(ring.availableFrames == 1 && ring.freeFrames == 3)
    }
}

/// A value that owns memory and counts how many of its kind are alive.
private final class TrackedValue: Sendable {
    static let alive = LockedCounter()
    let value: Int
    init(_ value: Int) { self.value = value; Self.alive.add(1) }
    deinit { Self.alive.add(-1) }
}

private final class LockedCounter: @unchecked Sendable {
    // @unchecked: `count` is touched only under `lock`.
    private let lock = NSLock()
    private var count = 0
    func add(_ n: Int) { lock.lock(); count += n; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

/// Runs `body` on a thread of its own and returns its result. A consumer that spins there holds
/// no thread of the cooperative pool, which other tests wait for on a two-core machine.
private func onThreadOfItsOwn<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { done in Thread { done.resume(returning: body()) }.start() }
}
