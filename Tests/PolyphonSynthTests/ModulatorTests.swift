import Foundation
import PolyphonSoundFont
import Testing
@testable import PolyphonSynth

@Suite("Modulators and controllers")
struct ModulatorTests {
    func rms(_ bank: SoundFont, key: UInt8 = 69, velocity: UInt8 = 127, seconds: Double = 0.4,
             config: SynthesizerConfiguration = SynthesizerConfiguration(),
             setup: (Synthesizer) -> Void = { _ in }) throws -> Double {
        let s = try Synthesizer(soundBank: bank, configuration: config)
        setup(s)
        s.startNote(key, withVelocity: velocity, onChannel: 0)
        let out = s.renderSeconds(seconds)
        return Measure.db(Measure.rms(out.left[out.frame(seconds / 2)...]))
    }

    @Test func instrumentModulatorReplacesTheDefault() throws {
        // Same source/destination/amount-source/transform as the CC7 default, amount 480:
        // CC7 = 64 now costs half as much (5.95 dB instead of 11.9).
        let cc7 = Modulator(source: .cc(7, isDecreasing: true, curve: .concave), destination: .initialAttenuation, amount: 480)
        let base = try rms(TestBank.sine()) { $0.sendController(7, withValue: 127, onChannel: 0) }
        let half = try rms(TestBank.sine(modulators: [cc7])) { $0.sendController(7, withValue: 64, onChannel: 0) }
        #expect(abs((base - half) - 5.95) < 0.1)
    }

    @Test func amountZeroCancelsADefault() throws {
        let noVelocity = Modulator(source: .init(.noteOnVelocity, isDecreasing: true, curve: .concave),
                                   destination: .initialAttenuation, amount: 0)
        let a = try rms(TestBank.sine(modulators: [noVelocity]), velocity: 127)
        let b = try rms(TestBank.sine(modulators: [noVelocity]), velocity: 30)
        #expect(abs(a - b) < 0.01)
    }

    @Test func presetModulatorsAddToIdenticalOnes() throws {
        // Instrument: CC1 → +60 cB; preset: the same modulator +30 → CC1 = 127 (127/128) adds
        // 89.3 cB = 8.93 dB (modulator output is never scaled by the 0.4 attenuation factor).
        let m = Modulator(source: .cc(1), destination: .initialAttenuation, amount: 60)
        let p = Modulator(source: .cc(1), destination: .initialAttenuation, amount: 30)
        let off = try rms(TestBank.sine(modulators: [m], presetModulators: [p]))
        let on = try rms(TestBank.sine(modulators: [m], presetModulators: [p])) { $0.sendController(1, withValue: 127, onChannel: 0) }
        #expect(abs((off - on) - 9 * 127 / 128) < 0.02)
    }

    @Test func customCCToFilterCutoffMovesTheFilter() throws {
        // CC74 → −4800 cents of cutoff from 8000 cents (~830 Hz): key 93 (1760 Hz) gets much quieter.
        let m = Modulator(source: .cc(74), destination: .initialFilterFc, amount: -4800)
        let bank = TestBank.sine(generators: [Generator(.initialFilterFc, 9500)], modulators: [m])
        let open = try rms(bank, key: 93)
        let closed = try rms(bank, key: 93) { $0.sendController(74, withValue: 127, onChannel: 0) }
        #expect(open - closed > 20)
    }

    @Test func absoluteTransformAndBipolarSources() throws {
        // Pitch wheel (bipolar) → attenuation 200 cB with the absolute transform: bending either
        // way lowers the level by the same amount.
        let m = Modulator(source: .init(.pitchWheel, isBipolar: true), destination: .initialAttenuation,
                          amount: 200, transform: 2)
        let noBend = Modulator(source: .init(.pitchWheel, isBipolar: true), destination: 59, amount: 0,
                               amountSource: .init(.pitchWheelSensitivity))
        let bank = TestBank.sine(modulators: [m, noBend])
        let centre = try rms(bank)
        let up = try rms(bank) { $0.sendPitchBend(16383, onChannel: 0) }
        let down = try rms(bank) { $0.sendPitchBend(0, onChannel: 0) }
        #expect(abs((centre - up) - 20) < 0.1)
        #expect(abs((centre - down) - 20) < 0.1)
    }

