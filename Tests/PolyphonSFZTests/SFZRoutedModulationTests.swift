import PolyphonSynth
import PolyphonTestSupport
import Testing
@testable import PolyphonSFZ

/// SFZ v2 LFOs (`lfoN_*`), flex envelopes (`egN_*`) and the v1 LFOs' controller forms measured
/// in sound: pitch in cents and level in dB at points through a cycle or a segment, against
/// sfizz's formulas (its parabolic sine, pulses of 0 and 1, a multiplying amplitude target).
@Suite struct SFZRoutedModulationTests {
    static let tone = ["tone.wav": SFZPlayingTests.sine(1000, seconds: 1)]

    // Each instrument has a region over many keys, never played, so it does not read as a drum kit.

    /// `key` held for `held` seconds (or all of them) after `controllers` were set.
    static func play(_ bank: SFZSoundBank, key: UInt8, seconds: Double, held: Double? = nil,
                     controllers: [(UInt8, UInt8)] = []) throws -> Rendered {
        let synthesizer = try Synthesizer(soundBank: bank.soundFont)
        for (cc, value) in controllers { synthesizer.sendController(cc, withValue: value, onChannel: 0) }
        synthesizer.startNote(key, withVelocity: 127, onChannel: 0)
        guard let held else { return synthesizer.renderSeconds(seconds, block: 64) }
        let before = synthesizer.renderSeconds(held, block: 64)
        synthesizer.stopNote(key, onChannel: 0)
        let after = synthesizer.renderSeconds(seconds - held, block: 64)
        return Rendered(left: before.left + after.left, right: before.right + after.right, rate: before.rate)
    }

    /// Cents from 1 kHz over the 10 ms around `t`.
    static func cents(_ out: Rendered, at t: Double) -> Double {
        Measure.cents(SFZPlayingTests.frequency(out, from: t - 0.005, to: t + 0.005), 1000)
    }

    /// dB over the 8 ms around `t` against `plain`.
    static func gain(_ out: Rendered, _ plain: Rendered, at t: Double, right: Bool = false) -> Double {
        SFZPlayingTests.level(out, from: t - 0.004, to: t + 0.004, right: right)
            - SFZPlayingTests.level(plain, from: t - 0.004, to: t + 0.004, right: right)
    }

