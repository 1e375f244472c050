import Foundation
import PolyphonSoundFont
import Testing
@testable import PolyphonSynth

@Suite("Pitch")
struct PitchTests {
    func measuredCents(bank: SoundFont, key: UInt8, expectedKey: Double, setup: (Synthesizer) -> Void = { _ in },
                       rate: Double = 44100, fluidSynthCompatible: Bool = false) throws -> Double {
        var configuration = SynthesizerConfiguration()
        configuration.fluidSynthCompatible = fluidSynthCompatible
        let synth = try Synthesizer(soundBank: bank, sampleRate: rate, configuration: configuration)
        setup(synth)
        synth.startNote(key, withVelocity: 100, onChannel: 0)
        let out = synth.renderSeconds(0.6)
        let f = Measure.frequency(out.left[out.frame(0.1)..<out.frame(0.6)], rate: rate)
        return Measure.cents(f, Measure.midiFrequency(expectedKey))
    }

    @Test(arguments: [21, 45, 60, 69, 81, 96, 108] as [UInt8])
    func keysAreInTuneWithinOneCent(key: UInt8) throws {
        let c = try measuredCents(bank: TestBank.sine(), key: key, expectedKey: Double(key))
        #expect(abs(c) < 1, "key \(key) off by \(c) cents")
    }

    @Test(arguments: [22050.0, 48000, 96000])
    func sampleRateConversionKeepsPitch(rate: Double) throws {
        let c = try measuredCents(bank: TestBank.sine(), key: 72, expectedKey: 72, rate: rate)
        #expect(abs(c) < 1)
    }

    @Test func overridingRootKeyShiftsPitch() throws {
        // Root 57 instead of 69: key 69 sounds an octave higher.
        let bank = TestBank.sine(generators: [Generator(.overridingRootKey, 57)])
        let c = try measuredCents(bank: bank, key: 69, expectedKey: 81)
        #expect(abs(c) < 1)
    }

    @Test func scaleTuningFiftyGivesQuarterTones() throws {
        let bank = TestBank.sine(generators: [Generator(.scaleTuning, 50)])
        let c = try measuredCents(bank: bank, key: 81, expectedKey: 75)  // 12 keys × 50 cents
        #expect(abs(c) < 1)
    }

    @Test func coarseFineAndCorrectionAdd() throws {
        let bank = TestBank.sine(generators: [Generator(.coarseTune, 2), Generator(.fineTune, -30)],
                                 presetGenerators: [Generator(.fineTune, 10)], pitchCorrection: 5)
        let c = try measuredCents(bank: bank, key: 60, expectedKey: 62)
        #expect(abs(c - (-15)) < 1)
    }

    @Test func keynumOverrideFixesPitch() throws {
        let bank = TestBank.sine(generators: [Generator(.keynum, 60)])
        let c = try measuredCents(bank: bank, key: 90, expectedKey: 60)
        #expect(abs(c) < 1)
    }

    /// The default pitch-wheel modulator is 12700 cents × wheel × sensitivity, the sensitivity
    /// a unipolar source in 128ths (SF2 2.04 §8.4.10): a range of 2 semitones bends by
    /// 12700 × 2/128 = 198.4 cents — exactly by default, and in whole cents rounded down as
    /// FluidSynth 2.3.1 and 2.6 play it with `fluidSynthCompatible`: 198 up, 199 down (measured
    /// on 2.3.1: 198.0 up, 199.0 down, ±0.5 cents).
    @Test(arguments: [false, true])
    func pitchBendFullUpIsTwoSemitonesOfTheSpec(fluidSynthCompatible: Bool) throws {
        let c = try measuredCents(bank: TestBank.sine(), key: 60, expectedKey: 62, setup: { s in
            s.sendPitchBend(16383, onChannel: 0)
        }, fluidSynthCompatible: fluidSynthCompatible)
        // The wheel's top value is 16383/16384 (kept as it is, SF2 §8.4.10): 198.42 cents.
        let up = 12700.0 * 2 / 128 * 8191 / 8192
        #expect(abs(c - ((fluidSynthCompatible ? 198 : up) - 200)) < 0.1, "\(c)")
        let d = try measuredCents(bank: TestBank.sine(), key: 60, expectedKey: 58, setup: { s in
            s.sendPitchBend(0, onChannel: 0)
        }, fluidSynthCompatible: fluidSynthCompatible)
        #expect(abs(d - (200 - (fluidSynthCompatible ? 199 : 12700.0 * 2 / 128))) < 0.1, "\(d)")
    }

    /// Exact pitch by default: RPN 1 fine tuning by a fraction of a cent sounds as asked;
    /// FluidSynth's compatibility plays it rounded down to a whole cent.
    @Test(arguments: [false, true])
    func fractionsOfACentAreExactByDefault(fluidSynthCompatible: Bool) throws {
        // RPN 1: 8192 + 3123 = +38.12 cents.
        let c = try measuredCents(bank: TestBank.sine(), key: 69, expectedKey: 69, setup: { s in
            s.sendController(101, withValue: 0, onChannel: 0)
            s.sendController(100, withValue: 1, onChannel: 0)
            s.sendController(6, withValue: UInt8((8192 + 3123) >> 7), onChannel: 0)
            s.sendController(38, withValue: UInt8((8192 + 3123) & 0x7F), onChannel: 0)
        }, fluidSynthCompatible: fluidSynthCompatible)
        let asked = 3123.0 / 8192 * 100
        #expect(abs(c - (fluidSynthCompatible ? asked.rounded(.down) : asked)) < 0.05, "\(c) for \(asked)")
    }

    @Test func pitchBendRangeFromRPN0() throws {
        let c = try measuredCents(bank: TestBank.sine(), key: 60, expectedKey: 48) { s in
            s.sendController(101, withValue: 0, onChannel: 0)
            s.sendController(100, withValue: 0, onChannel: 0)
            s.sendController(6, withValue: 12, onChannel: 0)
            s.sendController(38, withValue: 0, onChannel: 0)
            s.sendPitchBend(0, onChannel: 0)
        }
        // 12 semitones of the spec: 12700 × 12/128 = 1190.6 cents.
        #expect(abs(c - (1200 - 12700 * 12 / 128)) < 0.5, "\(c)")
    }

    @Test func channelFineAndCoarseTuningRPNs() throws {
        let c = try measuredCents(bank: TestBank.sine(), key: 60, expectedKey: 63.5) { s in
            // RPN 2 coarse +3 semitones, RPN 1 fine +50 cents (14-bit 8192 + 4096).
            s.sendController(101, withValue: 0, onChannel: 0)
            s.sendController(100, withValue: 2, onChannel: 0)
            s.sendController(6, withValue: 67, onChannel: 0)
            s.sendController(100, withValue: 1, onChannel: 0)
            s.sendController(6, withValue: 96, onChannel: 0)
            s.sendController(38, withValue: 0, onChannel: 0)
        }
        #expect(abs(c) < 1)
    }
}
