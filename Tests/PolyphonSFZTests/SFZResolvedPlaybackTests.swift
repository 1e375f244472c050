import Testing
@testable import PolyphonSFZCore

/// A region's playback settled against its sample as sfizz settles it.
@Suite struct SFZResolvedPlaybackTests {
    static func region(_ opcodes: String) throws -> SFZRegion {
        try #require(try SFZInheritanceTests.instrument("<region> sample=a.wav " + opcodes).regions.first)
    }

    let plain = SFZSampleMetadata(frameCount: 1000, sampleRate: 48_000, channelCount: 1)
    let looped = SFZSampleMetadata(frameCount: 1000, sampleRate: 48_000, channelCount: 2, loop: SFZRange(100, 899), rootKey: 50)

    @Test func withoutLoopsTheRegionPlaysToTheEndOnce() throws {
        let p = try Self.region("").resolvedPlayback(sample: plain)
        #expect(p == SFZResolvedPlayback(offset: 0, end: 999, loopMode: .noLoop, loop: SFZRange(0, 999), keycenter: 60, sampleRate: 48_000))
    }

    @Test func theFileLoopIsUsedAndLoopsContinuously() throws {
        let p = try Self.region("").resolvedPlayback(sample: looped)
        #expect(p.loopMode == .continuous && p.loop == SFZRange(100, 899))
        #expect(try Self.region("loop_end=500").resolvedPlayback(sample: looped).loop == SFZRange(100, 500))
        #expect(try Self.region("loop_mode=loop_sustain").resolvedPlayback(sample: looped).loopMode == .sustain)
    }

    @Test func releaseTriggersDefaultToOneShot() throws {
        #expect(try Self.region("trigger=release").resolvedPlayback(sample: plain).loopMode == .oneShot)
        #expect(try Self.region("trigger=release").resolvedPlayback(sample: looped).loopMode == .continuous)
    }

    @Test func endAndLoopAreClampedIntoTheFile() throws {
        let p = try Self.region("end=5000 offset=10 loop_start=2000 loop_end=3000 loop_mode=loop_continuous").resolvedPlayback(sample: plain)
        #expect(p.end == 999 && p.offset == 10 && p.loop == SFZRange(999, 999) && p.loopMode == .continuous)
        let backwards = try Self.region("loop_start=600 loop_end=500 loop_mode=loop_continuous").resolvedPlayback(sample: plain)
        #expect(backwards.loopMode == .noLoop)
    }

    @Test func generatorsLoopTheirCycle() throws {
        let region = try #require(try SFZInheritanceTests.instrument("<region> sample=*saw pitch_keycenter=69", samples: []).regions.first)
        let p = region.resolvedPlayback(sample: nil)
        #expect(p.loopMode == .continuous && p.keycenter == 69)
    }
}