    @Test func lfosMoveEachTargetWithTheirWavesPhaseCountAndControllers() throws {
        let bank = try SFZPlayingTests.bank("""
            <group> sample=tone.wav pitch_keytrack=0
            <region> key=40
            <region> key=41 lfo1_freq=5 lfo1_wave=1 lfo1_pitch=100 lfo1_delay=0.1 lfo1_count=1
            <region> key=42 lfo1_freq=5 lfo1_wave=1 lfo1_pitch=100 lfo1_wave2=1 lfo1_ratio2=2 lfo1_scale2=0.5
            <region> key=43 lfo1_freq=4 lfo1_wave=0 lfo1_phase=0.25 lfo1_volume=6
            <region> key=44 lfo1_freq=2 lfo1_wave=3 lfo1_amplitude=50
            <region> key=45 lfo1_freq=2 lfo1_wave=3 lfo1_pan=100
            <region> key=46 lfo1_freq_oncc1=10 lfo1_wave=1 lfo1_pitch_oncc1=100
            <region> key=47 pitchlfo_freq=5 pitchlfo_depth_oncc1=100 amplfo_freq=2 amplfo_depth=6 amplfo_wave=3
            <region> key=48 lfo1_freq=10 lfo1_wave=12 lfo1_pitch=100
            <region> key=49 fil_type=lpf_2p cutoff=1000
            <region> key=50 fil_type=lpf_2p cutoff=1000 lfo1_freq=2 lfo1_wave=3 lfo1_cutoff=1200 lfo1_resonance=6
            <region> key=51 fil_type=lpf_2p cutoff=2000 resonance=6
            <region> lokey=100 hikey=127
            """, files: Self.tone)
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        let plain = try Self.play(bank, key: 40, seconds: 0.5)
        // A 5 Hz sine of ±100 cents after 0.1 s, for one cycle (lfo1_count=1), then still.
        let delayed = try Self.play(bank, key: 41, seconds: 0.5)
        for (t, expected) in [(0.05, 0.0), (0.15, 100), (0.25, -100), (0.35, 0), (0.45, 0)] {
            #expect(abs(Self.cents(delayed, at: t) - expected) < 3, "lfo1_count at \(t) s: \(Self.cents(delayed, at: t))")
        }
        // Two waves summed: sine + ½ sine at twice the rate. At 25 ms the first is at phase ⅛
        // (sfizz's parabola: 0.75) and the second at its peak: 125 cents.
        let summed = try Self.play(bank, key: 42, seconds: 0.2)
        #expect(abs(Self.cents(summed, at: 0.025) - 125) < 4, "two waves: \(Self.cents(summed, at: 0.025))")
        #expect(abs(Self.cents(summed, at: 0.05) - 100) < 4, "two waves: \(Self.cents(summed, at: 0.05))")
        // A triangle from phase ¼ (its peak) on the volume: +6 dB at 0, −6 dB half a cycle later.
        let tremolo = try Self.play(bank, key: 43, seconds: 0.5)
        #expect(abs(Self.gain(tremolo, plain, at: 0.25) - 6) < 0.3, "volume: \(Self.gain(tremolo, plain, at: 0.25))")
        #expect(abs(Self.gain(tremolo, plain, at: 0.125) + 6) < 0.3, "volume: \(Self.gain(tremolo, plain, at: 0.125))")
        // The amplitude target multiplies: a square (1 then 0) at 50 % halves the level, then silences it.
        let gated = try Self.play(bank, key: 44, seconds: 0.5)
        #expect(abs(Self.gain(gated, plain, at: 0.12) + 6.02) < 0.1, "amplitude: \(Self.gain(gated, plain, at: 0.12))")
        #expect(Self.gain(gated, plain, at: 0.37) < -60, "amplitude: \(Self.gain(gated, plain, at: 0.37))")
        // Pan 100 %: hard right for the square's first half (+3 dB right, nothing left), centred after.
        let panned = try Self.play(bank, key: 45, seconds: 0.5)
        #expect(abs(Self.gain(panned, plain, at: 0.12, right: true) - 3.01) < 0.1)
        #expect(Self.gain(panned, plain, at: 0.12) < -60)
        #expect(abs(Self.gain(panned, plain, at: 0.37)) < 0.1)
        // CC 1 at 127: 10 Hz and ±100 cents (peak 25 ms); CC 1 at 64: ±50.4 cents.
        let moved = try Self.play(bank, key: 46, seconds: 0.1, controllers: [(1, 127)])
        #expect(abs(Self.cents(moved, at: 0.025) - 100) < 4, "freq/depth by CC: \(Self.cents(moved, at: 0.025))")
        #expect(abs(Self.cents(moved, at: 0.075) + 100) < 4, "freq/depth by CC: \(Self.cents(moved, at: 0.075))")
        // v1 LFOs moved by a controller: pitchlfo_depth_oncc1, with a square amplfo of 6 dB.
        let legacy = try Self.play(bank, key: 47, seconds: 0.5, controllers: [(1, 64)])
        #expect(abs(Self.cents(legacy, at: 0.05) - 100 * 64 / 127) < 3, "pitchlfo_depth_oncc1: \(Self.cents(legacy, at: 0.05))")
        #expect(abs(Self.gain(legacy, plain, at: 0.12) - 6) < 0.3, "amplfo square: \(Self.gain(legacy, plain, at: 0.12))")
        // Sample-and-hold: 0 for the first half cycle, then a value held for each 50 ms.
        let held = try Self.play(bank, key: 48, seconds: 0.2)
        let halves = [0.065, 0.085, 0.115, 0.135].map { Self.cents(held, at: $0) }
        #expect(abs(Self.cents(held, at: 0.025)) < 1)
        #expect(abs(halves[0] - halves[1]) < 2 && abs(halves[2] - halves[3]) < 2, "held: \(halves)")
        #expect(abs(halves[0] - halves[2]) > 2 && halves.allSatisfy { abs($0) <= 101 }, "held: \(halves)")
        // Cutoff +1200 cents and resonance +6 dB for the square's first half: the filter of key 51.
        let opened = try Self.play(bank, key: 50, seconds: 0.5)
        let twin = try Self.play(bank, key: 51, seconds: 0.5)
        let closed = try Self.play(bank, key: 49, seconds: 0.5)
        #expect(abs(Self.gain(opened, twin, at: 0.15)) < 0.2, "cutoff/resonance: \(Self.gain(opened, twin, at: 0.15))")
        #expect(abs(Self.gain(opened, closed, at: 0.4)) < 0.2, "cutoff/resonance: \(Self.gain(opened, closed, at: 0.4))")
    }

