import Foundation
import PolyphonSoundFont
import PolyphonSynth
import PolyphonTestSupport
import Testing
@testable import PolyphonSFZ

/// SFZ's amplitude family measured in dB against a plain region: velocity tracking and curves,
/// key tracking, random level, gain above 0 dB, key, velocity and controller crossfades,
/// `amplitude_onccN`, and a stereo sample's width and position. Expected values are sfizz's
/// formulas (`RegionStateful.cpp`, `ModifierHelpers.h`, `Panning.cpp`).
@Suite struct SFZAmplitudeTests {
    static let files = ["s.wav": SFZPlayingTests.sine(441, seconds: 0.5)]

    /// One note of `key` at `velocity` (controllers set first), 0.25 s.
    static func play(_ bank: SFZSoundBank, key: UInt8 = 60, velocity: UInt8 = 127,
                     controllers: [(UInt8, UInt8)] = []) throws -> Rendered {
        let synthesizer = try Synthesizer(soundBank: bank.soundFont)
        for (controller, value) in controllers { synthesizer.sendController(controller, withValue: value, onChannel: 0) }
        synthesizer.startNote(key, withVelocity: velocity, onChannel: 0)
        return synthesizer.renderSeconds(0.25)
    }

    static func level(_ out: Rendered, right: Bool = false) -> Double {
        SFZPlayingTests.level(out, from: 0.1, to: 0.24, right: right)
    }

    /// The level of a sine of `hertz` in `x` (RMS dB), by correlation.
    static func tone(_ x: [Float], _ hertz: Double, rate: Double) -> Double {
        let part = x[Int(0.1 * rate)..<Int(0.24 * rate)]
        var c = 0.0, s = 0.0
        for (i, v) in part.enumerated() {
            let phase = 2 * Double.pi * hertz * Double(i) / rate
            c += Double(v) * cos(phase)
            s += Double(v) * sin(phase)
        }
        return Measure.db((c * c + s * s).squareRoot() * 2 / Double(part.count) / 2.0.squareRoot())
    }

    @Test func velocityTrackingCurvesKeytrackAndGainAboveZeroInDecibels() throws {
        let reference = Self.level(try Self.play(try SFZPlayingTests.bank("<region> sample=s.wav", files: Self.files)))
        let db = { (gain: Double) in 20 * log10(gain) }
        let cases: [(opcodes: String, key: UInt8, velocity: UInt8, decibels: Double)] = [
            ("amp_veltrack=0", 60, 40, 0),
            ("amp_veltrack=50", 60, 64, db(1 - 0.5 * (1 - pow(64.0 / 127, 2)))),
            ("amp_veltrack=-50", 60, 64, db(0.5 * (1 - pow(64.0 / 127, 2)))),
            ("amp_veltrack=-100", 60, 127, -.infinity),
            // Linear from (0, 0) to (64, 0.8) and on to (127, 1).
            ("amp_velcurve_64=0.8", 60, 32, db(0.4)),
            ("amp_velcurve_64=0.8", 60, 100, db(0.8 + 0.2 * 36 / 63)),
            ("amp_veltrack=80 amp_velcurve_1=0.2 amp_velcurve_100=0.6", 60, 50,
             db(1 - 0.8 * (1 - (0.2 + 0.4 * 49 / 99)))),
            ("lokey=40 hikey=70 amp_keytrack=-0.5", 48, 127, 6),
            ("lokey=40 hikey=70 amp_keytrack=2 amp_keycenter=50", 48, 127, -4),
            ("volume=6", 60, 127, 6),
            ("amplitude=200", 60, 127, db(2)),
            ("volume=3 amplitude=150 group_volume=1.5", 60, 127, 4.5 + db(1.5)),
        ]
        for c in cases {
            let bank = try SFZPlayingTests.bank("<region> sample=s.wav \(c.opcodes)", files: Self.files)
            #expect(bank.warnings.isEmpty, "\(c.opcodes): \(bank.warnings)")
            let level = Self.level(try Self.play(bank, key: c.key, velocity: c.velocity)) - reference
            if c.decibels == -.infinity {
                #expect(level < -100, "\(c.opcodes) v\(c.velocity): \(level) dB")
            } else {
                #expect(abs(level - c.decibels) < 0.05, "\(c.opcodes) v\(c.velocity): \(level) dB, not \(c.decibels)")
            }
        }
    }

