import PolyphonSynth
import PolyphonTestSupport
import Testing
@testable import PolyphonSFZ

/// SFZ modulation measured in sound. Filters: a 1 kHz sine through each `fil_type`, its level in
/// dB against the same sine unfiltered, where the RBJ designs sfizz uses are exact — a 2-pole
/// filter's response at its cutoff is its Q (10^(resonance/20)), a band-pass peaks at 0 dB
/// there and a notch is silent — and away from it the digital responses of sfizz's designs.
/// Envelopes: pitch in cents and level in dB at points through their stages.
@Suite struct SFZModulationTests {
    @Test func filterTypesCutoffResonanceAndTrackingInDecibels() throws {
        let bank = try SFZPlayingTests.bank("""
            <group> sample=tone.wav pitch_keytrack=0
            <region> lokey=30 hikey=40
            <region> key=41 fil_type=lpf_2p cutoff=1000
            <region> key=42 fil_type=lpf_2p cutoff=1000 resonance=12
            <region> key=43 fil_type=lpf_2p cutoff=250
            <region> key=44 fil_type=lpf_4p cutoff=250
            <region> key=45 fil_type=hpf_2p cutoff=4000
            <region> key=46 fil_type=hpf_6p cutoff=1000 resonance=3
            <region> key=47 fil_type=bpf_2p cutoff=1000
            <region> key=48 fil_type=bpf_2p cutoff=4000
            <region> key=49 fil_type=brf_2p cutoff=1000
            <region> key=50 fil_type=lpf_1p cutoff=250
            <region> key=51 cutoff=250 fil_keytrack=1200 fil_keycenter=49
            <region> key=52 cutoff=250 fil_veltrack=2400
            <region> key=53 fil_type=peq cutoff=250
            """, files: ["tone.wav": SFZPlayingTests.sine(1000)])
        #expect(bank.warnings.map(\.message) == ["not played yet: fil_type=peq (the region plays unfiltered); 1 region"])
        func level(_ key: UInt8, velocity: UInt8 = 127) throws -> Double {
            SFZPlayingTests.level(try SFZPlayingTests.play(bank, key: key, velocity: velocity, seconds: 0.3),
                                  from: 0.1, to: 0.3)
        }
        let open = try level(40)
        // (key, dB against unfiltered, tolerance)
        let expected: [(key: UInt8, db: Double, within: Double)] = [
            (41, 0, 0.1),         // 2-pole at its cutoff: Q = 1
            (42, 12, 0.1),        // resonance 12 dB: Q = 10^(12/20)
            (43, -23.8, 0.3),     // two octaves above a 2-pole low-pass
            (44, -47.7, 0.5),      // … a 4-pole
            (45, -24.3, 0.3),     // two octaves below a 2-pole high-pass
            (46, 9, 0.1),         // three 2-pole sections at their cutoff: 3 × 3 dB
            (47, 0, 0.1),         // band-pass at its centre
            (48, -12.0, 0.3),     // two octaves below a Q 1 band-pass: (1/4)/√((1 − 1/16)² + 1/16)
            (50, -12.3, 0.3),     // a one-pole two octaves above its cutoff
            (51, 0, 0.1),         // key 51 is 2 keys above fil_keycenter 49: 250 Hz × 2² = 1 kHz
            (53, 0, 0.05),        // a type the voice does not play: unfiltered
        ]
        for e in expected {
            let db = try level(e.key) - open
            #expect(abs(db - e.db) < e.within, "key \(e.key): \(db) dB, expected \(e.db)")
        }
        #expect(try level(49) - open < -40, "the notch at its centre")
        // fil_veltrack 2400 cents: at velocity 127 the cutoff is 1 kHz; at 64 it is 250 Hz × 2^(2 × 64/127).
        let full = try level(52) - SFZPlayingTests.level(try SFZPlayingTests.play(bank, key: 40, seconds: 0.3),
                                                         from: 0.1, to: 0.3)
        #expect(abs(full) < 0.1, "fil_veltrack at velocity 127: \(full) dB")
        let half = try level(52, velocity: 64) - level(40, velocity: 64)
        #expect(abs(half + 11.1) < 0.3, "fil_veltrack at velocity 64: \(half) dB")
    }

