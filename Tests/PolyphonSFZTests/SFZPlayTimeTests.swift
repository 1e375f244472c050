import Foundation
import PolyphonSoundFont
import PolyphonSynth
import PolyphonTestSupport
import Testing
@testable import PolyphonSFZ

/// What SFZ decides while playing, measured in sound: which region a note chose (told by its
/// pitch: each region plays a sine of its own frequency) under round robin, random layers,
/// keyswitches, controller, bend and channel ranges and first/legato triggers; release
/// triggers and `rt_decay` in dB; one-shots and polyphony groups in levels over time.
@Suite struct SFZPlayTimeTests {
    static let hertz: [String: Double] = ["a": 300, "b": 400, "c": 500, "d": 600, "e": 700]
    static let files = Dictionary(uniqueKeysWithValues: hertz.map { ("\($0.key).wav", SFZPlayingTests.sine($0.value)) })

    /// A performance on one synthesizer: each step sends its messages, then renders `seconds`.
    struct Step {
        var send: (Synthesizer) -> Void
        var seconds: Double = 0.12
    }

    static func note(_ key: UInt8, velocity: UInt8 = 127, channel: UInt8 = 0, seconds: Double = 0.12) -> [Step] {
        [Step(send: { $0.startNote(key, withVelocity: velocity, onChannel: channel) }, seconds: seconds),
         Step(send: { $0.stopNote(key, onChannel: channel) }, seconds: 0.03)]
    }

    static func perform(_ bank: SFZSoundBank, _ steps: [Step]) throws -> [Rendered] {
        let synthesizer = try Synthesizer(soundBank: bank.soundFont)
        return steps.map { step in
            step.send(synthesizer)
            return synthesizer.renderSeconds(step.seconds, block: 64)
        }
    }

    /// Which samples a rendered note played, by their sines' amplitudes 20–100 ms into it
    /// (Hann-windowed DFT at each sine's frequency): the names within 20 dB of the loudest,
    /// in order ("ac": a and c at once), "-" for silence.
    static func played(_ out: Rendered) -> String {
        let window = Array(out.left[out.frame(0.02)..<min(out.frame(0.1), out.left.count)])
        let n = Double(window.count)
        let amplitudes = hertz.mapValues { f -> Double in
            var re = 0.0, im = 0.0
            for (i, x) in window.enumerated() {
                let w = Double(x) * (0.5 - 0.5 * cos(2 * .pi * Double(i) / n))
                re += w * cos(2 * .pi * f * Double(i) / out.rate)
                im -= w * sin(2 * .pi * f * Double(i) / out.rate)
            }
            return 4 * (re * re + im * im).squareRoot() / n
        }
        let loudest = amplitudes.values.max() ?? 0
        guard loudest > 1e-3 else { return "-" }
        return amplitudes.filter { $0.value > loudest / 10 }.keys.sorted().joined()
    }

    /// The samples each note-on step played (the note-off steps skipped).
    static func sequence(_ bank: SFZSoundBank, _ steps: [Step]) throws -> [String] {
        try perform(bank, steps).enumerated().filter { $0.offset % 2 == 0 }.map { played($0.element) }
    }

    static func bank(_ text: String) throws -> SFZSoundBank {
        try SFZPlayingTests.bank("<global> pitch_keytrack=0 ampeg_release=0.01\n" + text, files: files)
    }

    @Test func roundRobinCyclesPerRegionAsSfizzCounts() throws {
        let bank = try Self.bank("""
            <group> seq_length=3 hikey=69
            <region> sample=a.wav seq_position=1
            <region> sample=b.wav seq_position=2
            <region> sample=c.wav seq_position=3
            <group> lokey=70
            <region> sample=d.wav
            """)
        #expect(bank.regionCount == 4 && bank.warnings.isEmpty, "\(bank.warnings)")
        let steps = [60, 62, 72, 64, 60, 61, 63].flatMap { Self.note(UInt8($0)) }
        // Key 72 is outside the round robin's keys, so it does not advance it.
        #expect(try Self.sequence(bank, steps) == ["a", "b", "d", "c", "a", "b", "c"])
    }

