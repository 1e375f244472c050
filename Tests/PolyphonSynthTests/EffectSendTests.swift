import Foundation
import PolyphonSoundFont
import Testing
@testable import PolyphonSynth

@Suite("Effect sends in the engine")
struct EffectSendTests {
    func render(_ config: SynthesizerConfiguration, bank: SoundFont = TestBank.sine(), cc91: UInt8? = nil,
                cc93: UInt8? = nil, seconds: Double = 1.0) throws -> Rendered {
        let s = try Synthesizer(soundBank: bank, configuration: config)
        if let cc91 { s.sendController(91, withValue: cc91, onChannel: 0) }
        if let cc93 { s.sendController(93, withValue: cc93, onChannel: 0) }
        s.startNote(69, withVelocity: 127, onChannel: 0)
        s.stopNote(69, onChannel: 0, atFrame: 22050)
        return s.renderSeconds(seconds)
    }

    @Test func dryPathIsBitIdenticalWhenEffectsAreOffOrNotSent() throws {
        let off = SynthesizerConfiguration.dry
        let on = SynthesizerConfiguration()
        // CC91/CC93 at 0 and generators at 0: effects on must not change a single sample.
        let a = try render(off, cc91: 0, cc93: 0), b = try render(on, cc91: 0, cc93: 0)
        #expect(a.left == b.left && a.right == b.right)
        // Effects off: sends are ignored entirely.
        let c = try render(off, cc91: 127, cc93: 127)
        #expect(a.left == c.left)
    }

    @Test func reverbSendLevelFollowsCC91() throws {
        // The wet part (with send minus without) scales with the send: CC91 127 → 20 %,
        // CC91 64 → 10 %: 6 dB apart (the reverb is linear).
        var config = SynthesizerConfiguration()
        config.chorusEnabled = false
        let dry = try render(config, cc91: 0, seconds: 2)
        func wet(_ cc: UInt8) throws -> Double {
            let r = try render(config, cc91: cc, seconds: 2)
            let w = zip(r.left, dry.left).map { $0 - $1 }
            return Measure.db(Measure.rms(w[...]))
        }
        let full = try wet(127), half = try wet(64)
        #expect(abs((full - half) - Measure.db(127.0 / 64)) < 0.05, "\(full - half) dB")
        // Generator 16 (reverbEffectsSend, 0.1 %) adds to the controller: 200 ‰ alone is 0.07 dB
        // above CC91 127, which sends 200 × 127/128 ‰ (SF2 2.04 §8.4.8).
        let gen = try render(config, bank: TestBank.sine(generators: [Generator(.reverbEffectsSend, 200)]), cc91: 0, seconds: 2)
        let genWet = Measure.db(Measure.rms(zip(gen.left, dry.left).map { $0 - $1 }[...]))
        #expect(abs(genWet - full - Measure.db(128.0 / 127)) < 0.02)
    }

    @Test func reverbTailDecaysToSilenceAndRendersEnd() throws {
        let r = try render(SynthesizerConfiguration(), cc91: 127, seconds: 8)
        // The release ends ~0.5 s after note-off; the reverb rings on, then falls below −100 dB.
        let mid = Measure.db(Measure.rms(r.left[r.frame(0.9)..<r.frame(1.0)]))
        let late = Measure.db(Measure.rms(r.left[r.frame(7.5)...]))
        #expect(mid > -80)
        #expect(late < -100)
    }

    @Test func gsReverbMacroChangesTheReverb() throws {
        let s = try Synthesizer(soundBank: TestBank.sine())
        let before = s.reverbSettings
        // GS reverb macro 4 (Hall 2): F0 41 10 42 12 40 01 30 04 0B F7.
        s.sendMIDISysExEvent([0xF0, 0x41, 0x10, 0x42, 0x12, 0x40, 0x01, 0x30, 0x04, 0x0B, 0xF7])
        _ = s.renderSeconds(0.01)
        #expect(s.reverbSettings == ReverbSettings.gs(type: 4))
        #expect(s.reverbSettings != before)
    }
}
