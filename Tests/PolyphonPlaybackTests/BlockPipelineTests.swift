import Foundation
@testable import PolyphonPlayback
import Testing

@Suite("Block pipeline (file writing on a second thread)")
struct BlockPipelineTests {
    struct Stop: Error, Equatable { var block: Int }

    /// Every block arrives once, in order, with its own contents, whatever the block sizes and
    /// however far the consumer lags.
    @Test(arguments: [0, 200])
    func deliversEveryBlockInOrder(consumerDelayMicroseconds: Int) throws {
        final class Log: @unchecked Sendable { var left: [Float] = [], right: [Float] = [], sizes: [Int] = [] }
        let log = Log()
        let pipeline = BlockPipeline(blockCapacity: 64, depth: 4) { l, r, n in
            if consumerDelayMicroseconds > 0 { usleep(UInt32(consumerDelayMicroseconds)) }
            log.left += UnsafeBufferPointer(start: l, count: n)
            log.right += UnsafeBufferPointer(start: r, count: n)
            log.sizes.append(n)
        }
        var expectedLeft: [Float] = [], expectedRight: [Float] = [], expectedSizes: [Int] = []
        var l = [Float](repeating: 0, count: 64), r = l
        var value: Float = 0
        for block in 0..<100 {
            let n = [1, 17, 64, 33][block % 4]
            for i in 0..<n { value += 1; l[i] = value; r[i] = -value }
            try pipeline.push(l, r, n)
            expectedLeft += l[0..<n]
            expectedRight += r[0..<n]
            expectedSizes.append(n)
        }
        try pipeline.finish()
        #expect(log.sizes == expectedSizes)
        #expect(log.left == expectedLeft)
        #expect(log.right == expectedRight)
    }

    /// A consumer error (a full disk, say) stops the producer and reaches the caller.
    @Test func consumerErrorReachesTheProducer() throws {
        final class Counter: @unchecked Sendable { var blocks = 0 }
        let counter = Counter()
        let pipeline = BlockPipeline(blockCapacity: 16, depth: 4) { _, _, _ in
            counter.blocks += 1
            if counter.blocks == 10 { throw Stop(block: 10) }
        }
        let l = [Float](repeating: 0, count: 16), r = l
        var pushed = 0
        var caught: Error?
        do {
            for _ in 0..<1000 {
                try pipeline.push(l, r, 16)
                pushed += 1
            }
        } catch {
            caught = error
        }
        #expect(caught as? Stop == Stop(block: 10), "the producer stops with the consumer's error")
        #expect(pushed < 1000)
        #expect(throws: Stop(block: 10)) { try pipeline.finish() }
        #expect(counter.blocks == 10, "nothing is consumed after the failure")
    }

    /// An empty render finishes at once.
    @Test func finishWithoutBlocks() throws {
        let pipeline = BlockPipeline(blockCapacity: 8) { _, _, _ in Issue.record("no block was pushed") }
        try pipeline.finish()
    }
}
