import Foundation
import PolyphonSoundFont
import PolyphonSynth
import PolyphonTestSupport
import Testing
@testable import PolyphonSFZ

/// The controllers moving a voice's volume, pan and pitch through a `<curve>`, a step or
/// smoothing (`volume_curveccN`, `pan_stepccN`, `pitch_smoothccN`, the `gain_`/`tune_` aliases),
/// and `bend_step`/`bend_smooth`, as sfizz_render plays them. Measured in sound: cents, dB, ms.
@Suite struct SFZVoiceControllerTests {
    static let instrument = """
        <curve> curve_index=7 v000=0 v064=1 v127=1
        <global> sample=low.wav pitch_keytrack=0
        <region> key=60 pitch_oncc1=1200 pitch_curvecc1=7
        <region> key=61 tune_oncc1=1200 tune_stepcc1=100
        <region> key=62 volume_oncc1=-24 volume_curvecc1=7
        <region> key=63 gain_oncc1=12 gain_stepcc1=5
        <region> key=64
        <region> key=65 pan_oncc1=100 pan_stepcc1=30
        <region> key=66 volume_oncc1=-24 volume_stepcc1=6
        <region> key=67 bend_up=1200 bend_step=100
        <region> key=68 bend_step=100 bend_down=-1200
        <region> key=70 pitch_oncc2=1200 pitch_smoothcc2=100
        <region> key=71 volume_oncc2=-24 volume_smoothcc2=100
        <region> key=72 bend_smooth=100
        """

    @Test func curvesAndStepsMoveVolumePanAndPitchAsSfizzDoes() throws {
        let bank = try SFZControllerDefaultAndPitchTests.bank(Self.instrument)
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        let synthesizer = try Synthesizer(soundBank: bank.soundFont)
        func strike(_ key: UInt8) -> (hertz: Double, decibels: Double) {
            SFZControllerDefaultAndPitchTests.strike(synthesizer, key: key)
        }
        let reference = strike(64).decibels
        func cents(_ key: UInt8) -> Double { Measure.cents(strike(key).hertz, 440) }
        func decibels(_ key: UInt8) -> Double { strike(key).decibels - reference }

        synthesizer.sendController(1, withValue: 40, onChannel: 0)
        // The curve reaches 1 at 64: CC 40 reads 40/64 of the depth.
        #expect(abs(cents(60) - 750) < 1, "pitch_curvecc1=7 at CC 40: \(cents(60))")
        // 1200 × 40/127 = 378 cents, down to a whole 100 (sfizz_render: +300.0).
        #expect(abs(cents(61) - 300) < 1, "tune_stepcc1=100 at CC 40: \(cents(61))")
        #expect(abs(decibels(62) + 15) < 0.1, "volume_curvecc1=7 at CC 40: \(decibels(62))")
        // A negative depth has no step in sfizz (it divides the step by the depth): −7.56 dB.
        #expect(abs(decibels(66) + 24 * 40 / 127) < 0.1, "volume_stepcc1=6 with a depth of −24: \(decibels(66))")
        // 12 × 40/127 = 3.78 dB, below the 5 dB step: none.
        #expect(abs(decibels(63)) < 0.1, "gain_stepcc1=5 at CC 40: \(decibels(63))")
        // pan 100 × 40/127 = 31.5 %, stepped to 30 %: right over left is cos(0.35·π/2)/cos(0.65·π/2).
        synthesizer.startNote(65, withVelocity: 100, onChannel: 0)
        let panned = synthesizer.renderSeconds(0.15, block: 64)
        synthesizer.allSoundOff()
        _ = synthesizer.renderSeconds(0.01, block: 64)
        let balance = SFZPlayingTests.level(panned, from: 0.05, to: 0.15, right: true)
            - SFZPlayingTests.level(panned, from: 0.05, to: 0.15)
        let expected = 20 * log10(cos(0.35 * Double.pi / 2) / cos(0.65 * Double.pi / 2))
        #expect(abs(balance - expected) < 0.05, "pan_stepcc1=30 at CC 40: \(balance) dB, expected \(expected)")

        synthesizer.sendController(1, withValue: 100, onChannel: 0)
        #expect(abs(decibels(63) - 5) < 0.1, "gain_stepcc1=5 at CC 100 (9.45 dB): \(decibels(63))")
        #expect(abs(cents(61) - 900) < 1, "tune_stepcc1=100 at CC 100 (945 cents): \(cents(61))")

        // The shaping travels in the bank's SF2 bytes (the browser engine's form of an SFZ).
        let twin = try Synthesizer(soundBank: try SoundFont(bytes: bank.soundFont.serialized(), name: "twin.sf2"))
        twin.sendController(1, withValue: 100, onChannel: 0)
        let twinCents = Measure.cents(SFZControllerDefaultAndPitchTests.strike(twin, key: 61).hertz, 440)
        #expect(abs(twinCents - 900) < 1, "tune_stepcc1=100 read back from the SF2 bytes: \(twinCents)")

        // bend_step: the bend's cents truncated to whole steps, up and down.
        for (wheel, up, down) in [(11223, 400.0, 0.0), (13107, 700, 100), (3277, -100, -700)] as [(UInt16, Double, Double)] {
            synthesizer.sendPitchBend(wheel, onChannel: 0)
            #expect(abs(cents(67) - up) < 1, "bend_up=1200 bend_step=100 at wheel \(wheel): \(cents(67))")
            #expect(abs(cents(68) - down) < 1, "bend_step=100 bend_down=-1200 at wheel \(wheel): \(cents(68))")
        }
    }

