import Foundation
import Testing
@testable import PolyphonSynth

/// The reverb measured in sound: decay times, levels, stereo image, robustness.
@Suite struct ReverbTests {
    let rate = 44100.0

    func impulseResponse(_ settings: ReverbSettings, seconds: Double, sampleRate: Double = 44100) -> SignalAnalysis.Stereo {
        let reverb = Reverb(sampleRate: sampleRate, settings: settings)
        return SignalAnalysis.render(reverb, input: SignalAnalysis.impulse(1), frames: Int(seconds * sampleRate))
    }

    func rt60(_ settings: ReverbSettings, seconds: Double = 8) -> Double {
        SignalAnalysis.rt60(energy: SignalAnalysis.stereoEnergy(impulseResponse(settings, seconds: seconds)), sampleRate: rate)
    }

    /// Our impulse response against FluidSynth 2.3.1's, setting by setting (reference numbers
    /// in `FluidSynthReference`, produced by `Benchmarks/fx/fxprobe.py table`).
    @Test(arguments: FluidSynthReference.reverb)
    func matchesFluidSynth(_ reference: FluidSynthReference.ReverbRow) {
        let settings = ReverbSettings(roomSize: reference.room, damping: reference.damp)
        let out = impulseResponse(settings, seconds: max(8, 30 * reference.room))
        let energy = SignalAnalysis.stereoEnergy(out)
        let gain = SignalAnalysis.gainDB(out, inputEnergy: 1)
        let rt = SignalAnalysis.rt60(energy: energy, sampleRate: rate)
        #expect(abs(gain - reference.gainDB) < 0.5, "wet level \(gain) dB vs FluidSynth \(reference.gainDB) dB")
        #expect(abs(rt / reference.rt60 - 1) < 0.05, "RT60 \(rt) s vs FluidSynth \(reference.rt60) s")
        #expect(abs(SignalAnalysis.correlation(out) - reference.correlation) < 0.05)
        for (centre, fluidRT, fluidGain) in reference.bands {
            let band = SignalAnalysis.band(out, centre: centre, sampleRate: rate)
            #expect(abs(band.rt60 / fluidRT - 1) < 0.10, "\(centre) Hz RT60 \(band.rt60) s vs FluidSynth \(fluidRT) s")
            #expect(abs(band.gainDB - fluidGain) < 0.75, "\(centre) Hz gain \(band.gainDB) dB vs FluidSynth \(fluidGain) dB")
        }
    }

