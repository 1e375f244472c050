import Foundation
import PolyphonSoundFont
import PolyphonSynth
import PolyphonTestSupport
import Testing
@testable import PolyphonSFZ

/// SFZ instruments played by the synthesizer (``SFZSoundBank``), measured in sound: which
/// region played is told by its pitch, pitch in cents, levels in dB, envelope times in ms.
/// Instruments and their WAV samples are built in code.
@Suite struct SFZPlayingTests {
    /// A 1 s sine at `frequency` Hz, peak 0.5, as a 16-bit WAV.
    static func sine(_ frequency: Double, seconds: Double = 1) -> [UInt8] {
        TestAudio.wav([TestAudio.sine(frequency: frequency, frames: Int(seconds * 44_100))])
    }

    /// The bank for instrument `text` beside `files`.
    static func bank(_ text: String, files: [String: [UInt8]] = [:]) throws -> SFZSoundBank {
        let directory = try TemporaryDirectory(prefix: "polyphon-sfz-play")
        let writer = TestFiles(root: directory.path)
        for (name, bytes) in files { try writer.write(bytes, to: name) }
        try writer.write(text, to: "instrument.sfz")
        let instrument = try SFZInstrument(contentsOf: directory.file("instrument.sfz"))
        return withExtendedLifetime(directory) { SFZSoundBank(instrument) }
    }

    /// `key` at `velocity` for `seconds` (released after `held` seconds when given).
    static func play(_ bank: SFZSoundBank, key: UInt8 = 60, velocity: UInt8 = 127, seconds: Double = 0.5,
                     held: Double? = nil) throws -> Rendered {
        let synthesizer = try Synthesizer(soundBank: bank.soundFont)
        synthesizer.startNote(key, withVelocity: velocity, onChannel: 0)
        guard let held else { return synthesizer.renderSeconds(seconds) }
        let before = synthesizer.renderSeconds(held, block: 64)
        synthesizer.stopNote(key, onChannel: 0)
        let after = synthesizer.renderSeconds(seconds - held, block: 64)
        return Rendered(left: before.left + after.left, right: before.right + after.right, rate: before.rate)
    }

    static func frequency(_ out: Rendered, from: Double = 0.1, to: Double = 0.4) -> Double {
        Measure.frequency(out.left[out.frame(from)..<out.frame(to)], rate: out.rate)
    }

    static func level(_ out: Rendered, from: Double = 0.1, to: Double = 0.4, right: Bool = false) -> Double {
        let channel = right ? out.right : out.left
        return Measure.db(Measure.rms(channel[out.frame(from)..<out.frame(to)]))
    }

    // MARK: Selection

    @Test func keysAndVelocitiesChooseTheRegion() throws {
        let bank = try Self.bank("""
            <group> pitch_keytrack=0
            <region> sample=low.wav lokey=0 hikey=63 hivel=99
            <region> sample=loud.wav lokey=0 hikey=63 lovel=100
            <region> sample=high.wav key=70
            """, files: ["low.wav": Self.sine(300), "loud.wav": Self.sine(700), "high.wav": Self.sine(500)])
        #expect(bank.regionCount == 3 && bank.warnings.isEmpty, "\(bank.warnings)")
        let cases: [(key: UInt8, velocity: UInt8, hertz: Double)] = [(40, 64, 300), (63, 99, 300), (60, 100, 700),
                                                                    (70, 127, 500)]
        for c in cases {
            let f = Self.frequency(try Self.play(bank, key: c.key, velocity: c.velocity))
            #expect(abs(Measure.cents(f, c.hertz)) < 1, "key \(c.key) velocity \(c.velocity): \(f) Hz")
        }
        // Outside every region: silence.
        #expect(Self.level(try Self.play(bank, key: 71)) < -120)
        #expect(Self.level(try Self.play(bank, key: 64)) < -120)
    }

    // MARK: Pitch