    /// A controller or the wheel jumps 40 ms into a note: the smoothed value ramps linearly to it
    /// over the smoothing time (100 ms), where a plain one would jump.
    @Test func smoothingRampsVolumePitchAndBendOverItsTime() throws {
        let bank = try SFZControllerDefaultAndPitchTests.bank(Self.instrument)
        let synthesizer = try Synthesizer(soundBank: bank.soundFont)
        /// The note's last 10 ms before the jump and the 160 ms after it.
        func jump(_ key: UInt8, _ change: () -> Void) -> (before: Rendered, after: Rendered) {
            synthesizer.startNote(key, withVelocity: 100, onChannel: 0)
            let before = synthesizer.renderSeconds(0.04, block: 64)
            change()
            let after = synthesizer.renderSeconds(0.16, block: 64)
            synthesizer.allSoundOff()
            _ = synthesizer.renderSeconds(0.01, block: 64)
            synthesizer.sendController(2, withValue: 0, onChannel: 0)
            synthesizer.sendPitchBend(8192, onChannel: 0)
            return (before, after)
        }
        func cents(_ out: Rendered, at ms: Double) -> Double {
            Measure.cents(SFZPlayingTests.frequency(out, from: ms / 1000 - 0.005, to: ms / 1000 + 0.005), 440)
        }
        let pitch = jump(70) { synthesizer.sendController(2, withValue: 127, onChannel: 0) }.after
        let bend = jump(72) { synthesizer.sendPitchBend(16383, onChannel: 0) }.after
        for (ms, share) in [(25.0, 0.25), (50, 0.5), (75, 0.75), (140, 1)] {
            #expect(abs(cents(pitch, at: ms) - 1200 * share) < 25, "pitch_smoothcc2=100, \(ms) ms: \(cents(pitch, at: ms))")
            #expect(abs(cents(bend, at: ms) - 200 * share) < 6, "bend_smooth=100, \(ms) ms: \(cents(bend, at: ms))")
        }
        let volume = jump(71) { synthesizer.sendController(2, withValue: 127, onChannel: 0) }
        let start = SFZPlayingTests.level(volume.before, from: 0.04 - 4 / 440, to: 0.04)
        // Windows of four periods of the 440 Hz sine.
        func decibels(at ms: Double) -> Double {
            SFZPlayingTests.level(volume.after, from: ms / 1000 - 2 / 440, to: ms / 1000 + 2 / 440)
        }
        for (ms, share) in [(25.0, 0.25), (50, 0.5), (75, 0.75), (140, 1)] {
            let fallen = decibels(at: ms) - start
            #expect(abs(fallen + 24 * share) < 0.6, "volume_smoothcc2=100, \(ms) ms: \(fallen) dB")
        }
    }
    /// `end_onccN`, `loop_start_onccN`, `loop_end_onccN` move the sample's end and its loop at
    /// note-on by CC/127 × depth frames, as sfizz: a 0.2 s sample of two halves, 440 Hz then
    /// 660 Hz, so the pitch tells which half plays.
    @Test func controllersMoveTheEndAndTheLoopAtNoteOn() throws {
        let half = 4410
        let halves = TestAudio.sine(frequency: 440, frames: half) + TestAudio.sine(frequency: 660, frames: half)
        let bank = try SFZPlayingTests.bank("""
            <global> sample=halves.wav pitch_keytrack=0 pitch_keycenter=60 ampeg_release=0.01
            <region> key=60 end=8819 end_oncc1=-4410
            <region> key=61 loop_mode=loop_continuous loop_start=0 loop_end=8819 loop_start_oncc1=4410
            <region> key=62 loop_mode=loop_continuous loop_start=0 loop_end=8819 loop_end_oncc1=-4410
            <region> lokey=100 hikey=127
            """, files: ["halves.wav": TestAudio.wav([halves])])
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        let synthesizer = try Synthesizer(soundBank: bank.soundFont)
        func play(_ key: UInt8) -> Rendered {
            synthesizer.startNote(key, withVelocity: 100, onChannel: 0)
            let out = synthesizer.renderSeconds(0.3, block: 64)
            synthesizer.allSoundOff()
            _ = synthesizer.renderSeconds(0.01, block: 64)
            return out
        }
        func hertz(_ out: Rendered, at seconds: Double) -> Double {
            SFZPlayingTests.frequency(out, from: seconds, to: seconds + 0.02)
        }
        for value in [0, 127] as [UInt8] {
            synthesizer.sendController(1, withValue: value, onChannel: 0)
            let moved = value == 127
            // The end 0.1 s earlier at CC 127: silent where the 660 Hz half would play.
            let ends = play(60)
            let ended = SFZPlayingTests.level(ends, from: 0.12, to: 0.18) - SFZPlayingTests.level(ends, from: 0.02, to: 0.08)
            #expect(moved ? ended < -60 : abs(ended) < 1, "end_oncc1=-4410 at CC \(value): \(ended) dB at 0.12–0.18 s")
            // The loop starting at the 660 Hz half: it plays on after the first pass.
            let looped = hertz(play(61), at: 0.25)
            #expect(abs(looped - (moved ? 660 : 440)) < 5, "loop_start_oncc1=4410 at CC \(value): \(looped) Hz at 0.25 s")
            // The loop ending after the 440 Hz half: the 660 Hz half never plays.
            let early = hertz(play(62), at: 0.15)
            #expect(abs(early - (moved ? 440 : 660)) < 5, "loop_end_oncc1=-4410 at CC \(value): \(early) Hz at 0.15 s")
        }
    }
}