    @Test func pitchAndFilterEnvelopesInCentsAndDecibelsOverTime() throws {
        let bank = try SFZPlayingTests.bank("""
            <region> sample=tone.wav key=60 ampeg_release=1 pitcheg_attack=0.2 pitcheg_hold=0.2
              pitcheg_decay=0.2 pitcheg_sustain=50 pitcheg_release=0.3 pitcheg_depth=1200
            <region> sample=tone.wav lokey=61 hikey=62 pitch_keytrack=0 fil_type=lpf_2p cutoff=250 fileg_attack=0.1
              fileg_hold=0.3 fileg_decay=0.1 fileg_sustain=0 fileg_depth=2400
            <region> sample=tone.wav lokey=63 hikey=64 pitch_keytrack=0
            """, files: ["tone.wav": SFZPlayingTests.sine(1000, seconds: 2)])
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        // Pitch: the sample's 1 kHz at key 60, moved by the envelope.
        let pitched = try SFZPlayingTests.play(bank, key: 60, seconds: 1.2, held: 1)
        func cents(_ from: Double, _ to: Double) -> Double {
            Measure.cents(SFZPlayingTests.frequency(pitched, from: from, to: to), 1000)
        }
        // A linear attack: half the depth halfway through it (averaged over the window).
        #expect(abs(cents(0.09, 0.11) - 600) < 15, "attack: \(cents(0.09, 0.11))")
        #expect(abs(cents(0.25, 0.38) - 1200) < 1, "hold: \(cents(0.25, 0.38))")
        // The decay falls by e^−9 per 0.2 s: below 50 % within 0.016 s, then the sustain.
        #expect(abs(cents(0.7, 0.95) - 600) < 1, "sustain: \(cents(0.7, 0.95))")
        // Released at 1 s from 600 cents: 600 · e^(−9 · t / 0.3), over 1.1…1.12 s about 23 cents.
        #expect(abs(cents(1.1, 1.12) - 600 * 0.0375) < 6, "release: \(cents(1.1, 1.12))")

        // Cutoff: 250 Hz × 2^(2400/1200) = 1 kHz while the envelope is full (the sine passes at
        // Q 1, 0 dB), back to 250 Hz once it has decayed to its sustain 0 (−23.8 dB).
        let filtered = try SFZPlayingTests.play(bank, key: 61, seconds: 1)
        let open = try SFZPlayingTests.play(bank, key: 63, seconds: 1)
        func gain(_ from: Double, _ to: Double) -> Double {
            SFZPlayingTests.level(filtered, from: from, to: to) - SFZPlayingTests.level(open, from: from, to: to)
        }
        #expect(abs(gain(0.15, 0.38)) < 0.1, "envelope full: \(gain(0.15, 0.38)) dB")
        #expect(abs(gain(0.7, 0.95) + 23.8) < 0.3, "envelope at sustain 0: \(gain(0.7, 0.95)) dB")
    }

    @Test func controllersMoveCutoffResonanceVolumePanAndPitch() throws {
        let bank = try SFZPlayingTests.bank("""
            <region> sample=tone.wav lokey=60 hikey=64 pitch_keytrack=0 fil_type=lpf_2p cutoff=250
              cutoff_oncc74=2400 resonance_oncc71=12 volume_oncc20=-12 pan_oncc21=100 pitch_oncc22=1200
            """, files: ["tone.wav": SFZPlayingTests.sine(1000)])
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        /// A note with controllers set before it starts, 0.1…0.3 s of it.
        func play(_ controllers: [(UInt8, UInt8)]) throws -> Rendered {
            let synthesizer = try Synthesizer(soundBank: bank.soundFont)
            for (controller, value) in controllers { synthesizer.sendController(controller, withValue: value, onChannel: 0) }
            synthesizer.startNote(60, withVelocity: 127, onChannel: 0)
            return synthesizer.renderSeconds(0.3)
        }
        func db(_ out: Rendered, right: Bool = false) -> Double {
            SFZPlayingTests.level(out, from: 0.1, to: 0.3, right: right)
        }
        let closed = try play([])
        // CC 74 at 127: the cutoff 2400 cents up, 250 Hz → 1 kHz, where the sine passes at Q 1.
        let opened = try play([(74, 127)])
        #expect(abs(db(opened) - db(closed) - 23.8) < 0.3, "cutoff_oncc74: \(db(opened) - db(closed)) dB")
        // CC 71 at 127 with the cutoff at the sine: Q 10^(12/20), +12 dB.
        let resonant = try play([(74, 127), (71, 127)])
        #expect(abs(db(resonant) - db(opened) - 12) < 0.2, "resonance_oncc71: \(db(resonant) - db(opened)) dB")
        // CC 20 at 127: −12 dB; at 64: −12 × 64/127 dB.
        let full = try play([(74, 127), (20, 127)]), half = try play([(74, 127), (20, 64)])
        #expect(abs(db(full) - db(opened) + 12) < 0.05, "volume_oncc20=127: \(db(full) - db(opened)) dB")
        #expect(abs(db(half) - db(opened) + 12 * 64 / 127) < 0.05, "volume_oncc20=64: \(db(half) - db(opened)) dB")
        // CC 21 at 127: pan +100 %, hard right.
        let right = try play([(74, 127), (21, 127)])
        #expect(db(right) < -100 && abs(db(right, right: true) - db(opened, right: true) - 3.01) < 0.05)
        // CC 22 at 64: 1200 × 64/127 cents up.
        let bent = try play([(22, 64)])
        let cents = Measure.cents(SFZPlayingTests.frequency(bent, from: 0.1, to: 0.3), 1000)
        #expect(abs(cents - 1200 * 64 / 127) < 1, "pitch_oncc22: \(cents) cents")
    }

