import Testing
import PolyphonMIDI
import PolyphonSoundFont
import PolyphonSynth
import PolyphonTestSupport
@testable import PolyphonLive

/// A live synthesizer on an SF3 bank: a program change's samples are decoded on the input thread,
/// before the message is queued, so the render thread plays them without decoding.
@Suite struct LivePresetPreloadTests {
    @Test(.enabled(if: RealFiles.available(RealFiles.museScore)))
    func aProgramChangeIsDecodedBeforeItReachesTheRenderThread() throws {
        let bank = try SoundFont(contentsOf: RealFiles.museScore)
        let preloader = try #require(LivePresetPreloader(soundBank: bank))
        // The channels' starting presets (piano, standard kit) are ready at once.
        let atStart = bank.decodedSampleStatistics.streams
        #expect(atStart > 0)

        #expect(preloader.prepare([.channelVoice(.programChange(channel: 2, program: 40))]) == nil)
        let afterViolin = bank.decodedSampleStatistics.streams
        #expect(afterViolin > atStart)
        #expect(preloader.prepare([.channelVoice(.programChange(channel: 5, program: 40))]) == nil)
        #expect(bank.decodedSampleStatistics.streams == afterViolin, "decoded once")

        // Playing the violin's whole range decodes nothing more on the render thread.
        let synth = try Synthesizer(soundBank: bank, sampleRate: 44_100)
        synth.sendProgramChange(40, onChannel: 2)
        for key in stride(from: 40, through: 100, by: 3) { synth.startNote(UInt8(key), withVelocity: 100, onChannel: 2) }
        _ = synth.render(frameCount: 4_410)
        #expect(bank.decodedSampleStatistics.streams == afterViolin)
    }

    @Test func anSF2BankNeedsNoPreloader() {
        var b = SoundFont.Builder(name: "PCM")
        _ = b.addSample([0, 1000, 0, -1000], name: "s", sampleRate: 44_100, originalPitch: 60)
        #expect(LivePresetPreloader(soundBank: b.build()) == nil)
    }
}