    @Test func keycenterKeytrackTransposeAndTuneMoveThePitchInCents() throws {
        let c4 = Measure.midiFrequency(60)
        let files = ["c4.wav": Self.sine(c4)]
        let cases: [(opcodes: String, key: UInt8, cents: Double)] = [
            ("pitch_keycenter=60", 60, 0),
            ("pitch_keycenter=60", 67, 700),
            ("pitch_keycenter=c4", 55, -500),
            ("pitch_keycenter=62", 62, 0),
            ("pitch_keycenter=60 transpose=2 tune=-30", 60, 170),
            ("pitch_keycenter=60 tune=250", 60, 250),
            ("pitch_keycenter=60 pitch_keytrack=50", 72, 600),
            ("pitch_keycenter=60 pitch_keytrack=0", 84, 0),
        ]
        for c in cases {
            let bank = try Self.bank("<region> sample=c4.wav \(c.opcodes)", files: files)
            let f = Self.frequency(try Self.play(bank, key: c.key))
            #expect(abs(Measure.cents(f, c4) - c.cents) < 1, "\(c.opcodes) key \(c.key): \(Measure.cents(f, c4)) cents")
        }
    }

    @Test func theSampleChunkRootKeyIsTheKeycenterOfPitchKeycenterSample() throws {
        let a4 = TestAudio.wav([TestAudio.sine(frequency: 440, frames: 44_100)], smpl: (root: 69, loops: []))
        let bank = try Self.bank("<region> sample=a4.wav pitch_keycenter=sample", files: ["a4.wav": a4])
        let f = Self.frequency(try Self.play(bank, key: 81))
        #expect(abs(Measure.cents(f, 880)) < 1, "\(f) Hz")
    }

    @Test func generatedSinePlaysAtTheNotesFrequency() throws {
        let bank = try Self.bank("<region> sample=*sine")
        for key: UInt8 in [45, 60, 69, 96] {
            let f = Self.frequency(try Self.play(bank, key: key))
            #expect(abs(Measure.cents(f, Measure.midiFrequency(Double(key)))) < 1, "key \(key): \(f) Hz")
        }
    }

    // MARK: Level and pan

    @Test func volumeAmplitudeAndVelocityInDecibels() throws {
        let files = ["s.wav": Self.sine(441)]
        let reference = Self.level(try Self.play(try Self.bank("<region> sample=s.wav", files: files)))
        let cases: [(opcodes: String, velocity: UInt8, decibels: Double)] = [
            ("volume=-6", 127, -6),
            ("volume=-30.5", 127, -30.5),
            ("amplitude=50", 127, -6.02),
            ("<group> volume=-7 <region> volume=-3", 127, -3),   // the region's own value wins
            ("<group> volume=-7 <region>", 127, -7),
            ("group_volume=-4 master_amplitude=50", 127, -10.02),
            ("", 64, 40 * log10(64.0 / 127)),         // sfizz's default curve, (v/127)²
            ("", 100, 40 * log10(100.0 / 127)),
        ]
        for c in cases {
            let text = c.opcodes.hasPrefix("<") ? c.opcodes.replacingOccurrences(of: "<region>", with: "<region> sample=s.wav")
                                                : "<region> sample=s.wav \(c.opcodes)"
            let level = Self.level(try Self.play(try Self.bank(text, files: files), velocity: c.velocity))
            #expect(abs(level - reference - c.decibels) < 0.1, "\(c.opcodes) v\(c.velocity): \(level - reference) dB")
        }
    }

    @Test func panMovesTheSoundWithConstantPower() throws {
        let files = ["s.wav": Self.sine(441)]
        let centre = try Self.play(try Self.bank("<region> sample=s.wav", files: files))
        #expect(abs(Self.level(centre) - Self.level(centre, right: true)) < 0.01)
        let right = try Self.play(try Self.bank("<region> sample=s.wav pan=100", files: files))
        #expect(Self.level(right) < Self.level(right, right: true) - 60)
        #expect(abs(Self.level(right, right: true) - Self.level(centre) - 3.01) < 0.05)
        let left = try Self.play(try Self.bank("<region> sample=s.wav pan=-50", files: files))
        // Constant power: the two sides' powers sum to the centre's.
        let power = pow(10, Self.level(left) / 10) + pow(10, Self.level(left, right: true) / 10)
        #expect(abs(10 * log10(power) - Self.level(centre) - 3.01) < 0.05)
        #expect(Self.level(left) > Self.level(left, right: true) + 3)
    }

    @Test func stereoSamplesPlayTheirSidesLeftAndRight() throws {
        let wav = TestAudio.wav([TestAudio.sine(frequency: 300, frames: 44_100), TestAudio.sine(frequency: 500, frames: 44_100)])
        let out = try Self.play(try Self.bank("<region> sample=st.wav pitch_keytrack=0", files: ["st.wav": wav]))
        #expect(abs(Measure.cents(Measure.frequency(out.left[out.frame(0.1)..<out.frame(0.4)], rate: out.rate), 300)) < 1)
        #expect(abs(Measure.cents(Measure.frequency(out.right[out.frame(0.1)..<out.frame(0.4)], rate: out.rate), 500)) < 1)
    }

