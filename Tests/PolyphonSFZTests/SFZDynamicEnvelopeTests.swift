import Foundation
import PolyphonSynth
import PolyphonTestSupport
import Testing
@testable import PolyphonSFZ

/// SFZ's `ampeg_dynamic`: the amplitude envelope's stages read again when their controllers
/// move while the note sounds (sfizz's dynamic `ADSREnvelope`), measured in dB against a plain
/// note over time; without it they stay as the note-on read them.
@Suite struct SFZDynamicEnvelopeTests {
    @Test func controllersMovingTheStagesRetimeTheRunningEnvelope() throws {
        let bank = try SFZPlayingTests.bank("""
            <group> sample=s.wav pitch_keytrack=0
            <region> key=60 ampeg_dynamic=1 ampeg_attack=1 ampeg_attack_oncc1=-0.9
            <region> key=61 ampeg_attack=1 ampeg_attack_oncc1=-0.9
            <region> key=62 ampeg_dynamic=1 ampeg_sustain=100 ampeg_sustain_oncc1=-50 ampeg_decay=0.05
            <region> key=63 ampeg_sustain=100 ampeg_sustain_oncc1=-50 ampeg_decay=0.05
            <region> lokey=64 hikey=127
            """, files: ["s.wav": SFZPlayingTests.sine(1000)])
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        /// `key` with CC 1 at 0, moved to 127 after 100 ms: its level against the plain key at
        /// `times` (s), 5 ms windows.
        func levels(_ key: UInt8, at times: [Double]) throws -> [Double] {
            let synthesizer = try Synthesizer(soundBank: bank.soundFont)
            synthesizer.startNote(key, withVelocity: 127, onChannel: 0)
            let before = synthesizer.renderSeconds(0.1, block: 64)
            synthesizer.sendController(1, withValue: 127, onChannel: 0)
            let after = synthesizer.renderSeconds(0.3, block: 64)
            let out = Rendered(left: before.left + after.left, right: before.right + after.right, rate: before.rate)
            let plain = try SFZPlayingTests.play(bank, key: 64, seconds: 0.4)
            return times.map { SFZPlayingTests.level(out, from: $0, to: $0 + 0.005) - SFZPlayingTests.level(plain, from: $0, to: $0 + 0.005) }
        }
        // Attack 1 s at CC 0: at 100 ms the level is 0.1; CC 1 to 127 makes it 0.1 s (a rise of
        // 10 per second), so 0.5 (−6 dB) at 140 ms, full from 190 ms. Without ampeg_dynamic the
        // attack keeps its 1 s: 0.25 (−12 dB) at 250 ms.
        let attack = try levels(60, at: [0.0925, 0.1375, 0.25])
        #expect(abs(attack[0] + 20) < 0.6, "dynamic attack before the move: \(attack[0]) dB")
        #expect(abs(attack[1] + 6.02) < 0.6, "half way through the quickened attack: \(attack[1]) dB")
        #expect(abs(attack[2]) < 0.1, "after it: \(attack[2]) dB")
        let fixed = try levels(61, at: [0.2475])
        #expect(abs(fixed[0] + 12.04) < 0.3, "the attack read at note-on: \(fixed[0]) dB")
        // Sustain 100 % at CC 0, 50 % (−6.02 dB) at 127: the held note falls to it.
        let sustain = try levels(62, at: [0.09, 0.35])
        #expect(abs(sustain[0]) < 0.1 && abs(sustain[1] + 6.02) < 0.1, "dynamic sustain: \(sustain) dB")
        let held = try levels(63, at: [0.35])
        #expect(abs(held[0]) < 0.1, "the sustain read at note-on: \(held[0]) dB")
    }

    /// `ampeg_*_curveccN`: the controller's value passes through its curve before the depth, at
    /// note-on as while the note sounds (sfizz's `EGDescription`).
    @Test func envelopeControllersFollowTheirCurves() throws {
        let bank = try SFZPlayingTests.bank("""
            <group> sample=s.wav pitch_keytrack=0
            <region> key=60 ampeg_attack_oncc1=1 ampeg_attack_curvecc1=4
            <region> lokey=64 hikey=127
            """, files: ["s.wav": SFZPlayingTests.sine(1000)])
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        let synthesizer = try Synthesizer(soundBank: bank.soundFont)
        synthesizer.sendController(1, withValue: 64, onChannel: 0)
        synthesizer.startNote(60, withVelocity: 127, onChannel: 0)
        let out = synthesizer.renderSeconds(0.3, block: 64)
        let plain = try SFZPlayingTests.play(bank, key: 64, seconds: 0.3)
        // Curve 4 (x²): an attack of (64/127)² s = 254 ms, half way (−6.02 dB) at 127 ms.
        let half = SFZPlayingTests.level(out, from: 0.1245, to: 0.1295) - SFZPlayingTests.level(plain, from: 0.1245, to: 0.1295)
        #expect(abs(half + 6.02) < 0.3, "ampeg_attack_curvecc1=4 at CC 64, 127 ms: \(half) dB")
    }
}