    @Test func lfosMovePitchAndVolumeAtTheirRateAndDepth() throws {
        let bank = try SFZPlayingTests.bank("""
            <group> sample=tone.wav pitch_keytrack=0
            <region> lokey=50 hikey=59 pitchlfo_freq=5 pitchlfo_depth=100 pitchlfo_delay=0.2
            <region> lokey=60 hikey=69 amplfo_freq=4 amplfo_depth=6
            <region> lokey=70 hikey=79
            """, files: ["tone.wav": SFZPlayingTests.sine(1000, seconds: 2)])
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        // Pitch: nothing during the delay, then a sine of ±100 cents at 5 Hz from phase 0 (its
        // peaks a quarter and three quarters of a cycle, 50 and 150 ms, after the delay).
        let vibrato = try SFZPlayingTests.play(bank, key: 50, seconds: 0.8)
        func cents(at t: Double) -> Double {
            Measure.cents(SFZPlayingTests.frequency(vibrato, from: t - 0.005, to: t + 0.005), 1000)
        }
        #expect(abs(Measure.cents(SFZPlayingTests.frequency(vibrato, from: 0.02, to: 0.19), 1000)) < 0.1)
        for cycle in 0..<2 {
            let start = 0.2 + Double(cycle) * 0.2
            #expect(abs(cents(at: start + 0.05) - 100) < 2, "peak: \(cents(at: start + 0.05))")
            #expect(abs(cents(at: start + 0.15) + 100) < 2, "trough: \(cents(at: start + 0.15))")
            #expect(abs(cents(at: start + 0.1)) < 8, "crossing: \(cents(at: start + 0.1))")
        }
        // Volume: ±6 dB at 4 Hz (peaks at 62.5 and 187.5 ms of each 250 ms cycle).
        let tremolo = try SFZPlayingTests.play(bank, key: 60, seconds: 0.6)
        let plain = try SFZPlayingTests.play(bank, key: 70, seconds: 0.6)
        func gain(at t: Double) -> Double {
            SFZPlayingTests.level(tremolo, from: t - 0.004, to: t + 0.004)
                - SFZPlayingTests.level(plain, from: t - 0.004, to: t + 0.004)
        }
        for cycle in 0..<2 {
            let start = Double(cycle) * 0.25
            #expect(abs(gain(at: start + 0.0625) - 6) < 0.15, "peak: \(gain(at: start + 0.0625)) dB")
            #expect(abs(gain(at: start + 0.1875) + 6) < 0.15, "trough: \(gain(at: start + 0.1875)) dB")
        }
    }
    /// Time, depth and frequency opcodes are "permissive" as in sfizz: any finite value is kept.
    /// A voice given absurd ones must still start, sound finite and stop — the fuzzer found
    /// `pitchlfo_delay=1e30` trapping when its frame count was made an integer.
    @Test func absurdModulationValuesPlayWithoutTrapping() throws {
        let absurd = ["1e30", "-1e30", "1e-40", "0"]
        let families = [
            "pitchlfo_freq=5 pitchlfo_depth=X pitchlfo_delay=X pitchlfo_fade=X",
            "amplfo_freq=X amplfo_depth=X amplfo_delay=X amplfo_fade=X",
            "fillfo_freq=X fillfo_depth=X fillfo_delay=X cutoff=X",
            "pitcheg_depth=X pitcheg_delay=X pitcheg_attack=X pitcheg_hold=X pitcheg_decay=X pitcheg_release=X",
            "fileg_depth=X fileg_attack=X fileg_sustain=X fileg_release=X cutoff=500 resonance=X",
            "fil_type=hpf_2p cutoff=X fil_keytrack=X fil_keycenter=X fil_veltrack=X",
        ]
        var text = "<group> sample=tone.wav\n"
        for (f, family) in families.enumerated() {
            for (v, value) in absurd.enumerated() {
                text += "<region> key=\(40 + f * absurd.count + v) \(family.replacingOccurrences(of: "X", with: value))\n"
            }
        }
        let bank = try SFZPlayingTests.bank(text, files: ["tone.wav": SFZPlayingTests.sine(1000, seconds: 0.2)])
        for key in 40..<(40 + families.count * absurd.count) {
            let out = try SFZPlayingTests.play(bank, key: UInt8(key), seconds: 0.1, held: 0.05)
            #expect(out.left.allSatisfy(\.isFinite) && out.right.allSatisfy(\.isFinite), "key \(key)")
        }
    }
}