    // MARK: Envelope

    /// Peak level in dB over 1 ms windows starting at each `seconds`.
    static func levels(_ out: Rendered, at seconds: [Double]) -> [Double] {
        seconds.map { Measure.db(Measure.peak(out.left[out.frame($0)..<out.frame($0 + 0.005)])) }
    }

    @Test func attackRisesLinearlyOverItsTime() throws {
        let files = ["s.wav": Self.sine(1000)]
        let flat = try Self.play(try Self.bank("<region> sample=s.wav", files: files))
        let out = try Self.play(try Self.bank("<region> sample=s.wav ampeg_attack=0.2", files: files))
        let full = Self.levels(flat, at: [0.3])[0]
        // Linear in amplitude: half way (−6 dB) at 100 ms, full at 200 ms.
        let (half, end) = (Self.levels(out, at: [0.0975])[0] - full, Self.levels(out, at: [0.25])[0] - full)
        #expect(abs(half + 6.02) < 0.5, "at 100 ms: \(half) dB")
        #expect(abs(end) < 0.1, "after the attack: \(end) dB")
    }

    @Test func delayHoldDecayAndSustainInMilliseconds() throws {
        let files = ["s.wav": Self.sine(1000, seconds: 2)]
        let flat = try Self.play(try Self.bank("<region> sample=s.wav", files: files), seconds: 1.5)
        let full = Self.levels(flat, at: [0.5])[0]
        let out = try Self.play(try Self.bank("<region> sample=s.wav ampeg_delay=0.1 ampeg_hold=0.2 ampeg_decay=0.5 ampeg_sustain=10",
                                             files: files), seconds: 1.5)
        let at = Self.levels(out, at: [0.05, 0.12, 0.28, 0.55, 1.2]).map { $0 - full }
        #expect(at[0] < -100, "during the delay: \(at[0]) dB")
        #expect(abs(at[1]) < 0.1 && abs(at[2]) < 0.1, "held at full level: \(at[1]), \(at[2]) dB")
        // sfizz's decay: 78.17 dB per ampeg_decay seconds, linear in dB, down to the sustain
        // (10 % = −20 dB). 0.25 s into the decay (at 0.55 s): −39 dB would be below the
        // sustain, so −20.
        #expect(abs(at[3] + 20) < 0.3, "at 0.55 s: \(at[3]) dB")
        #expect(abs(at[4] + 20) < 0.3, "sustain: \(at[4]) dB")
        let early = Self.levels(out, at: [0.3 + 0.05])[0] - full
        #expect(abs(early + 78.17 * 0.05 / 0.5) < 0.5, "50 ms into the decay: \(early) dB")
    }

    @Test func releaseFallsAtSfizzsRate() throws {
        let files = ["s.wav": Self.sine(1000, seconds: 2)]
        let out = try Self.play(try Self.bank("<region> sample=s.wav ampeg_release=1", files: files), seconds: 1.2, held: 0.5)
        let at = Self.levels(out, at: [0.45, 0.6, 0.9])
        // 78.17 dB per second of ampeg_release: −7.8 dB 100 ms after note-off, −31.3 at 400 ms.
        #expect(abs(at[1] - at[0] + 7.82) < 0.5, "\(at[1] - at[0]) dB")
        #expect(abs(at[2] - at[0] + 31.27) < 0.7, "\(at[2] - at[0]) dB")
    }

    // MARK: Playback and loops

    @Test func withoutALoopTheNoteEndsWithItsSample() throws {
        let bank = try Self.bank("<region> sample=s.wav", files: ["s.wav": Self.sine(441, seconds: 0.2)])
        let out = try Self.play(bank)
        #expect(Self.level(out, from: 0.05, to: 0.15) > -40)
        #expect(Self.level(out, from: 0.21, to: 0.4) < -120)
    }

    /// A 441 Hz sine of 10 cycles whose loop is the whole file: seamless only if the loop's
    /// last frame (inclusive in SFZ and WAV) is honoured.
    static let cycles = TestAudio.sine(frequency: 441, frames: 1000)

