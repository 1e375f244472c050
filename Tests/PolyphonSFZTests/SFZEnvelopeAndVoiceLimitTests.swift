import Foundation
import PolyphonSoundFont
import PolyphonSynth
import PolyphonTestSupport
import Testing
@testable import PolyphonSFZ

/// What an SFZ voice works out at its note-on and how voices limit and hold one another,
/// measured in sound: `ampeg_start` and the `ampeg_vel2*`/`ampeg_*_onccN` forms in envelope
/// levels and times, `delay`/`offset` forms in onset times, `polyphony`/`note_polyphony` and the
/// release regions of an `off_by` cut in which regions sound (their pitch), and the zone's own
/// sustain pedal (`sustain_cc`, `sustain_lo`, `sustain_sw`).
@Suite struct SFZEnvelopeAndVoiceLimitTests {
    typealias Step = SFZPlayTimeTests.Step

    static func send(_ seconds: Double, _ body: @escaping (Synthesizer) -> Void) -> Step { Step(send: body, seconds: seconds) }

    /// Peak level in dB of the 2 ms from `seconds` on.
    static func peak(_ out: Rendered, at seconds: Double) -> Double {
        Measure.db(Measure.peak(out.left[out.frame(seconds)..<out.frame(seconds + 0.002)]))
    }

    /// Seconds until the level first comes within `belowPeak` dB of its peak (2 ms windows).
    static func time(_ out: Rendered, toWithin belowPeak: Double) -> Double {
        let top = Measure.db(Measure.peak(out.left[...]))
        var t = 0.0
        while t < out.time(out.left.count) - 0.002 && peak(out, at: t) < top - belowPeak { t += 0.001 }
        return t
    }

    // Each instrument has a region over keys 100–127, never played, so that it is not taken for
    // a drum kit (which plays on channel 10 only).

    @Test func ampegStartAndTheVelocityAndControllerFormsSetTheEnvelopeAtNoteOn() throws {
        let bank = try SFZPlayingTests.bank("""
            <global> sample=s.wav pitch_keytrack=0
            <region> key=60 ampeg_attack=0.2 ampeg_start=50
            <region> key=62 ampeg_vel2attack=0.2
            <region> key=64 ampeg_attack_oncc1=0.2
            <region> key=65 ampeg_decay=0.05 ampeg_sustain=0 ampeg_sustain_oncc1=50
            <region> key=67 ampeg_decay=0.05 ampeg_sustain=20 ampeg_vel2sustain=30
            <region> key=69 ampeg_release=0.05 ampeg_vel2release=0.2
            <region> key=71 ampeg_delay=0.05 ampeg_start=30 ampeg_attack=0.1
            <region> lokey=100 hikey=127
            """, files: ["s.wav": SFZPlayingTests.sine(1000)])
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        func note(_ key: UInt8, velocity: UInt8 = 127, cc1: UInt8 = 0, held: Double = 0.3, after: Double = 0) throws -> Rendered {
            let synthesizer = try Synthesizer(soundBank: bank.soundFont)
            synthesizer.sendController(1, withValue: cc1, onChannel: 0)
            synthesizer.startNote(key, withVelocity: velocity, onChannel: 0)
            let before = synthesizer.renderSeconds(held, block: 64)
            guard after > 0 else { return before }
            synthesizer.stopNote(key, onChannel: 0)
            let rest = synthesizer.renderSeconds(after, block: 64)
            return Rendered(left: before.left + rest.left, right: before.right + rest.right, rate: before.rate)
        }
        // ampeg_start=50: the attack starts at half level (−6 dB) and, rising at 1/0.2 s, is
        // full after 0.1 s (sfizz).
        let started = try note(60)
        #expect(abs(Self.peak(started, at: 0.002) - Self.peak(started, at: 0.25) + 6) < 0.6)
        #expect(abs(Self.time(started, toWithin: 0.2) - 0.098) < 0.006, "\(Self.time(started, toWithin: 0.2)) s")
        // ampeg_vel2attack=0.2 at velocity 127, ampeg_attack_oncc1=0.2 at CC1 127: a 0.2 s attack;
        // halfway (0.1 s) the level is −6 dB. CC1 at 0: no attack.
        for out in [try note(62), try note(64, cc1: 127)] {
            #expect(abs(Self.peak(out, at: 0.1) - Self.peak(out, at: 0.25) + 6) < 0.3)
        }
        let noAttack = try note(64, cc1: 0)
        #expect(abs(Self.peak(noAttack, at: 0.01) - Self.peak(noAttack, at: 0.25)) < 0.2)
        // ampeg_sustain_oncc1=50 at CC1 127: sustain 50 % (−6 dB below a plain note); at CC1 0
        // sustain 0: silence.
        let full = Self.peak(try note(100), at: 0.28)
        #expect(abs(Self.peak(try note(65, cc1: 127), at: 0.28) - full + 6.02) < 0.2)
        #expect(Self.peak(try note(65, cc1: 0), at: 0.28) < -90)
        // ampeg_vel2sustain=30 over 20 %: at velocity 127, 50 % (−6 dB).
        #expect(abs(Self.peak(try note(67), at: 0.28) - full + 6.02) < 0.2)
        // ampeg_vel2release=0.2 over 0.05: a 0.25 s release at velocity 127, e⁻⁹ (78 dB) over
        // its time: −20 dB 64 ms after note-off; at velocity 64, 0.151 s: after 39 ms.
        for (velocity, expected) in [(UInt8(127), 0.064), (64, 0.0386)] {
            let out = try note(69, velocity: velocity, held: 0.2, after: 0.2)
            let top = Self.peak(out, at: 0.19)
            var t = 0.2
            while t < 0.39 && Self.peak(out, at: t) > top - 20 { t += 0.001 }
            #expect(abs(t - 0.2 - expected) < 0.006, "velocity \(velocity): \(t - 0.2) s")
        }
        // ampeg_delay with ampeg_start=30: the start level (−10.5 dB) through the delay.
        let delayed = try note(71)
        #expect(abs(Self.peak(delayed, at: 0.02) - Self.peak(delayed, at: 0.25) + 10.46) < 0.4)
    }