    @Test func flexEnvelopesShapeTheirTargetsPointByPoint() throws {
        let bank = try SFZPlayingTests.bank("""
            <group> sample=tone.wav pitch_keytrack=0
            <region> key=40
            <region> key=41 eg1_time1=0.2 eg1_level1=1 eg1_time2=0.2 eg1_level2=0.5 eg1_sustain=2
              eg1_time3=0.1 eg1_level3=0 eg1_pitch=1200 ampeg_release=1
            <region> key=42 eg1_time0=0.2 eg1_level0=1 eg1_shape0=2 eg1_pitch=1200 eg2_time0=0.2 eg2_level0=1 eg2_volume=-12
            <region> key=43 ampeg_attack=0.3 eg1_ampeg=1 eg1_time0=0.1 eg1_level0=1 eg1_time1=0.2 eg1_level1=0
            <region> key=44 eg1_level0_oncc1=1 eg1_time1=0.1 eg1_level1_oncc1=-0.5 eg1_sustain=1 eg1_pitch=100
            <region> lokey=100 hikey=127
            """, files: Self.tone)
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        let plain = try Self.play(bank, key: 40, seconds: 0.8)
        // From 0 to 1 over 0.2 s, to 0.5 over 0.2 s (held), to 0 over 0.1 s after the release at 0.5 s.
        let pitched = try Self.play(bank, key: 41, seconds: 0.7, held: 0.5)
        for (t, expected) in [(0.1, 600.0), (0.3, 900), (0.45, 600), (0.55, 300), (0.65, 0)] {
            #expect(abs(Self.cents(pitched, at: t) - expected) < 6, "flex pitch at \(t) s: \(Self.cents(pitched, at: t))")
        }
        // Shape 2: x³ — an eighth of the way at half the time; the volume falls linearly in dB.
        let shaped = try Self.play(bank, key: 42, seconds: 0.3)
        #expect(abs(Self.cents(shaped, at: 0.1) - 150) < 6, "shape 2: \(Self.cents(shaped, at: 0.1))")
        #expect(abs(Self.gain(shaped, plain, at: 0.1) + 6) < 0.3, "volume: \(Self.gain(shaped, plain, at: 0.1))")
        // egN_ampeg replaces ampeg_*: linear from 0 to full over 0.1 s, then to 0 over 0.2 s after the release.
        let amplitude = try Self.play(bank, key: 43, seconds: 0.8, held: 0.4)
        #expect(abs(Self.gain(amplitude, plain, at: 0.05) + 6.02) < 0.3, "ampeg: \(Self.gain(amplitude, plain, at: 0.05))")
        #expect(abs(Self.gain(amplitude, plain, at: 0.3)) < 0.1, "ampeg: \(Self.gain(amplitude, plain, at: 0.3))")
        #expect(abs(Self.gain(amplitude, plain, at: 0.5) + 6.02) < 0.3, "ampeg: \(Self.gain(amplitude, plain, at: 0.5))")
        #expect(SFZPlayingTests.level(amplitude, from: 0.62, to: 0.8) < -120, "the voice ended with its envelope")
        // Levels by CC 1 at 127: point 0 at 1, point 1 at −0.5 (held): +100 then −50 cents.
        let moved = try Self.play(bank, key: 44, seconds: 0.3, controllers: [(1, 127)])
        #expect(abs(Self.cents(moved, at: 0.05) - 25) < 4, "level by CC: \(Self.cents(moved, at: 0.05))")
        #expect(abs(Self.cents(moved, at: 0.2) + 50) < 3, "level by CC: \(Self.cents(moved, at: 0.2))")
    }
}