    @Test func randomLayersAreOneRegionPerNoteAndRepeatRenderToRender() throws {
        let bank = try Self.bank("""
            <region> sample=a.wav hirand=0.25
            <region> sample=b.wav lorand=0.25 hirand=0.75
            <region> sample=c.wav lorand=0.75
            """)
        let steps = (0..<24).flatMap { _ in Self.note(60, seconds: 0.1) }
        let first = try Self.sequence(bank, steps)
        #expect(first.allSatisfy { $0.count == 1 && $0 != "-" }, "\(first)")
        #expect(first.filter { $0 == "a" }.count >= 2 && first.filter { $0 == "b" }.count >= 6
                && first.filter { $0 == "c" }.count >= 2, "\(first)")
        #expect(try Self.sequence(bank, steps) == first)
    }

    @Test func keyswitchesChooseTheArticulation() throws {
        let bank = try Self.bank("""
            <group> sw_lokey=36 sw_hikey=38 sw_default=36 lokey=48 hikey=69
            <region> sample=a.wav sw_last=36
            <region> sample=b.wav sw_last=37
            <group> lokey=48
            <region> sample=c.wav sw_down=40 hikey=69
            <region> sample=d.wav sw_previous=50 lokey=70
            <region> sample=e.wav sw_up=41 lokey=80
            """)
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        func hold(_ key: UInt8) -> Step { Step(send: { $0.startNote(key, withVelocity: 100, onChannel: 0) }, seconds: 0.01) }
        func lift(_ key: UInt8) -> Step { Step(send: { $0.stopNote(key, onChannel: 0) }, seconds: 0.01) }
        let steps = Self.note(60)                        // default switch 36: a
            + [hold(37), lift(37)] + Self.note(60)       // b
            + [hold(36), lift(36)] + Self.note(60)       // a again
            + [hold(40)] + Self.note(60) + [lift(40)]    // 40 held: a and c together
            + Self.note(72)                               // previous note 60: nothing
            + Self.note(50) + Self.note(72)               // previous 50: d (50 itself plays a)
            + Self.note(84) + [hold(41)] + Self.note(84) + [lift(41)]  // sw_up: e, then nothing
        let outs = try Self.perform(bank, steps)
        let noteOns = [0, 4, 8, 11, 14, 16, 18, 20, 23]
        let heard = noteOns.map { Self.played(outs[$0]) }
        #expect(heard == ["a", "b", "a", "ac", "-", "a", "d", "e", "-"], "\(heard)")
    }

    @Test func controllerBendAndChannelRangesAreReadAtNoteOn() throws {
        let bank = try Self.bank("""
            <region> sample=a.wav hicc1=63 hikey=59
            <region> sample=b.wav locc1=64 hikey=59
            <region> sample=c.wav lobend=1 lokey=60 hikey=69
            <region> sample=d.wav hibend=0 lokey=60 hikey=69
            <region> sample=e.wav lochan=2 hichan=2 lokey=70
            """)
        let cc = { (value: UInt8) in Step(send: { $0.sendController(1, withValue: value, onChannel: 0) }, seconds: 0.01) }
        let bend = { (value: UInt16) in Step(send: { $0.sendPitchBend(value, onChannel: 0) }, seconds: 0.01) }
        let steps = Self.note(50) + [cc(64)] + Self.note(50) + [cc(63)] + Self.note(50)
            + Self.note(65) + [bend(8193)] + Self.note(65) + [bend(8192)]
            + Self.note(75, channel: 0) + Self.note(75, channel: 1)
        let outs = try Self.perform(bank, steps)
        let heard = [0, 3, 6, 8, 11, 14, 16].map { Self.played(outs[$0]) }
        #expect(heard == ["a", "b", "a", "d", "c", "-", "e"], "\(heard)")
    }

    @Test func firstAndLegatoTriggersFollowTheHeldKeys() throws {
        let bank = try Self.bank("""
            <region> sample=a.wav trigger=first
            <region> sample=b.wav trigger=legato
            """)
        let steps = [Step(send: { $0.startNote(60, withVelocity: 100, onChannel: 0) }, seconds: 0.12),
                     Step(send: { $0.startNote(64, withVelocity: 100, onChannel: 0); $0.stopNote(60, onChannel: 0) },
                          seconds: 0.12),
                     Step(send: { $0.stopNote(64, onChannel: 0) }, seconds: 0.12),
                     Step(send: { $0.startNote(67, withVelocity: 100, onChannel: 0) }, seconds: 0.12)]
        let heard = try Self.perform(bank, steps).map { Self.played($0) }
        #expect(heard == ["a", "b", "-", "a"], "\(heard)")
    }

    @Test func releaseTriggersPlayOnNoteOffQuieterByRtDecayAndWaitForThePedal() throws {
        let bank = try Self.bank("""
            <region> sample=a.wav hikey=79
            <region> sample=b.wav trigger=release rt_decay=10 hikey=79
            <region> sample=c.wav trigger=release_key lokey=80
            """)
        #expect(bank.regionCount == 3 && bank.warnings.isEmpty, "\(bank.warnings)")
        func releaseLevel(held: Double, velocity: UInt8 = 127) throws -> (String, Double) {
            let outs = try Self.perform(bank, [Step(send: { $0.startNote(60, withVelocity: velocity, onChannel: 0) },
                                                    seconds: held),
                                               Step(send: { $0.stopNote(60, onChannel: 0) }, seconds: 0.15)])
            return (Self.played(outs[1].sliceFrom(0.03)), SFZPlayingTests.level(outs[1], from: 0.05, to: 0.12))
        }
        let (short, shortLevel) = try releaseLevel(held: 0.1)
        let (long, longLevel) = try releaseLevel(held: 0.6)
        #expect(short == "b" && long == "b")
        // 10 dB per second held: 0.5 s longer, 5 dB quieter.
        #expect(abs(shortLevel - longLevel - 5) < 0.1, "\(shortLevel - longLevel) dB")
        // The release plays at the note-on's velocity: (64/127)² is 11.9 dB below 127.
        let (_, soft) = try releaseLevel(held: 0.1, velocity: 64)
        #expect(abs(shortLevel - soft - 40 * log10(127.0 / 64)) < 0.1, "\(shortLevel - soft) dB")

        // With the pedal down the release waits for the pedal; release_key does not.
        let synth = { (seconds: Double, send: @escaping (Synthesizer) -> Void) in Step(send: send, seconds: seconds) }
        let outs = try Self.perform(bank, [
            synth(0.05) { $0.sendController(64, withValue: 127, onChannel: 0) },
            synth(0.12) { $0.startNote(60, withVelocity: 127, onChannel: 0) },
            synth(0.12) { $0.stopNote(60, onChannel: 0) },
            synth(0.12) { $0.sendController(64, withValue: 0, onChannel: 0) },
            synth(0.05) { $0.sendController(64, withValue: 127, onChannel: 0) },
            synth(0.12) { $0.startNote(84, withVelocity: 127, onChannel: 0) },
            synth(0.12) { $0.stopNote(84, onChannel: 0) },
        ])
        // The attack sustains under the pedal; the release joins when the pedal lifts and plays
        // its 1 s sample to the end, whatever comes (as in sfizz); c starts at 84's note-off.
        let heard = [1, 2, 3, 5, 6].map { Self.played(outs[$0]) }
        #expect(heard == ["a", "a", "b", "b", "bc"], "\(heard)")
    }

    @Test func oneShotsPlayOnAfterNoteOffAndGroupsCutEachOther() throws {
        let short = TestAudio.wav([TestAudio.sine(frequency: 300, frames: 13_230)])     // 0.3 s
        let bank = try SFZPlayingTests.bank("""
            <global> pitch_keytrack=0
            <region> sample=short.wav key=36 loop_mode=one_shot
            <region> sample=b.wav key=42 group=1 ampeg_release=2
            <region> sample=c.wav key=46 group=2 off_by=1 ampeg_release=2
            """, files: ["short.wav": short, "b.wav": Self.files["b.wav"]!, "c.wav": Self.files["c.wav"]!])
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        let level = { (out: Rendered, from: Double, to: Double) in SFZPlayingTests.level(out, from: from, to: to) }
        // Released after 50 ms, the one-shot plays on at full level to its end at 0.3 s.
        let shot = try Self.perform(bank, [Step(send: { $0.startNote(36, withVelocity: 127, onChannel: 9) }, seconds: 0.05),
                                           Step(send: { $0.stopNote(36, onChannel: 9) }, seconds: 0.35)])
        #expect(abs(level(shot[0], 0.01, 0.05) - level(shot[1], 0.1, 0.2)) < 0.1)
        #expect(level(shot[1], 0.27, 0.35) < -120)
        // Open hat (46, off_by=1) cut by the closed hat (42): gone within 20 ms; its own 2 s
        // release would leave it near full level.
        let hats = try Self.perform(bank, [Step(send: { $0.startNote(46, withVelocity: 127, onChannel: 9) }, seconds: 0.1),
                                           Step(send: { $0.startNote(42, withVelocity: 127, onChannel: 9) }, seconds: 0.1)])
        #expect(Self.played(hats[0]) == "c" && Self.played(hats[1].sliceFrom(0.02)) == "b")
        #expect(Measure.db(Measure.rms(hats[1].left[hats[1].frame(0.03)...])) - level(hats[0], 0.02, 0.1) < 0.1)
    }
}

extension Rendered {
    /// The audio from `seconds` on.
    func sliceFrom(_ seconds: Double) -> Rendered {
        Rendered(left: Array(left[frame(seconds)...]), right: Array(right[frame(seconds)...]), rate: rate)
    }
}