    @Test func delayAndOffsetFormsMoveWhenAndWhereTheVoiceStarts() throws {
        let gap = TestAudio.wav([[Float](repeating: 0, count: 22_050) + TestAudio.sine(frequency: 1000, frames: 22_050)])
        let bank = try SFZPlayingTests.bank("""
            <global> pitch_keytrack=0
            <region> sample=s.wav key=60 delay=0.05 delay_oncc1=0.1
            <region> sample=s.wav key=62 delay_random=0.1
            <region> sample=gap.wav key=64 offset_oncc1=22050
            <region> sample=gap.wav key=65 offset_random=22050
            <region> sample=s.wav lokey=100 hikey=127
            """, files: ["s.wav": SFZPlayingTests.sine(1000), "gap.wav": gap])
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        func onset(_ key: UInt8, cc1: UInt8 = 0, on synthesizer: Synthesizer? = nil) throws -> Double {
            let synthesizer = try synthesizer ?? Synthesizer(soundBank: bank.soundFont)
            synthesizer.sendController(1, withValue: cc1, onChannel: 0)
            synthesizer.startNote(key, withVelocity: 127, onChannel: 0)
            let out = synthesizer.renderSeconds(0.6, block: 64)
            synthesizer.stopNote(key, onChannel: 0)
            _ = synthesizer.renderSeconds(0.05, block: 64)
            let first = out.left.firstIndex { abs($0) > 1e-3 } ?? out.left.count
            return out.time(first)
        }
        // delay=0.05 plus delay_oncc1=0.1 at CC1 0 and 127 (the first sound comes within the
        // first quarter cycle of the sine).
        #expect(abs(try onset(60) - 0.05) < 0.001)
        #expect(abs(try onset(60, cc1: 127) - 0.15) < 0.001)
        // offset_oncc1=22050 at CC1 127 skips the half second of silence; at 0 it plays it.
        #expect(try onset(64, cc1: 127) < 0.001)
        #expect(abs(try onset(64) - 0.5) < 0.001)
        // delay_random and offset_random: each note draws anew within the range, and a new
        // synthesizer draws the same again.
        func draws() throws -> [Double] {
            let synthesizer = try Synthesizer(soundBank: bank.soundFont)
            return try (0..<6).map { _ in try onset(62, on: synthesizer) } + (0..<6).map { _ in try onset(65, on: synthesizer) }
        }
        // Absurd depths (any finite value is kept) bound the voice, never trap: it sounds finite.
        let absurd = try SFZPlayingTests.bank("""
            <region> sample=s.wav offset_oncc1=1e30 offset_random=4000000000 delay_oncc1=-1e30 delay_random=1e30
            <region> sample=s.wav ampeg_start=1e30 ampeg_attack_oncc1=1e30 ampeg_sustain_oncc1=-1e30 ampeg_vel2release=1e30
            """, files: ["s.wav": SFZPlayingTests.sine(1000)])
        let synthesizer = try Synthesizer(soundBank: absurd.soundFont)
        synthesizer.sendController(1, withValue: 127, onChannel: 0)
        synthesizer.startNote(60, withVelocity: 127, onChannel: 0)
        let finite = synthesizer.renderSeconds(0.05, block: 64).left.allSatisfy { $0.isFinite }
        #expect(finite)
        let first = try draws()
        let delays = first.prefix(6), offsets = first.suffix(6)
        #expect(delays.allSatisfy { $0 >= 0 && $0 <= 0.101 } && Set(delays).count >= 4, "\(delays)")
        #expect(offsets.allSatisfy { $0 >= 0 && $0 <= 0.501 } && Set(offsets).count >= 4, "\(offsets)")
        #expect(try draws() == first)
    }