    @Test func theFileLoopPlaysWhenTheSFZGivesNone() throws {
        let wav = TestAudio.wav([Self.cycles], smpl: (root: 60, loops: [(0, 999)]))
        let bank = try Self.bank("<region> sample=s.wav pitch_keytrack=0", files: ["s.wav": wav])
        let out = try Self.play(bank, seconds: 1)
        #expect(abs(Self.level(out, from: 0.6, to: 0.9) - Self.level(out, from: 0.005, to: 0.02)) < 0.1)
        #expect(abs(Measure.cents(Self.frequency(out, from: 0.1, to: 0.9), 441)) < 0.5)
        // no_loop overrides the file.
        let once = try Self.play(try Self.bank("<region> sample=s.wav loop_mode=no_loop", files: ["s.wav": wav]))
        #expect(Self.level(once, from: 0.1, to: 0.4) < -120)
    }

    @Test func loopPointsFromTheSFZAndLoopSustainReleases() throws {
        // 1000 frames of sine then 1000 of silence: a loop over the first 1000 keeps sounding.
        let wav = TestAudio.wav([Self.cycles + [Float](repeating: 0, count: 1000)])
        let continuous = try Self.play(try Self.bank("<region> sample=s.wav loop_mode=loop_continuous loop_start=0 loop_end=999",
                                                     files: ["s.wav": wav]), seconds: 1)
        #expect(abs(Self.level(continuous, from: 0.5, to: 0.9) - Self.level(continuous, from: 0.005, to: 0.02)) < 0.1)
        #expect(abs(Measure.cents(Self.frequency(continuous, from: 0.1, to: 0.9), 441)) < 0.5)
        // loop_sustain: after note-off the sample plays on past the loop into silence.
        let sustain = try Self.play(try Self.bank("<region> sample=s.wav loop_mode=loop_sustain loop_start=0 loop_end=999 ampeg_release=5",
                                                  files: ["s.wav": wav]), seconds: 0.6, held: 0.3)
        #expect(abs(Self.level(sustain, from: 0.1, to: 0.29) - Self.level(sustain, from: 0.005, to: 0.02)) < 0.1)
        #expect(Self.level(sustain, from: 0.4, to: 0.6) < -120)
    }

    @Test func offsetAndEndCutTheSample() throws {
        // 0.25 s at 300 Hz then 0.25 s at 500 Hz.
        let wav = TestAudio.wav([TestAudio.sine(frequency: 300, frames: 11_025) + TestAudio.sine(frequency: 500, frames: 11_025)])
        let second = try Self.play(try Self.bank("<region> sample=s.wav pitch_keytrack=0 offset=11025", files: ["s.wav": wav]))
        #expect(abs(Measure.cents(Self.frequency(second, from: 0.02, to: 0.2), 500)) < 1)
        let first = try Self.play(try Self.bank("<region> sample=s.wav pitch_keytrack=0 end=11024", files: ["s.wav": wav]))
        #expect(abs(Measure.cents(Self.frequency(first, from: 0.02, to: 0.2), 300)) < 1)
        #expect(Self.level(first, from: 0.26, to: 0.45) < -120)
    }

    // MARK: Placement

    @Test func aKitPlaysOnTheDrumChannelAndAnInstrumentEverywhereElse() throws {
        let files = ["s.wav": Self.sine(441)]
        let kit = try Self.bank("<region> sample=s.wav key=36 pitch_keytrack=0 loop_mode=one_shot", files: files)
        #expect(kit.placement == .drumKit)
        let piano = try Self.bank("<region> sample=s.wav", files: files)
        #expect(piano.placement == .melodic)
        func level(_ bank: SFZSoundBank, channel: UInt8, key: UInt8) throws -> Double {
            let synthesizer = try Synthesizer(soundBank: bank.soundFont)
            synthesizer.sendProgramChange(channel == 9 ? 0 : 40, onChannel: channel)
            synthesizer.startNote(key, withVelocity: 127, onChannel: channel)
            return Self.level(synthesizer.renderSeconds(0.3), from: 0.1, to: 0.3)
        }
        #expect(try level(kit, channel: 9, key: 36) > -40)
        #expect(try level(kit, channel: 3, key: 36) < -120)
        #expect(try level(piano, channel: 3, key: 60) > -40)
        #expect(try level(piano, channel: 9, key: 60) < -120)
    }
}