    @Test func velocityToFilterFollowsTheConfiguredMode() throws {
        let bank = TestBank.sine(generators: [Generator(.initialFilterFc, 9000)])
        var spec = SynthesizerConfiguration()
        spec.velocityToFilter = .specification
        // FluidSynth mode: velocity does not move the cutoff, so vel 40 vs 127 differs only by
        // the velocity → attenuation curve (40·log10(127/40) = 20.07 dB).
        let f127 = try rms(bank, key: 93, velocity: 127), f40 = try rms(bank, key: 93, velocity: 40)
        #expect(abs((f127 - f40) - 20.07) < 0.1)
        // Spec mode: vel 40 also lowers the cutoff by 2400 × (1 − 40/127) cents: quieter still.
        let s127 = try rms(bank, key: 93, velocity: 127, config: spec), s40 = try rms(bank, key: 93, velocity: 40, config: spec)
        #expect((s127 - s40) - 20.07 > 3)
    }

    @Test func channelPressureDrivesVibrato() throws {
        // Default modulator: channel pressure → vibrato depth 50 cents. With a 6 Hz vibrato LFO
        // the pitch swings by ±50 cents at full pressure.
        let bank = TestBank.sine(generators: [Generator(.freqVibLFO, Int16(1200 * log2(6 / 8.176)))])
        func spread(_ pressure: UInt8) throws -> Double {
            let s = try Synthesizer(soundBank: bank)
            s.sendPressure(pressure, onChannel: 0)
            s.startNote(69, withVelocity: 127, onChannel: 0)
            let out = s.renderSeconds(1.2)
            var freqs: [Double] = []
            var t = 0.2
            while t < 1.1 {
                freqs.append(Measure.frequency(out.left[out.frame(t)..<out.frame(t + 0.02)], rate: 44100))
                t += 0.01
            }
            return Measure.cents(freqs.max()!, 440) - Measure.cents(freqs.min()!, 440)
        }
        #expect(try spread(0) < 2)
        #expect(abs(try spread(127) - 100) < 12)
    }

    @Test func modulationEnvelopeToPitch() throws {
        // Mod env: instant attack, hold 0.25 s at +1200 cents, then decay to 0 sustain over 0.5 s.
        let bank = TestBank.sine(generators: [Generator(.modEnvToPitch, 1200), Generator(.attackModEnv, -32768),
                                              Generator(.holdModEnv, -2400), Generator(.decayModEnv, -1200),
                                              Generator(.sustainModEnv, 1000)])
        let s = try Synthesizer(soundBank: bank)
        s.startNote(69, withVelocity: 127, onChannel: 0)
        let out = s.renderSeconds(1.2)
        let early = Measure.frequency(out.left[out.frame(0.05)..<out.frame(0.2)], rate: 44100)
        let late = Measure.frequency(out.left[out.frame(0.9)..<out.frame(1.1)], rate: 44100)
        #expect(abs(Measure.cents(early, 880)) < 2)
        #expect(abs(Measure.cents(late, 440)) < 2)
    }

    @Test func sf2NRPNOffsetsAGenerator() throws {
        // NRPN 120/52 (fineTune) data +50 cents: 8192 + 50 = 8242 → MSB 64, LSB 50.
        let s = try Synthesizer(soundBank: TestBank.sine())
        s.sendController(99, withValue: 120, onChannel: 0)
        s.sendController(98, withValue: 52, onChannel: 0)
        s.sendController(38, withValue: 50, onChannel: 0)
        s.sendController(6, withValue: 64, onChannel: 0)
        s.startNote(69, withVelocity: 127, onChannel: 0)
        let out = s.renderSeconds(0.5)
        let f = Measure.frequency(out.left[out.frame(0.1)...], rate: 44100)
        #expect(abs(Measure.cents(f, 440) - 50) < 1)
    }