    @Test func voiceLimitsStopTheOldestOrSoftestAndCutsPlayReleaseRegions() throws {
        let bank = try SFZPlayTimeTests.bank("""
            <group> group=1 polyphony=2
            <region> sample=a.wav key=48
            <region> sample=b.wav key=49
            <region> sample=c.wav key=50
            <group> polyphony=2
            <region> sample=a.wav key=52
            <region> sample=b.wav key=53
            <region> sample=c.wav key=54
            <group>
            <region> sample=a.wav lokey=56 hikey=69 pitch_keytrack=100 pitch_keycenter=56 polyphony=2
            <group> note_polyphony=1
            <region> sample=a.wav key=72 hivel=63
            <region> sample=b.wav key=72 lovel=64
            <group> note_polyphony=1 note_selfmask=off
            <region> sample=a.wav key=74 hivel=63
            <region> sample=b.wav key=74 lovel=64
            <group>
            <region> sample=c.wav key=46 group=2 off_by=1
            <region> sample=d.wav key=46 trigger=release
            <region> sample=e.wav key=42 group=1
            """)
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        func strike(_ key: UInt8, _ velocity: UInt8 = 127) -> Step {
            Self.send(0.02) { $0.startNote(key, withVelocity: velocity, onChannel: 0) }
        }
        func heard(_ steps: [Step]) throws -> String {
            SFZPlayTimeTests.played(try SFZPlayTimeTests.perform(bank, steps + [Self.send(0.12) { _ in }]).last!)
        }
        // A third voice of polyphony group 1 (limit 2) stops the first; so does a third under a
        // <group> with polyphony=2 and no group=, and a third voice of a region with polyphony=2
        // (keys 56, 61, 65: 300, 400, 504 Hz as a, b, c).
        #expect(try heard([strike(48), strike(49), strike(50)]) == "bc")
        #expect(try heard([strike(52), strike(53), strike(54)]) == "bc")
        #expect(try heard([strike(56), strike(61), strike(65)]) == "bc")
        #expect(try heard([strike(48), strike(53)]) == "ab")
        // note_polyphony=1: a softer note leaves the louder one (note_selfmask on), a louder
        // one stops the softer; with note_selfmask=off the newer always wins.
        #expect(try heard([strike(72, 100), strike(72, 50)]) == "ab")
        #expect(try heard([strike(72, 50), strike(72, 100)]) == "b")
        #expect(try heard([strike(74, 100), strike(74, 50)]) == "a")
        // The closed hat (42, group 1) cuts the open one (46, off_by=1): 46's release region
        // plays at once, as at a note-off (sfizz).
        #expect(try heard([strike(46), strike(42)]) == "de")
    }

    @Test func eachRegionFollowsItsOwnSustainPedal() throws {
        let bank = try SFZPlayTimeTests.bank("""
            <region> sample=a.wav key=60 sustain_cc=67
            <region> sample=b.wav key=62 sustain_lo=100
            <region> sample=c.wav key=64
            <region> sample=d.wav key=66 sustain_sw=off
            <region> sample=a.wav key=68
            <region> sample=e.wav key=68 trigger=release sustain_cc=67
            <region> sample=e.wav lokey=100 hikey=127
            """)
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        func heldAfterNoteOff(_ key: UInt8, pedal: UInt8, value: UInt8) throws -> String {
            let outs = try SFZPlayTimeTests.perform(bank, [
                Self.send(0.01) { $0.sendController(pedal, withValue: value, onChannel: 0) },
                Self.send(0.05) { $0.startNote(key, withVelocity: 127, onChannel: 0) },
                Self.send(0.12) { $0.stopNote(key, onChannel: 0) }])
            return SFZPlayTimeTests.played(outs[2])
        }
        #expect(try heldAfterNoteOff(60, pedal: 67, value: 127) == "a")
        #expect(try heldAfterNoteOff(60, pedal: 64, value: 127) == "-")
        #expect(try heldAfterNoteOff(62, pedal: 64, value: 80) == "-")
        #expect(try heldAfterNoteOff(62, pedal: 64, value: 127) == "b")
        // sfizz's pedal is down from CC64 1 on (sustain_lo=1), where MIDI's is from 64.
        #expect(try heldAfterNoteOff(64, pedal: 64, value: 30) == "c")
        #expect(try heldAfterNoteOff(66, pedal: 64, value: 127) == "-")
        // Lowering the pedal below the region's sustain_lo releases it; the release region of
        // key 68 waits for CC67, not CC64.
        let outs = try SFZPlayTimeTests.perform(bank, [
            Self.send(0.01) { $0.sendController(64, withValue: 127, onChannel: 0); $0.sendController(67, withValue: 127, onChannel: 0) },
            Self.send(0.12) { $0.startNote(62, withVelocity: 127, onChannel: 0); $0.startNote(68, withVelocity: 127, onChannel: 0) },
            Self.send(0.12) { $0.stopNote(62, onChannel: 0); $0.stopNote(68, onChannel: 0) },
            Self.send(0.12) { $0.sendController(64, withValue: 90, onChannel: 0) },
            Self.send(0.12) { $0.sendController(67, withValue: 0, onChannel: 0) }])
        let heard = outs.suffix(4).map { SFZPlayTimeTests.played($0) }
        #expect(heard == ["ab", "ab", "a", "ae"], "\(heard)")
    }
}