    @Test func decayTimeGrowsWithRoomSize() {
        let times = [0.0, 0.25, 0.5, 0.75].map { rt60(ReverbSettings(roomSize: $0), seconds: 12) }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 * 0.95 }, "RT60s \(times)")
        #expect(abs(times[0] - 0.7) < 0.05, "room 0 should decay in about 0.7 s, got \(times[0])")
        // The reported design decay time agrees with the measured one.
        let reverb = Reverb(sampleRate: rate, settings: ReverbSettings(roomSize: 0.5))
        #expect(abs(reverb.lowFrequencyDecayTime / times[2] - 1) < 0.05)
    }

    @Test func dampingShortensOnlyTheHighFrequencyDecay() {
        var low: [Double] = [], high: [Double] = []
        for damping in [0.0, 0.5, 1.0] {
            let out = impulseResponse(ReverbSettings(damping: damping), seconds: 6)
            low.append(SignalAnalysis.band(out, centre: 250, sampleRate: rate).rt60)
            high.append(SignalAnalysis.band(out, centre: 8000, sampleRate: rate).rt60)
        }
        #expect(abs(high[0] / low[0] - 1) < 0.15, "undamped: 8 kHz \(high[0]) s vs 250 Hz \(low[0]) s")
        #expect(high[1] < 0.75 * high[0] && high[2] < 0.6 * high[1], "8 kHz RT60s \(high)")
        #expect(low.allSatisfy { abs($0 / low[0] - 1) < 0.15 }, "250 Hz RT60s \(low)")
    }

    @Test func wetLevelScalesLinearlyWithLevel() {
        func gain(_ level: Double) -> Double {
            SignalAnalysis.gainDB(impulseResponse(ReverbSettings(level: level), seconds: 4), inputEnergy: 1)
        }
        let full = gain(0.9)
        #expect(abs(gain(0.45) - (full - 6.02)) < 0.05)
        #expect(abs(gain(0.09) - (full - 20)) < 0.05)
        let silent = impulseResponse(ReverbSettings(level: 0), seconds: 1)
        #expect(silent.left.allSatisfy { $0 == 0 } && silent.right.allSatisfy { $0 == 0 })
    }

    @Test func widthZeroIsMonoAndWiderIsLessCorrelated() {
        let mono = impulseResponse(ReverbSettings(width: 0), seconds: 2)
        #expect(mono.left == mono.right)
        #expect(SignalAnalysis.energy(mono.left) > 0)
        let correlations = [0.0, 0.5, 1.0, 2.0, 10.0].map {
            SignalAnalysis.correlation(impulseResponse(ReverbSettings(width: $0), seconds: 2))
        }
        #expect(abs(correlations[0] - 1) < 1e-9)
        #expect(zip(correlations, correlations.dropFirst()).allSatisfy { $0 > $1 + 0.05 }, "\(correlations)")
        #expect(abs(correlations[2]) < 0.1, "width 1 should give nearly uncorrelated sides")
    }

    @Test func widthMatchesFluidSynth() {
        for reference in FluidSynthReference.reverbWidth {
            let out = impulseResponse(ReverbSettings(width: reference.width), seconds: 4)
            #expect(abs(SignalAnalysis.gainDB(out, inputEnergy: 1) - reference.gainDB) < 0.5, "width \(reference.width)")
            #expect(abs(SignalAnalysis.correlation(out) - reference.correlation) < 0.05, "width \(reference.width)")
        }
    }

    /// Damping 1 puts the longest line's absorbent pole at 1 (a pure integrator) in
    /// FluidSynth's formula: the guard must still bring that line to exact zero.
    @Test(arguments: [ReverbSettings(), ReverbSettings(damping: 1), ReverbSettings(roomSize: 0, damping: 0.8)])
    func silenceDecaysToExactZeroWithoutDenormals(_ settings: ReverbSettings) {
        let reverb = Reverb(sampleRate: rate, settings: settings)
        let loud = EffectTestSignals.noise(Int(rate), amplitude: 1)
        let frames = Int(14 * rate)
        let out = SignalAnalysis.render(reverb, input: loud, frames: frames)
        // 1 s of full-scale noise, then silence: −400 dB takes about 6.5 s at RT60 ≈ 1 s.
        let lastNonZero = max(out.left.lastIndex { $0 != 0 } ?? 0, out.right.lastIndex { $0 != 0 } ?? 0)
        #expect(Double(lastNonZero) / rate < 10, "tail still non-zero at \(Double(lastNonZero) / rate) s")
        #expect(!out.left.contains(where: EffectTestSignals.isSubnormal))
        #expect(!out.right.contains(where: EffectTestSignals.isSubnormal))
        // And once silent it stays silent.
        let more = SignalAnalysis.render(reverb, input: [], frames: 4096)
        #expect(more.left.allSatisfy { $0 == 0 } && more.right.allSatisfy { $0 == 0 })
    }

    @Test func neverProducesNaNOrInfinity() {
        let extremes = [
            ReverbSettings(roomSize: 1, damping: 0, width: 100, level: 1),
            ReverbSettings(roomSize: .nan, damping: .infinity, width: -.infinity, level: .nan),
            ReverbSettings(roomSize: 7, damping: -3, width: 1e9, level: 50),
        ]
        var input = EffectTestSignals.noise(Int(rate), amplitude: 4)
        input[100] = .nan
        input[200] = .infinity
        input[300] = -.infinity
        input[400] = Float.leastNonzeroMagnitude
        for settings in extremes {
            let out = SignalAnalysis.render(Reverb(sampleRate: rate, settings: settings), input: input, frames: Int(3 * rate))
            #expect(out.left.allSatisfy(\.isFinite) && out.right.allSatisfy(\.isFinite), "\(settings)")
            #expect(SignalAnalysis.energy(out.left) > 0)
        }
    }

    @Test func outputDoesNotDependOnBlockSize() {
        let input = EffectTestSignals.noise(20000)
        let settings = ReverbSettings(roomSize: 0.6, damping: 0.4, width: 1, level: 0.9)
        let reference = SignalAnalysis.render(Reverb(sampleRate: rate, settings: settings), input: input, frames: 30000, blockSize: 4096)
        for block in [1, 37, 64] {
            let out = SignalAnalysis.render(Reverb(sampleRate: rate, settings: settings), input: input, frames: 30000, blockSize: block)
            #expect(out.left == reference.left && out.right == reference.right, "block size \(block)")
        }
    }

    /// A new room size applies to the tail already in the lines: it rings on at the new decay.
    @Test func settingsChangeBetweenBlocksReshapesTheRunningTail() {
        let reverb = Reverb(sampleRate: rate)
        _ = SignalAnalysis.render(reverb, input: EffectTestSignals.noise(Int(0.5 * rate)), frames: Int(0.5 * rate))
        reverb.settings.roomSize = 0.8
        let tail = SignalAnalysis.render(reverb, input: [], frames: Int(6 * rate))
        #expect(tail.left.allSatisfy(\.isFinite) && tail.right.allSatisfy(\.isFinite))
        let rt = SignalAnalysis.rt60(energy: SignalAnalysis.stereoEnergy(tail), sampleRate: rate)
        let expected = rt60(ReverbSettings(roomSize: 0.8), seconds: 12)
        #expect(abs(rt / expected - 1) < 0.1, "tail RT60 \(rt) s after the change, room 0.8 gives \(expected) s")
    }

    @Test func resetClearsTheTail() {
        let reverb = Reverb(sampleRate: rate)
        _ = SignalAnalysis.render(reverb, input: EffectTestSignals.noise(10000), frames: 10000)
        reverb.reset()
        let out = SignalAnalysis.render(reverb, input: [], frames: 8192)
        #expect(out.left.allSatisfy { $0 == 0 } && out.right.allSatisfy { $0 == 0 })
    }

    /// The reverb is defined in seconds, so 48 kHz and 96 kHz decay like 44.1 kHz (FluidSynth
    /// keeps its lengths in samples instead and so changes with the rate: we do not copy that).
    @Test(arguments: [48000.0, 96000.0])
    func decayIsIndependentOfSampleRate(_ sampleRate: Double) {
        let settings = ReverbSettings(roomSize: 0.5)
        let reference = rt60(settings, seconds: 6)
        let out = impulseResponse(settings, seconds: 6, sampleRate: sampleRate)
        let rt = SignalAnalysis.rt60(energy: SignalAnalysis.stereoEnergy(out), sampleRate: sampleRate)
        #expect(abs(rt / reference - 1) < 0.03, "\(sampleRate) Hz: \(rt) s vs \(reference) s")
        #expect(abs(SignalAnalysis.gainDB(out, inputEnergy: 1) - SignalAnalysis.gainDB(impulseResponse(settings, seconds: 6), inputEnergy: 1)) < 0.5)
    }

    @Test func gsMacrosOrderRoomsAndHallsByDecay() {
        let times = (0...4).map { rt60(ReverbSettings.gs(type: $0), seconds: 10) }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "Room 1…Hall 2 RT60s \(times)")
        for type in 0...7 {
            let s = ReverbSettings.gs(type: type)
            #expect(s == s.clamped, "GS type \(type) is in range")
        }
        #expect(ReverbSettings.gs(type: 99) == ReverbSettings.gs(type: 4))
    }
}