    @Test func polyPressureReachesOnlyItsKey() throws {
        let m = Modulator(source: .init(.polyPressure), destination: .initialAttenuation, amount: 200)
        let bank = TestBank.sine(modulators: [m])
        let s = try Synthesizer(soundBank: bank)
        s.startNote(69, withVelocity: 127, onChannel: 0)
        s.startNote(81, withVelocity: 127, onChannel: 0)
        s.sendPressure(forKey: 81, withValue: 127, onChannel: 0)
        let out = s.renderSeconds(0.5)
        // Separate the two by their frequency: 440 Hz keeps its level, 880 Hz lost 20 dB.
        func level(at f: Double) -> Double {
            let x = out.left[out.frame(0.2)...]
            var re = 0.0, im = 0.0
            for (i, v) in x.enumerated() {
                let ph = 2 * Double.pi * f * Double(i) / 44100
                re += Double(v) * cos(ph); im += Double(v) * sin(ph)
            }
            return Measure.db((re * re + im * im).squareRoot() / Double(x.count))
        }
        #expect(abs((level(at: 440) - level(at: 880)) - 20) < 0.3)
    }
}

@Suite("Channel modes and system messages")
struct ChannelModeTests {
    @Test func monoModeReplacesTheSoundingNote() throws {
        let bank = TestBank.sine(generators: [Generator(.releaseVolEnv, -2400)])
        let s = try Synthesizer(soundBank: bank)
        s.sendController(126, withValue: 1, onChannel: 0)
        s.startNote(60, withVelocity: 127, onChannel: 0)
        s.startNote(67, withVelocity: 127, onChannel: 0, atFrame: 4410)
        let out = s.renderSeconds(0.8)
        #expect(s.activeVoiceCount == 1)
        let f = Measure.frequency(out.left[out.frame(0.5)...], rate: 44100)
        #expect(abs(Measure.cents(f, Measure.midiFrequency(67))) < 1)
    }

    @Test func portamentoGlidesBetweenNotes() throws {
        // Portamento on, time 200 ms (CC5 = 1, CC37 = 72 → 200): starts at key 60, ends at 72.
        let s = try Synthesizer(soundBank: TestBank.sine())
        s.sendController(65, withValue: 127, onChannel: 0)
        s.sendController(5, withValue: 1, onChannel: 0)
        s.sendController(37, withValue: 72, onChannel: 0)
        s.startNote(60, withVelocity: 127, onChannel: 0)
        s.stopNote(60, onChannel: 0, atFrame: 4410)
        s.startNote(72, withVelocity: 127, onChannel: 0, atFrame: 4410)
        let out = s.renderSeconds(0.8)
        let start = Measure.frequency(out.left[out.frame(0.105)..<out.frame(0.125)], rate: 44100)
        let mid = Measure.frequency(out.left[out.frame(0.19)..<out.frame(0.21)], rate: 44100)
        let end = Measure.frequency(out.left[out.frame(0.5)...], rate: 44100)
        #expect(Measure.cents(start, Measure.midiFrequency(72)) < -900)
        #expect(abs(Measure.cents(mid, Measure.midiFrequency(72)) + 600) < 120)
        #expect(abs(Measure.cents(end, Measure.midiFrequency(72))) < 1)
    }

    @Test func masterVolumeSysEx() throws {
        func level(_ sysex: [UInt8]?) throws -> Double {
            let s = try Synthesizer(soundBank: TestBank.sine())
            if let sysex { s.sendMIDISysExEvent(sysex) }
            s.startNote(69, withVelocity: 127, onChannel: 0)
            let out = s.renderSeconds(0.3)
            return Measure.db(Measure.rms(out.left[out.frame(0.1)...]))
        }
        // Half of full scale: 8192 = LSB 0, MSB 64.
        let half = try level([0xF0, 0x7F, 0x7F, 0x04, 0x01, 0x00, 0x40, 0xF7])
        #expect(abs((try level(nil) - half) - 6.02) < 0.05)
    }

    @Test func gmResetRestoresControllersAndGSDrumPartMakesAPercussionChannel() throws {
        let melodic = TestBank.sine(bank: 0, program: 0)
        let s = try Synthesizer(soundBank: melodic)
        s.sendController(7, withValue: 0, onChannel: 0)
        s.sendMIDISysExEvent([0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7])
        s.startNote(69, withVelocity: 127, onChannel: 0)
        let out = s.renderSeconds(0.3)
        #expect(Measure.rms(out.left[out.frame(0.1)...]) > 0.01)
        // GS: part 2 (channel 2 → index 1) becomes a rhythm part: it now looks for bank 128.
        let drums = TestBank.sine(bank: 128, program: 0)
        let t = try Synthesizer(soundBank: drums)
        t.sendMIDISysExEvent([0xF0, 0x41, 0x10, 0x42, 0x12, 0x40, 0x12, 0x15, 0x01, 0x18, 0xF7])
        t.startNote(69, withVelocity: 127, onChannel: 1)
        _ = t.renderSeconds(0.1)
        #expect(t.activeVoiceCount == 1)
    }

