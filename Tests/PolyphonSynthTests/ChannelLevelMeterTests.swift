import Testing
import PolyphonSoundFont
@_spi(Testing) @testable import PolyphonSynth

/// ``Synthesizer/channelLevel(_:)`` reads each channel's peak as its own output shows it, and
/// metering leaves the rendered samples as they were — on threads and through shared filters.
@Suite struct ChannelLevelMeterTests {
    /// Channel 0: a note through a resonant shared filter; 1: one panned left; 2: nothing;
    /// 3: a note at volume 0. Renders 0.5 s, then one block of 4096 frames with each channel's
    /// output apart; returns the mix, that block's channel outputs and the synthesizer.
    static func play(metering: Bool, threads: ThreadedRenderTests.ShuffledPool?) throws
        -> (mix: Rendered, channels: [[Float]], synthesizer: Synthesizer) {
        var configuration = SynthesizerConfiguration.dry
        configuration.channelOutputs = true
        let s = try Synthesizer(soundBank: SharedFilterTests.bank(), configuration: configuration, threads: threads)
        s.spreadsEveryRoundOverThreads = true
        s.channelLevelMetering = metering
        s.sendController(10, withValue: 10, onChannel: 1)
        s.sendController(7, withValue: 0, onChannel: 3)
        s.startNote(40, withVelocity: 100, onChannel: 0)
        s.startNote(62, withVelocity: 70, onChannel: 1, atFrame: 301)
        s.startNote(76, withVelocity: 120, onChannel: 3)
        let first = s.renderSeconds(0.5, block: 512)
        let n = 4096, buses = configuration.channelCount
        var left = [Float](repeating: 0, count: n), right = left
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: 2 * n * buses)
        defer { storage.deallocate() }
        let outputs = (0..<buses).map { StereoBuffer(left: storage + 2 * n * $0, right: storage + 2 * n * $0 + n) }
        s.render(left: &left, right: &right, channels: outputs, frameCount: n)
        let channels: [[Float]] = (0..<buses).map { Array(UnsafeBufferPointer(start: storage + 2 * n * $0, count: 2 * n)) }
        return (Rendered(left: first.left + left, right: first.right + right, rate: first.rate), channels, s)
    }

    @Test func levelsFollowEachChannelAndLeaveTheSamplesAlone() throws {
        let (mix, channels, s) = try Self.play(metering: true, threads: .init(threads: 3, seed: 5))
        #expect(s.threadedRounds > 0 && s.sharedFilterFrames > 0)
        for c in [0, 1] {
            let peak = channels[c].map(abs).max() ?? 0
            let expected = Float(Measure.db(Double(peak)))
            let level = s.channelLevel(c)
            #expect(peak > 0.01 && abs(level - expected) < 1, "channel \(c): meter \(level) dBFS, output peak \(expected) dBFS")
        }
        #expect(s.channelLevel(2) == -.infinity)
        #expect(s.channelLevel(3) < -90, "volume 0 reads \(s.channelLevel(3)) dBFS")
        #expect(s.channelLevel(99) == -.infinity)

        let (plain, _, off) = try Self.play(metering: false, threads: nil)
        #expect(off.channelLevel(0) == -.infinity)
        #expect(mix.left == plain.left && mix.right == plain.right, "metering changed the samples")

        // A silent second: the level falls 20 dB a second.
        let before = s.channelLevel(0)
        s.sendController(120, withValue: 0, onChannel: 0)
        _ = s.renderSeconds(1.0, block: 512)
        #expect(abs(s.channelLevel(0) - (before - 20)) < 0.5, "\(before) → \(s.channelLevel(0)) dBFS")
    }
}
