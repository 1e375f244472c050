import PolyphonSynth
import PolyphonTestSupport
import Testing
@testable import PolyphonSFZ

/// v2 LFOs and flex envelopes on the rest of the voice — the second filter, the filter gains,
/// the equaliser bands, a stereo sample's width and position — and the LFOs' step sequences and
/// phase controllers, measured in sound: dB against a static twin, cents through the steps.
extension SFZRoutedModulationTests {
    @Test func lfosAndEnvelopesReachTheFilterChainAndTheStereoStages() throws {
        let frames = 22_050
        let tone = TestAudio.sine(frequency: 1000, frames: frames)
        let files = Self.tone.merging([
            "both.wav": TestAudio.wav([tone, tone]), "left.wav": TestAudio.wav([tone, [Float](repeating: 0, count: frames)]),
        ]) { a, _ in a }
        // lfo1 a 2 Hz square (sfizz's pulses: 1 for the first half cycle, 0 for the second).
        let square = "lfo1_freq=2 lfo1_wave=3"
        let bank = try SFZPlayingTests.bank("""
            <group> sample=tone.wav pitch_keytrack=0
            <region> key=40
            <region> key=41 fil_type=lpf_2p cutoff=4000 fil2_type=lpf_2p cutoff2=1000 \(square) lfo1_cutoff2=1200 lfo1_resonance2=6
            <region> key=42 fil_type=lpf_2p cutoff=4000 fil2_type=lpf_2p cutoff2=2000 resonance2=6
            <region> key=43 fil_type=lpf_2p cutoff=4000 fil2_type=lpf_2p cutoff2=1000
            <region> key=44 eq1_freq=1000 eq1_gain=0 \(square) lfo1_eq1gain=12
            <region> key=45 eq1_freq=500 eq1_bw=1 eq1_gain=12 \(square) lfo1_eq1freq=500 lfo1_eq1bw=-0.5
            <region> key=46 eq1_freq=1000 eq1_bw=0.5 eq1_gain=12
            <region> key=47 eq1_freq=500 eq1_bw=1 eq1_gain=12
            <region> key=48 fil_type=peq cutoff=1000 eg1_time0=0.2 eg1_level0=1 eg1_sustain=0 eg1_fil1gain=-12
            <region> key=49 sample=both.wav
            <region> key=50 sample=both.wav \(square) lfo1_position=100
            <region> key=51 sample=left.wav width=0 \(square) lfo1_width=100
            <region> lokey=100 hikey=127
            """, files: files)
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        let plain = try Self.play(bank, key: 40, seconds: 0.45)
        // The second filter: cutoff +1200 cents and resonance +6 dB for the first half cycle.
        let second = try Self.play(bank, key: 41, seconds: 0.45)
        let opened = try Self.play(bank, key: 42, seconds: 0.45), closed = try Self.play(bank, key: 43, seconds: 0.45)
        #expect(abs(Self.gain(second, opened, at: 0.15)) < 0.2, "cutoff2/resonance2: \(Self.gain(second, opened, at: 0.15))")
        #expect(abs(Self.gain(second, closed, at: 0.4)) < 0.2, "cutoff2/resonance2: \(Self.gain(second, closed, at: 0.4))")
        // A flat band raised to +12 dB at its centre, then flat again.
        let raised = try Self.play(bank, key: 44, seconds: 0.45)
        #expect(abs(Self.gain(raised, plain, at: 0.15) - 12) < 0.2, "eq1gain: \(Self.gain(raised, plain, at: 0.15))")
        #expect(abs(Self.gain(raised, plain, at: 0.4)) < 0.1, "eq1gain: \(Self.gain(raised, plain, at: 0.4))")
        // A band at 500 Hz, 1 octave, moved to 1 kHz and half an octave: key 46's band, then key 47's.
        let moved = try Self.play(bank, key: 45, seconds: 0.45)
        let at1k = try Self.play(bank, key: 46, seconds: 0.45), at500 = try Self.play(bank, key: 47, seconds: 0.45)
        #expect(abs(Self.gain(moved, at1k, at: 0.15)) < 0.2, "eq1freq/eq1bw: \(Self.gain(moved, at1k, at: 0.15))")
        #expect(abs(Self.gain(moved, at500, at: 0.4)) < 0.2, "eq1freq/eq1bw: \(Self.gain(moved, at500, at: 0.4))")
        #expect(Self.gain(at1k, at500, at: 0.3) > 3, "the two bands differ at 1 kHz")
        // A flex envelope lowering a peaking filter's gain linearly to −12 dB in 0.2 s.
        let lowered = try Self.play(bank, key: 48, seconds: 0.3)
        #expect(abs(Self.gain(lowered, plain, at: 0.1) + 6) < 0.3, "eg1_fil1gain: \(Self.gain(lowered, plain, at: 0.1))")
        #expect(abs(Self.gain(lowered, plain, at: 0.25) + 12) < 0.2, "eg1_fil1gain: \(Self.gain(lowered, plain, at: 0.25))")
        // Position +100 % moves the pair into the right channel (+3 dB there), then back to the centre.
        let stereo = try Self.play(bank, key: 49, seconds: 0.45), placed = try Self.play(bank, key: 50, seconds: 0.45)
        #expect(abs(Self.gain(placed, stereo, at: 0.15, right: true) - 3.01) < 0.1)
        #expect(Self.gain(placed, stereo, at: 0.15) < -60)
        #expect(abs(Self.gain(placed, stereo, at: 0.4)) < 0.1 && abs(Self.gain(placed, stereo, at: 0.4, right: true)) < 0.1)
        // Width 0 + 100 %: the left side plays into the left channel alone, then into both alike.
        let widened = try Self.play(bank, key: 51, seconds: 0.45)
        let leftOnly = SFZPlayingTests.level(widened, from: 0.1, to: 0.2) - SFZPlayingTests.level(widened, from: 0.1, to: 0.2, right: true)
        #expect(leftOnly > 60, "width: \(leftOnly) dB left over right")
        #expect(abs(SFZPlayingTests.level(widened, from: 0.35, to: 0.45)
            - SFZPlayingTests.level(widened, from: 0.35, to: 0.45, right: true)) < 0.1, "width 0: both channels alike")
    }

    @Test func lfoStepSequencesAndPhaseControllersPlayAsSfizz() throws {
        let bank = try SFZPlayingTests.bank("""
            <group> sample=tone.wav pitch_keytrack=0
            <region> key=40 lfo1_freq=4 lfo1_steps=4 lfo1_step1=100 lfo1_step2=-50 lfo1_step3=25 lfo1_pitch=100
              lfo1_wave2=3 lfo1_ratio2=0.25 lfo1_scale2=0.2
            <region> key=41 lfo1_freq=2 lfo1_wave=3 lfo1_phase_oncc1=0.5 lfo1_pitch=100
            <region> lokey=100 hikey=127
            """, files: Self.tone)
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        // Four steps of 62.5 ms (the fourth 0), the second wave (a square, +20 for the first
        // half cycle, at a quarter of the rate) summed on top, as sfizz plays the waves after
        // the sequence.
        let stepped = try Self.play(bank, key: 40, seconds: 0.25)
        for (t, expected) in [(0.031, 120.0), (0.094, -30), (0.156, 45), (0.219, 20)] {
            #expect(abs(Self.cents(stepped, at: t) - expected) < 3, "step at \(t) s: \(Self.cents(stepped, at: t))")
        }
        // The phase follows CC 1 while the LFO runs: at 0 the square's first half (+100 cents);
        // CC 1 to 127 at 0.1 s moves it half a cycle, into the second (0 cents).
        let synthesizer = try Synthesizer(soundBank: bank.soundFont)
        synthesizer.startNote(41, withVelocity: 127, onChannel: 0)
        let before = synthesizer.renderSeconds(0.1, block: 64)
        synthesizer.sendController(1, withValue: 127, onChannel: 0)
        let after = synthesizer.renderSeconds(0.1, block: 64)
        let phased = Rendered(left: before.left + after.left, right: before.right + after.right, rate: before.rate)
        #expect(abs(Self.cents(phased, at: 0.05) - 100) < 3, "phase at CC 1 = 0: \(Self.cents(phased, at: 0.05))")
        #expect(abs(Self.cents(phased, at: 0.15)) < 3, "phase at CC 1 = 127: \(Self.cents(phased, at: 0.15))")
    }
}