    @Test func ampRandomDrawsBetweenZeroAndItsDepthAndRepeats() throws {
        let bank = try SFZPlayingTests.bank("<region> sample=s.wav amp_random=6", files: Self.files)
        let plain = try SFZPlayingTests.bank("<region> sample=s.wav", files: Self.files)
        func render(_ bank: SFZSoundBank) throws -> [Double] {
            let synthesizer = try Synthesizer(soundBank: bank.soundFont)
            var levels: [Double] = []
            for _ in 0..<12 {
                synthesizer.startNote(60, withVelocity: 127, onChannel: 0)
                let out = synthesizer.renderSeconds(0.15)
                levels.append(SFZPlayingTests.level(out, from: 0.05, to: 0.12))
                synthesizer.stopNote(60, onChannel: 0)
                _ = synthesizer.renderSeconds(0.2)
            }
            return levels
        }
        let reference = try render(plain)[0]
        let first = try render(bank).map { $0 - reference }
        #expect(first.allSatisfy { $0 > -0.01 && $0 < 6.01 }, "\(first)")
        #expect((first.max() ?? 0) - (first.min() ?? 0) > 2, "a spread of draws: \(first)")
        #expect(try render(bank).map { $0 - reference } == first, "a second render repeats the draws")
    }

    @Test func keyVelocityAndControllerCrossfadesFollowSfizz() throws {
        let reference = Self.level(try Self.play(try SFZPlayingTests.bank("<region> sample=s.wav", files: Self.files)))
        let db = { (gain: Double) in 20 * log10(gain) }
        let cases: [(opcodes: String, key: UInt8, velocity: UInt8, controllers: [(UInt8, UInt8)], decibels: Double)] = [
            ("xfin_lokey=40 xfin_hikey=44", 40, 127, [], -.infinity),
            ("xfin_lokey=40 xfin_hikey=44", 42, 127, [], db(0.5.squareRoot())),    // power: √position
            ("xfin_lokey=40 xfin_hikey=44", 44, 127, [], 0),
            ("xfout_lokey=40 xfout_hikey=44 xf_keycurve=gain", 41, 127, [], db(0.75)),
            ("xfout_lokey=40 xfout_hikey=44", 44, 127, [], -.infinity),
            // Velocity: (v − lo)/(hi − lo), sfizz's one-step gap cancelling its filled upper bound;
            // on top of the velocity curve, (v/127)².
            ("xfin_lovel=20 xfin_hivel=100 xf_velcurve=gain", 60, 60, [], db(0.5) + 40 * log10(60.0 / 127)),
            ("xfout_lovel=20 xfout_hivel=100", 60, 80, [], db(0.25.squareRoot()) + 40 * log10(80.0 / 127)),
            // Controllers: value/127 over (127 − lo − 1)/127 when the upper bound is 127.
            ("xfin_locc1=0 xfin_hicc1=127", 60, 127, [(1, 63)], db(0.5.squareRoot())),
            ("xfout_locc2=20 xfout_hicc2=100 xf_cccurve=gain", 60, 127, [(2, 40)], db(0.75)),
            ("amplitude_oncc3=100", 60, 127, [(3, 64)], db(64.0 / 127)),
            ("amplitude_oncc3=50 amplitude_oncc4=100", 60, 127, [(3, 127), (4, 127)], db(0.5)),
            // Through sfizz's curves: 4 is x², 6 is √(1 − x); a <curve> joins its points linearly.
            ("amplitude_oncc3=100 amplitude_curvecc3=4", 60, 127, [(3, 64)], 2 * db(64.0 / 127)),
            ("amplitude_oncc3=100 amplitude_curvecc3=6", 60, 127, [(3, 64)], db((1 - 64.0 / 127).squareRoot())),
            ("amplitude_oncc3=100 amplitude_curvecc3=9 <curve> curve_index=9 v064=0.25", 60, 127, [(3, 64)], db(0.25)),
        ]
        for c in cases {
            let bank = try SFZPlayingTests.bank("<region> sample=s.wav lokey=0 hikey=127 \(c.opcodes)", files: Self.files)
            #expect(bank.warnings.isEmpty, "\(c.opcodes): \(bank.warnings)")
            let level = Self.level(try Self.play(bank, key: c.key, velocity: c.velocity, controllers: c.controllers))
                - reference
            if c.decibels == -.infinity {
                #expect(level < -100, "\(c.opcodes) key \(c.key) v\(c.velocity): \(level) dB")
            } else {
                #expect(abs(level - c.decibels) < 0.05,
                        "\(c.opcodes) key \(c.key) v\(c.velocity): \(level) dB, not \(c.decibels)")
            }
        }
    }

    @Test func controllerCrossfadeMovesWhileTheNoteSoundsAndBringsItBack() throws {
        // A long decay: silenced in its decay stage, the voice would be dropped if the
        // crossfade counted as the envelope's level.
        let bank = try SFZPlayingTests.bank("<region> sample=s.wav xfin_locc1=0 xfin_hicc1=127 ampeg_decay=20 ampeg_sustain=1",
                                            files: Self.files)
        let synthesizer = try Synthesizer(soundBank: bank.soundFont)
        synthesizer.sendController(1, withValue: 126, onChannel: 0)
        synthesizer.startNote(60, withVelocity: 127, onChannel: 0)
        let full = synthesizer.renderSeconds(0.1)
        synthesizer.sendController(1, withValue: 0, onChannel: 0)
        let silent = synthesizer.renderSeconds(0.1)
        synthesizer.sendController(1, withValue: 126, onChannel: 0)
        let back = synthesizer.renderSeconds(0.1)
        let a = SFZPlayingTests.level(full, from: 0.05, to: 0.1)
        let b = SFZPlayingTests.level(silent, from: 0.02, to: 0.1)
        let c = SFZPlayingTests.level(back, from: 0.02, to: 0.1)
        #expect(b < -100, "CC 1 at 0 silences the voice: \(b) dB")
        // The decay (78.17 dB per 20 s) went on while the voice was silent: 0.185 s between the
        // windows' centres.
        #expect(abs(c - a + 78.17 / 20 * 0.185) < 0.1, "back at full: \(c) dB after \(a) dB")
    }

    @Test func stereoWidthAndPositionMixTheSidesAsSfizz() throws {
        let frames = 22_050
        let wav = TestAudio.wav([TestAudio.sine(frequency: 300, frames: frames), TestAudio.sine(frequency: 500, frames: frames)])
        let files = ["st.wav": wav, "s.wav": SFZPlayingTests.sine(300, seconds: 0.5)]
        func sides(_ opcodes: String, controllers: [(UInt8, UInt8)] = []) throws -> [Double] {
            let bank = try SFZPlayingTests.bank("<region> sample=st.wav pitch_keytrack=0 \(opcodes)", files: files)
            #expect(bank.warnings.isEmpty, "\(opcodes): \(bank.warnings)")
            let out = try Self.play(bank, controllers: controllers)
            // Left side (300 Hz) into left and right, right side (500 Hz) into left and right.
            return [Self.tone(out.left, 300, rate: out.rate), Self.tone(out.right, 300, rate: out.rate),
                    Self.tone(out.left, 500, rate: out.rate), Self.tone(out.right, 500, rate: out.rate)]
        }
        let plain = try sides("")
        // sfizz's balance: a stereo side plays into its channel as loud as a centred mono sample.
        let mono = try Self.play(try SFZPlayingTests.bank("<region> sample=s.wav pitch_keytrack=0", files: files))
        #expect(abs(plain[0] - Self.tone(mono.left, 300, rate: mono.rate)) < 0.05, "\(plain)")
        #expect(plain[1] < -100 && plain[2] < -100 && abs(plain[3] - plain[0]) < 0.01, "\(plain)")
        let cosine = { (p: Double) in 20 * log10(cos(p * Double.pi / 2)) }
        let c = cosine(0.5)   // −3.01 dB: a stage at its centre
        let cases: [(opcodes: String, controllers: [(UInt8, UInt8)], expected: [Double])] = [
            ("width=0", [], [c, c, c, c]),
            ("width=-100", [], [-.infinity, 0, 0, -.infinity]),
            // Position pans the mixed pair: at 100 the left channel, and with it the left side
            // at full width, is gone (as in sfizz).
            ("position=100", [], [-.infinity, -.infinity, -.infinity, 0 - c]),
            // Width 50: w = 0.75 → own side cos(0.25·π/2), other side cos(0.75·π/2).
            ("width=50", [], [cosine(0.25), cosine(0.75), cosine(0.75), cosine(0.25)]),
            // Pan 50 on each side first (p = 0.75): the left side × cos(0.75·π/2), the right × cos(0.25·π/2).
            ("pan=50", [], [cosine(0.75) - c, -.infinity, -.infinity, cosine(0.25) - c]),
            ("pan_oncc8=100", [(8, 127)], [-.infinity, -.infinity, -.infinity, 0 - c]),
            ("width_oncc5=-100", [(5, 127)], [c, c, c, c]),
            ("width=0 position_oncc6=100", [(6, 127)], [-.infinity, 0, -.infinity, 0]),
        ]
        for k in cases {
            let got = try sides(k.opcodes, controllers: k.controllers).map { $0 - plain[0] }
            for (g, e) in zip(got, k.expected) {
                if e == -.infinity {
                    #expect(g < -80, "\(k.opcodes): \(got)")
                } else {
                    #expect(abs(g - e) < 0.05, "\(k.opcodes): \(got), not \(k.expected)")
                }
            }
        }
    }

    @Test func absurdGainsStayFinite() throws {
        let bank = try SFZPlayingTests.bank("""
            <region> sample=s.wav lokey=0 hikey=127 amp_keytrack=12 amp_keycenter=0 volume=48 amplitude=10000
              amplitude_oncc1=10000 amplitude_oncc2=10000 amplitude_oncc3=10000
            """, files: Self.files)
        let out = try Self.play(bank, key: 127, controllers: [(1, 127), (2, 127), (3, 127)])
        #expect(out.left.allSatisfy(\.isFinite) && out.right.allSatisfy(\.isFinite))
    }
}
