import Foundation
import PolyphonSoundFont
import Testing
@testable import PolyphonSynth

@Suite("Levels and envelopes")
struct LevelAndEnvelopeTests {
    func level(_ bank: SoundFont, velocity: UInt8 = 127, setup: (Synthesizer) -> Void = { _ in }) throws -> Double {
        let s = try Synthesizer(soundBank: bank)
        setup(s)
        s.startNote(69, withVelocity: velocity, onChannel: 0)
        let out = s.renderSeconds(0.5)
        return Measure.db(Measure.rms(out.left[out.frame(0.2)..<out.frame(0.5)]))
    }

    @Test func velocity111IsMinus2Point34dB() throws {
        let a = try level(TestBank.sine(), velocity: 127)
        let b = try level(TestBank.sine(), velocity: 111)
        #expect(abs((a - b) - 2.34) < 0.05, "got \(a - b) dB")
        let c = try level(TestBank.sine(), velocity: 64)
        #expect(abs((a - c) - 11.9) < 0.1, "got \(a - c) dB")
    }

    @Test func initialAttenuationIsScaledByPointFour() throws {
        let a = try level(TestBank.sine())
        let b = try level(TestBank.sine(generators: [Generator(.initialAttenuation, 100)]))
        #expect(abs((a - b) - 4.0) < 0.05, "100 cB gave \(a - b) dB")
        let c = try level(TestBank.sine(generators: [Generator(.initialAttenuation, 100)],
                                        presetGenerators: [Generator(.initialAttenuation, 50)]))
        #expect(abs((a - c) - 6.0) < 0.05)
    }

    @Test func volumeAndExpressionUseTheConcaveCurve() throws {
        let a = try level(TestBank.sine()) { $0.sendController(7, withValue: 127, onChannel: 0) }
        let b = try level(TestBank.sine()) { $0.sendController(7, withValue: 64, onChannel: 0) }
        #expect(abs((a - b) - 11.9) < 0.1)
        let c = try level(TestBank.sine()) {
            $0.sendController(7, withValue: 127, onChannel: 0)
            $0.sendController(11, withValue: 100, onChannel: 0)
        }
        #expect(abs((a - c) - 4.15) < 0.05)
    }

    @Test func gainMatchesFluidSynthScale() throws {
        // Full-velocity, CC7 127, centre pan, 0.5-amplitude sine, gain 0.2:
        // RMS = 0.5/√2 × 0.2 × cos(π/4) × FluidSynth's measured level factor.
        let l = try level(TestBank.sine()) { $0.sendController(7, withValue: 127, onChannel: 0) }
        let expected = Measure.db(0.5 / 2.0.squareRoot() * 0.2 * cos(Double.pi / 4)
                                  * Double(SynthesizerConfiguration.fluidSynthLevelFactor))
        #expect(abs(l - expected) < 0.05, "level \(l) expected \(expected)")
    }

    /// Time (s) at which the envelope first reaches `threshold` of its maximum.
    func firstTime(_ x: [Float], rate: Double, fraction: Double) -> Double {
        let w = 22  // half a period at 44.1 kHz of 1 kHz-ish content: peak per window
        let env = stride(from: 0, to: x.count - w, by: 1).lazy.map { i in Double(abs(x[i])) }
        let peak = x.map { abs($0) }.max() ?? 0
        var i = 0
        for v in env {
            if v >= Double(peak) * fraction { return Double(i) / rate }
            i += 1
        }
        _ = w
        return -1
    }

    @Test func attackTimeIsExact() throws {
        // Attack 2^(−1200·… ) : −1200 tc = 0.5 s.
        let bank = TestBank.sine(generators: [Generator(.attackVolEnv, -1200)])
        let s = try Synthesizer(soundBank: bank)
        s.startNote(69, withVelocity: 127, onChannel: 0)
        let out = s.renderSeconds(1.0)
        // Linear attack: at t the amplitude is t/0.5 of full. Measure the period-peak at 0.25 s.
        let half = Measure.peak(out.left[out.frame(0.245)..<out.frame(0.255)])
        let full = Measure.peak(out.left[out.frame(0.6)..<out.frame(0.7)])
        #expect(abs(half / full - 0.5) < 0.02)
        // Peak reached at 0.5 s ± 1 ms: 99.8 % at 0.499 s, not before 0.497.
        let reached = firstTime(out.left, rate: 44100, fraction: 0.995)
        #expect(abs(reached - 0.5) < 0.0015, "reached at \(reached)")
    }

    @Test func decayToSustainIsLinearInDecibels() throws {
        // Decay 0 tc = 1 s for 96 dB; sustain 480 cB (−48 dB) is reached after 0.5 s.
        let bank = TestBank.sine(generators: [Generator(.decayVolEnv, 0), Generator(.sustainVolEnv, 480)])
        let s = try Synthesizer(soundBank: bank)
        s.startNote(69, withVelocity: 127, onChannel: 0)
        let out = s.renderSeconds(1.2)
        func lvl(_ t: Double) -> Double { Measure.db(Measure.rms(out.left[out.frame(t - 0.005)..<out.frame(t + 0.005)])) }
        // 96 dB/s: 0.1 s → 0.25 s is 14.4 dB. Default delay, attack and hold are 1 ms each, so
        // the decay starts at 3 ms and at 0.1 s the level is −9.31 dB: sustain is 38.69 dB lower.
        #expect(abs((lvl(0.1) - lvl(0.25)) - 14.4) < 0.2, "\(lvl(0.1) - lvl(0.25))")
        #expect(abs((lvl(0.1) - lvl(1.0)) - 38.688) < 0.1, "\(lvl(0.1) - lvl(1.0))")
        #expect(abs(lvl(0.8) - lvl(1.1)) < 0.05)
    }

