import Testing
import PolyphonSoundFont
@_spi(Testing) @testable import PolyphonSynth

/// A synthesizer that spreads its voices over threads (``RenderThreadPool``) renders the same
/// bytes as on one thread. Here the tasks run one after another on the calling thread, in a
/// shuffled order and under shuffled thread numbers — any order real threads could run them
/// in, reproducibly — through shared filters joining and leaving, stereo pairs, voices ending
/// inside a chunk, steady voices, effects and separate channel outputs. (PolyphonPlayback's
/// tests render real songs on real threads.)
@Suite struct ThreadedRenderTests {
    /// Runs every task on the calling thread in a shuffled order, each under a thread number
    /// that takes turns.
    final class ShuffledPool: RenderThreadPool {
        let threadCount: Int
        private var random: SplitMix64
        private(set) var tasksRun = 0

        init(threads: Int, seed: UInt64) {
            threadCount = threads
            random = SplitMix64(seed: seed)
        }

        func perform(_ work: any ParallelRenderWork, taskCount: Int) {
            let order = (0..<taskCount).shuffled(using: &random)
            let first = Int(random.next() % UInt64(threadCount))
            for (k, task) in order.enumerated() { work.performTask(task, thread: (first + k) % threadCount) }
            tasksRun += taskCount
        }
    }

    /// Filtered voices on four cutoffs (three shareable), a stereo pair, drums, pans, sends.
    static let bank = SharedFilterTests.bank(extra: SharedFilterTests.slowSweep)

    /// Forty notes on four channels, some ended early, with pan, send and pitch-bend changes
    /// while they sound (members leave shared filters), then a release.
    static func play(_ s: Synthesizer) {
        s.sendController(10, withValue: 20, onChannel: 1)
        s.sendController(91, withValue: 100, onChannel: 1)
        s.sendController(93, withValue: 60, onChannel: 2)
        s.sendController(10, withValue: 110, onChannel: 2)
        for k in 0..<40 {
            let key = UInt8(30 + (k * 7) % 70), channel = UInt8(k % 4)
            s.startNote(key, withVelocity: UInt8(50 + k * 2), onChannel: channel, atFrame: 211 * k)
            if k % 5 == 2 { s.stopNote(key, onChannel: channel, atFrame: 12_000 + 401 * k) }
        }
        s.sendController(10, withValue: 90, onChannel: 3, atFrame: 20_011)
        s.sendPitchBend(9_500, onChannel: 0, atFrame: 24_000)
        s.sendController(91, withValue: 30, onChannel: 2, atFrame: 26_500)
        for channel in UInt8(0)..<4 { s.sendController(123, withValue: 0, onChannel: channel, atFrame: 33_000) }
    }

    static func render(threads: ShuffledPool?, block: Int, configuration: SynthesizerConfiguration = SynthesizerConfiguration(),
                       bank: SoundFont = bank) throws -> (Rendered, Synthesizer) {
        let s = try Synthesizer(soundBank: bank, configuration: configuration, threads: threads)
        s.spreadsEveryRoundOverThreads = true
        play(s)
        return (s.renderSeconds(1.2, block: block), s)
    }

    @Test func anyOrderOfTasksGivesTheSameBytes() throws {
        for block in [64, 300, 1024] {
            let (reference, plain) = try Self.render(threads: nil, block: block)
            #expect(plain.sharedFilterFrames > 20_000, "block \(block): shared filters were not exercised")
            #expect(Measure.rms(reference.left[...]) > 0.01)
            for threads in 2...4 {
                let pool = ShuffledPool(threads: threads, seed: UInt64(block * 10 + threads))
                let (out, s) = try Self.render(threads: pool, block: block)
                // Voices sound through the first 30 000 frames at least: a round or more per
                // render call spread over threads, each in two tasks or more (a slice, a stretch).
                #expect(s.threadedRounds >= 30_000 / block && pool.tasksRun >= 2 * s.threadedRounds,
                        "block \(block): \(s.threadedRounds) rounds, \(pool.tasksRun) tasks")
                // Members of shared filters summed into their inputs by the mix step's stretches.
                #expect(s.sharedInputsMixedOnThreads > 0, "block \(block): no shared input on the threads")
                // The reverb and chorus side by side wherever a chunk is long enough to repay it.
                #expect((s.effectChunksOnThreads > 0) == (block >= 128), "block \(block): \(s.effectChunksOnThreads) effect chunks")
                #expect(out.left == reference.left && out.right == reference.right, "block \(block), \(threads) threads differ")
            }
        }
    }

    @Test func channelOutputsAndStereoPairsGiveTheSameBytes() throws {
        var configuration = SynthesizerConfiguration()
        configuration.channelOutputs = true
        let (reference, _) = try Self.render(threads: nil, block: 512, configuration: configuration)
        let (out, _) = try Self.render(threads: ShuffledPool(threads: 3, seed: 7), block: 512, configuration: configuration)
        #expect(out.left == reference.left && out.right == reference.right)

        let pair = TestBank.stereoPair(generators: [Generator(.initialFilterFc, 8000), Generator(.releaseVolEnv, -3000)])
        let (pairReference, plain) = try Self.render(threads: nil, block: 777, bank: pair)
        let (pairOut, s) = try Self.render(threads: ShuffledPool(threads: 2, seed: 9), block: 777, bank: pair)
        #expect(plain.stereoTwinFrames > 0 && s.stereoTwinFrames > 0)
        #expect(pairOut.left == pairReference.left && pairOut.right == pairReference.right)
    }

    /// Rounds too small to repay handing them out stay on the render thread.
    @Test func smallRoundsStayOnTheRenderThread() throws {
        let pool = ShuffledPool(threads: 2, seed: 1)
        let s = try Synthesizer(soundBank: TestBank.sine(), threads: pool)
        s.startNote(69, withVelocity: 100, onChannel: 0)
        _ = s.renderSeconds(0.5, block: 1024)
        // The only tasks: the reverb and the chorus, side by side.
        #expect(s.threadedRounds == 0 && pool.tasksRun == 2 * s.effectChunksOnThreads)
        // One voice fewer than a threaded round needs, 1024 frames each: work enough by voice
        // frames, too few voices to win.
        let enough = VoiceRenderer.minimumThreadedVoices
        for k in 0..<(enough - 2) { s.startNote(UInt8(20 + k), withVelocity: 90, onChannel: 0) }
        _ = s.renderSeconds(0.5, block: 1024)
        #expect(s.activeVoiceCount == enough - 1 && s.threadedRounds == 0 && pool.tasksRun == 2 * s.effectChunksOnThreads)
        // Enough voices, but blocks too short to hold enough voice frames.
        s.startNote(UInt8(20 + enough - 2), withVelocity: 90, onChannel: 0)
        let short = VoiceRenderer.minimumThreadedWork / enough / 2
        _ = s.renderSeconds(0.5, block: short)
        #expect(s.activeVoiceCount == enough && s.threadedRounds == 0)
        _ = s.renderSeconds(0.5, block: 2 * short)
        #expect(s.threadedRounds > 0)
    }
}
