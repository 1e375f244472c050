import Foundation
import PolyphonSoundFont
import Testing
@testable import PolyphonSynth

/// Modulators read at a control point drive the period that follows it, so they are read where
/// that period ends, as FluidSynth steps its envelopes and LFOs before each block: a filter then
/// glides toward where the envelope is going rather than a period behind it. Read at the period's
/// start, a resonant filter opened by a 1 ms modulation envelope jumped a whole attack at once in
/// the second period and rang (MuseScore_General's Square Lead: 4–8 dB too bright at 1–4 kHz in
/// every short note's first 10 ms).
@Suite("Modulation timing")
struct ModulationTimingTests {
    /// A looped square wave (441 Hz at key 60) through a resonant low-pass at about 600 Hz that a
    /// modulation envelope with 1 ms delay, attack and hold opens by 4300 cents (to about 7 kHz)
    /// and closes over 2 s; the volume envelope opens in 1 ms.
    static func bank() -> SoundFont {
        let square = (0..<4_400).map { i -> Int16 in (i % 100) < 50 ? 12_000 : -12_000 }
        return SoundFont.singleSample(square, originalPitch: 60, loop: 0..<4_400, instrumentGenerators: [
            Generator(.initialFilterFc, 7_400), Generator(.initialFilterQ, 80), Generator(.modEnvToFilterFc, 4_300),
            Generator(.delayModEnv, -12_000), Generator(.attackModEnv, -12_000), Generator(.holdModEnv, -12_000),
            Generator(.decayModEnv, 1_200), Generator(.sustainModEnv, 1_000),
            Generator(.delayVolEnv, -12_000), Generator(.attackVolEnv, -12_000),
        ])
    }

    @Test func aFilterOpenedByAFastEnvelopeDoesNotRing() throws {
        let synth = try Synthesizer(soundBank: Self.bank(), configuration: .dry)
        synth.startNote(60, withVelocity: 127, onChannel: 0)
        let out = synth.renderSeconds(0.06)
        func peak(_ from: Double, _ to: Double) -> Double {
            Double(out.left[out.frame(from)..<out.frame(to)].map(abs).max() ?? 0)
        }
        // The square's own peak through the open filter (resonance included) once the attack is
        // over, against the onset: read a period late, the onset overshot it by 2.6 dB.
        let onset = peak(0, 0.01), settled = peak(0.01, 0.06)
        #expect(Measure.db(onset / settled) < 1, "onset \(onset), settled \(settled)")
    }

    /// A vibrato LFO of 100 cents at 8.176 Hz after its shortest delay (1 ms) on a 3520 Hz sine,
    /// in its first rise:
    /// each 64-frame period plays the LFO's value where the period ends (exact pitch, the
    /// default). Read where it starts, the rise measured some 4 cents flat of that.
    @Test func vibratoPlaysTheLFOWhereEachPeriodEnds() throws {
        let bank = TestBank.sine(generators: [Generator(.vibLfoToPitch, 100), Generator(.freqVibLFO, 0),
                                              Generator(.delayVibLFO, -12_000)])
        let synth = try Synthesizer(soundBank: bank)
        let rate = 44_100.0
        synth.startNote(105, withVelocity: 127, onChannel: 0)
        let out = synth.renderSeconds(0.03)
        // The triangle rises 4·f per second from 0 over its first quarter cycle (30.6 ms).
        let risePerFrame = 4 * 8.176 / rate, delay = 0.001 * rate
        func expectedHz(_ range: Range<Int>, lead: Int) -> Double {
            let cycles = range.map { frame -> Double in
                let end = (frame / 64) * 64 + lead
                return 3520 * pow(2, 100 * risePerFrame * max(0, Double(end) - delay) / 1200)
            }
            return cycles.reduce(0, +) / Double(range.count)
        }
        for window in [out.frame(0.005)..<out.frame(0.015), out.frame(0.015)..<out.frame(0.025)] {
            let measured = Measure.frequency(out.left[window], rate: rate)
            let ahead = Measure.cents(measured, expectedHz(window, lead: 64))
            let behind = Measure.cents(measured, expectedHz(window, lead: 0))
            #expect(abs(ahead) < 0.5, "\(window): \(ahead) cents from the period's end, \(behind) from its start")
        }
    }
}