    @Test func releaseFallsNinetySixDecibelsPerReleaseTime() throws {
        let bank = TestBank.sine(generators: [Generator(.releaseVolEnv, 0)])  // 1 s
        let s = try Synthesizer(soundBank: bank)
        s.startNote(69, withVelocity: 127, onChannel: 0)
        s.stopNote(69, onChannel: 0, atFrame: 22050)
        let out = s.renderSeconds(1.5)
        func lvl(_ t: Double) -> Double { Measure.db(Measure.rms(out.left[out.frame(t - 0.005)..<out.frame(t + 0.005)])) }
        #expect(abs((lvl(0.45) - lvl(0.75)) - 24.0) < 0.6, "\(lvl(0.45) - lvl(0.75))")
        // The voice ends once it is below the noise floor, well before the 1 s nominal end.
        #expect(s.activeVoiceCount == 0)
    }

    /// The release starts on the note-off's own frame, wherever it falls in a control period:
    /// at 8 kHz a period is 8 ms, so a release started at the period's beginning would be
    /// 7.9 ms (0.76 dB at 96 dB/s) ahead for a note-off on its last frame.
    @Test func releaseStartsOnTheNoteOffsFrame() throws {
        let bank = TestBank.sine(generators: [Generator(.releaseVolEnv, 0)])  // 96 dB per second
        func fall(noteOff: Int) throws -> Double {
            let s = try Synthesizer(soundBank: bank, sampleRate: 8000)
            s.startNote(69, withVelocity: 127, onChannel: 0)
            s.stopNote(69, onChannel: 0, atFrame: noteOff)
            let out = s.renderSeconds(1.0)
            func lvl(_ f: Int) -> Double { Measure.db(Measure.rms(out.left[(f - 40)..<(f + 40)])) }
            return lvl(noteOff - 200) - lvl(noteOff + 2000)  // 0.25 s after the note-off
        }
        let onPoint = try fall(noteOff: 64 * 40), lastFrame = try fall(noteOff: 64 * 40 + 63)
        #expect(abs(onPoint - 24) < 0.1, "fell \(onPoint) dB in 0.25 s")
        // 1 ms at 96 dB/s is 0.096 dB.
        #expect(abs(lastFrame - onPoint) < 0.05, "\(lastFrame) dB against \(onPoint) dB")
    }

    @Test func holdAndDelayTimes() throws {
        // Delay 0.25 s (−2400 tc), then instant attack, hold 0.5 s, then fast decay to silence.
        let bank = TestBank.sine(generators: [Generator(.delayVolEnv, -2400), Generator(.holdVolEnv, -1200),
                                              Generator(.decayVolEnv, -2400), Generator(.sustainVolEnv, 1440)])
        let s = try Synthesizer(soundBank: bank)
        s.startNote(69, withVelocity: 127, onChannel: 0)
        let out = s.renderSeconds(1.2)
        let first = out.left.firstIndex { $0 != 0 } ?? -1
        #expect(abs(Double(first) / 44100 - 0.25) < 0.001, "sound began at \(Double(first) / 44100)")
        let full = Measure.peak(out.left[out.frame(0.3)..<out.frame(0.35)])
        let endHold = Measure.peak(out.left[out.frame(0.74)..<out.frame(0.749)])
        #expect(abs(Measure.db(endHold / full)) < 0.2)
        let after = Measure.peak(out.left[out.frame(0.85)..<out.frame(0.86)])
        #expect(Measure.db(after / full) < -20)
    }

    @Test func keynumToVolEnvDecayShortensHighNotes() throws {
        // keynumToVolEnvDecay 100 tc/key: key 72 decays 12×100 tc faster than key 60 → 2^(−1) of the time.
        let bank = TestBank.sine(generators: [Generator(.decayVolEnv, 0), Generator(.sustainVolEnv, 960),
                                              Generator(.keynumToVolEnvDecay, 100)])
        func drop(_ key: UInt8) throws -> Double {
            let s = try Synthesizer(soundBank: bank)
            s.startNote(key, withVelocity: 127, onChannel: 0)
            let out = s.renderSeconds(0.3)
            let a = Measure.db(Measure.rms(out.left[out.frame(0.005)..<out.frame(0.015)]))
            let b = Measure.db(Measure.rms(out.left[out.frame(0.195)..<out.frame(0.205)]))
            return a - b
        }
        let d60 = try drop(60), d72 = try drop(72)
        #expect(abs(d72 / d60 - 2) < 0.05, "ratio \(d72 / d60)")
    }

    @Test func modLfoToVolumeTremolo() throws {
        // 5 Hz mod LFO (8.176 × 2^(c/1200) = 5 → c ≈ −851), ±6 dB.
        let bank = TestBank.sine(generators: [Generator(.freqModLFO, -851), Generator(.modLfoToVolume, 60)])
        let s = try Synthesizer(soundBank: bank)
        s.startNote(69, withVelocity: 127, onChannel: 0)
        let out = s.renderSeconds(1.0)
        let env = Measure.envelope(Array(out.left[out.frame(0.2)...]), window: 100)
        let range = (env.max() ?? 0) - (env.min() ?? 0)
        #expect(abs(range - 12) < 0.6, "tremolo depth \(range) dB")
    }
}