    @Test func allSoundOffAndResetControllers() throws {
        let s = try Synthesizer(soundBank: TestBank.sine(generators: [Generator(.releaseVolEnv, 1200)]))
        s.startNote(69, withVelocity: 127, onChannel: 0)
        s.sendController(64, withValue: 127, onChannel: 0)
        s.stopNote(69, onChannel: 0)
        _ = s.renderSeconds(0.1)
        #expect(s.activeVoiceCount == 1)
        s.sendController(120, withValue: 0, onChannel: 0)
        _ = s.renderSeconds(0.01)
        #expect(s.activeVoiceCount == 0)
    }
}

@Suite("Interpolation and sample formats")
struct InterpolationTests {
    /// Worst error (dB relative to full scale) of a kernel reconstructing a sine between its
    /// points, with `pointsPerPeriod` points per cycle (24-bit points, so quantisation is far below).
    func interpolationError<K: InterpolationKernel>(_ kernel: K.Type, pointsPerPeriod: Double) -> Double {
        var words: [Int16] = [], low: [UInt8] = []
        for i in 0..<256 {
            let v = Int32((0.9 * 8_388_607 * sin(2 * Double.pi * Double(i) / pointsPerPeriod)).rounded())
            words.append(Int16(truncatingIfNeeded: v >> 8))
            low.append(UInt8(truncatingIfNeeded: v))
        }
        let tables = InterpolationTables.shared
        var worst = 0.0
        words.withUnsafeBufferPointer { w in
            low.withUnsafeBufferPointer { l in
                let source = Int24Samples(words: w.baseAddress!, low: l.baseAddress!)
                for idx in 10..<200 {
                    for frac in stride(from: 0, to: 256, by: 7) {
                        let x = Double(idx) + Double(frac) / 256
                        let exact = 0.9 * sin(2 * Double.pi * x / pointsPerPeriod)
                        let v = Double(K.interpolate(source, idx, frac, tables) * Int24Samples.scale)
                        worst = max(worst, abs(v - exact))
                    }
                }
            }
        }
        return Measure.db(worst)
    }

    @Test func sincIsCleanerThanCubicIsCleanerThanLinear() throws {
        // A sine at a quarter of the sample rate: 4 points per period (a note transposed far up).
        for ppp in [4.0, 8.0] {
            let linear = interpolationError(LinearKernel.self, pointsPerPeriod: ppp)
            let cubic = interpolationError(CubicKernel.self, pointsPerPeriod: ppp)
            let sinc = interpolationError(SincKernel.self, pointsPerPeriod: ppp)
            #expect(cubic < linear - 6, "\(ppp) points: linear \(linear) dB, cubic \(cubic) dB")
            #expect(sinc < cubic - 6, "\(ppp) points: cubic \(cubic) dB, sinc \(sinc) dB")
        }
    }

    @Test func twentyFourBitSamplesUseTheLowByte() throws {
        // A 24-bit sine whose high words alone would be 256× quieter: only the sm24 bytes carry it.
        var words: [Int16] = [], low: [UInt8] = []
        for i in 0..<4400 {
            let v = Int32((0.001 * 8_388_607 * sin(2 * Double.pi * Double(i) / 100)).rounded())
            words.append(Int16(truncatingIfNeeded: v >> 8))
            low.append(UInt8(truncatingIfNeeded: v))
        }
        let bank = SoundFont.singleSample(words, lowBytes: low, sampleRate: 44_100, originalPitch: 69, loop: 100..<4400)
        let s = try Synthesizer(soundBank: bank)
        s.sendController(7, withValue: 127, onChannel: 0)
        s.startNote(69, withVelocity: 127, onChannel: 0)
        let out = s.renderSeconds(0.3)
        let expected = 0.001 / 2.0.squareRoot() * 0.2 * Double(SynthesizerConfiguration.fluidSynthLevelFactor) * cos(Double.pi / 4)
        #expect(abs(Measure.db(Measure.rms(out.left[out.frame(0.1)...])) - Measure.db(expected)) < 0.1)
    }
}
