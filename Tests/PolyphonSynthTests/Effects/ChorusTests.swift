import Foundation
import Testing
@testable import PolyphonSynth

/// The chorus measured in sound: level, modulation rate and depth, stereo, robustness.
@Suite struct ChorusTests {
    let rate = 44100.0

    /// The delay (in samples) of a single-voice chorus over time, read from the phase of a
    /// 500 Hz sine through it: each 10 ms window (exactly 5 cycles) is demodulated against the
    /// input's sine and cosine, the phase lag unwrapped and turned into samples.
    func trackedDelay(_ settings: ChorusSettings, seconds: Double, sampleRate: Double = 44100) -> (times: [Double], delays: [Double]) {
        let rate = sampleRate
        let frequency = 500.0, window = Int(5 * rate / frequency)
        let frames = Int(seconds * rate)
        let input = EffectTestSignals.sine(frames, frequency: frequency, sampleRate: rate)
        let out = SignalAnalysis.render(Chorus(sampleRate: rate, settings: settings), input: input, frames: frames)
        let omega = 2 * Double.pi * frequency / rate
        var times: [Double] = [], delays: [Double] = []
        var previous = 0.0, turns = 0.0
        for start in stride(from: 0, to: frames - window, by: window) {
            var i = 0.0, q = 0.0
            for n in start..<(start + window) {
                i += Double(out.left[n]) * cos(omega * Double(n))
                q += Double(out.left[n]) * sin(omega * Double(n))
            }
            var lag = atan2(-i, q)   // ω·delay, modulo 2π
            if !delays.isEmpty {
                if lag + 2 * .pi * turns - previous > .pi { turns -= 1 }
                if lag + 2 * .pi * turns - previous < -.pi { turns += 1 }
            }
            lag += 2 * .pi * turns
            previous = lag
            times.append((Double(start) + Double(window) / 2) / rate)
            delays.append(lag / omega)
        }
        return (times, delays)
    }

    /// Mean time between upward crossings of the middle of the delay's range.
    func period(times: [Double], delays: [Double]) -> Double {
        let middle = (delays.max()! + delays.min()!) / 2
        var crossings: [Double] = []
        for k in 1..<delays.count where delays[k - 1] < middle && delays[k] >= middle {
            let f = (middle - delays[k - 1]) / (delays[k] - delays[k - 1])
            crossings.append(times[k - 1] + f * (times[k] - times[k - 1]))
        }
        guard crossings.count >= 2 else { return .nan }
        return (crossings.last! - crossings.first!) / Double(crossings.count - 1)
    }

    @Test(arguments: [(0.3, 8.0), (1.0, 8.0), (5.0, 2.0), (0.5, 20.0)])
    func modulationPeriodAndDepthMatchSettings(_ speed: Double, _ depth: Double) {
        let settings = ChorusSettings(voiceCount: 1, speed: speed, depth: depth)
        let track = trackedDelay(settings, seconds: max(2.0, 2.4 / speed))
        let measured = period(times: track.times, delays: track.delays)
        #expect(abs(measured * speed - 1) < 0.02, "period \(measured) s at \(speed) Hz")
        let swing = (track.delays.max()! - track.delays.min()!) / rate * 1000
        #expect(abs(swing / depth - 1) < 0.02, "delay swing \(swing) ms for depth \(depth) ms")
    }

    /// Depth and speed are in milliseconds and hertz at every sample rate.
    @Test(arguments: [22050.0, 48000.0, 96000.0])
    func sweepIsIndependentOfSampleRate(_ sampleRate: Double) {
        let track = trackedDelay(ChorusSettings(voiceCount: 1, speed: 1, depth: 8), seconds: 2.4, sampleRate: sampleRate)
        let swing = (track.delays.max()! - track.delays.min()!) / sampleRate * 1000
        #expect(abs(swing / 8 - 1) < 0.02, "\(sampleRate) Hz: swing \(swing) ms")
        let measured = period(times: track.times, delays: track.delays)
        #expect(abs(measured - 1) < 0.02, "\(sampleRate) Hz: period \(measured) s")
    }

    /// A sine sweep spends more time near its ends than a triangle: mean |deviation| over half
    /// the swing is 2/π ≈ 0.637 for a sine and exactly 0.5 for a triangle.
    @Test func waveformShapesTheSweep() {
        for (shape, expected) in [(ChorusSettings.Waveform.sine, 2 / Double.pi), (.triangle, 0.5)] {
            let track = trackedDelay(ChorusSettings(voiceCount: 1, speed: 1, depth: 8, waveform: shape), seconds: 3)
            let middle = (track.delays.max()! + track.delays.min()!) / 2
            let half = (track.delays.max()! - track.delays.min()!) / 2
            let mean = track.delays.map { abs($0 - middle) }.reduce(0, +) / Double(track.delays.count)
            #expect(abs(mean / half - expected) < 0.03, "\(shape): \(mean / half)")
            let measured = period(times: track.times, delays: track.delays)
            #expect(abs(measured - 1) < 0.02, "\(shape) period \(measured) s")
        }
    }

    @Test(arguments: FluidSynthReference.chorus.indices)
    func levelMatchesFluidSynth(_ index: Int) {
        let reference = FluidSynthReference.chorus[index]
        let noise = EffectTestSignals.noise(Int(2 * rate))
        let chorus = Chorus(sampleRate: rate, settings: ChorusSettings(voiceCount: reference.voices, level: reference.level))
        let out = SignalAnalysis.render(chorus, input: noise, frames: Int(2.1 * rate))
        let gain = SignalAnalysis.gainDB(out, inputEnergy: SignalAnalysis.energy(noise))
        #expect(abs(gain - reference.gainDB) < 0.5, "\(reference.voices) voices: \(gain) dB vs FluidSynth \(reference.gainDB) dB")
        // Both sides equally loud, as FluidSynth.
        let sides = 10 * log10(SignalAnalysis.energy(out.left) / SignalAnalysis.energy(out.right))
        #expect(abs(sides) < 0.3, "left/right imbalance \(sides) dB")
    }

    @Test func voicesAreSpreadAcrossTheStereoField() {
        let noise = EffectTestSignals.noise(Int(rate))
        let two = SignalAnalysis.render(Chorus(sampleRate: rate, settings: ChorusSettings(voiceCount: 2)), input: noise, frames: Int(rate))
        #expect(SignalAnalysis.correlation(two) < -0.9, "two voices on opposite sides, FluidSynth's width 10")
        let none = SignalAnalysis.render(Chorus(sampleRate: rate, settings: ChorusSettings(voiceCount: 0)), input: noise, frames: Int(rate))
        #expect(none.left.allSatisfy { $0 == 0 } && none.right.allSatisfy { $0 == 0 })
    }

    @Test func silenceBecomesExactZeroOnceTheLongestDelayHasPassed() {
        let chorus = Chorus(sampleRate: rate)
        let out = SignalAnalysis.render(chorus, input: EffectTestSignals.noise(Int(rate)), frames: Int(2 * rate))
        let lastNonZero = max(out.left.lastIndex { $0 != 0 } ?? 0, out.right.lastIndex { $0 != 0 } ?? 0)
        let longest = 8.0 / 1000 * rate + 4
        #expect(Double(lastNonZero) < rate + longest, "output non-zero \(lastNonZero - Int(rate)) samples after the input stopped")
        #expect(!out.left.contains(where: EffectTestSignals.isSubnormal))
    }

    @Test func neverProducesNaNOrInfinity() {
        var input = EffectTestSignals.noise(Int(rate), amplitude: 4)
        input[100] = .nan
        input[200] = .infinity
        input[300] = Float.leastNonzeroMagnitude
        for settings in [
            ChorusSettings(voiceCount: 99, level: 10, speed: 5, depth: 256, waveform: .triangle),
            ChorusSettings(voiceCount: -4, level: .nan, speed: .infinity, depth: .nan),
            ChorusSettings(voiceCount: 1000, level: 1e9, speed: 0, depth: 1e6),
        ] {
            let out = SignalAnalysis.render(Chorus(sampleRate: rate, settings: settings), input: input, frames: Int(1.5 * rate))
            #expect(out.left.allSatisfy(\.isFinite) && out.right.allSatisfy(\.isFinite), "\(settings)")
        }
    }

    @Test(arguments: [ChorusSettings.Waveform.sine, .triangle])
    func outputDoesNotDependOnBlockSize(_ shape: ChorusSettings.Waveform) {
        let input = EffectTestSignals.noise(30000)
        let settings = ChorusSettings(voiceCount: 4, level: 2, speed: 3, depth: 12, waveform: shape)
        let reference = SignalAnalysis.render(Chorus(sampleRate: rate, settings: settings), input: input, frames: 30000, blockSize: 4096)
        for block in [1, 37, 64] {
            let out = SignalAnalysis.render(Chorus(sampleRate: rate, settings: settings), input: input, frames: 30000, blockSize: block)
            #expect(out.left == reference.left && out.right == reference.right, "block size \(block)")
        }
    }

    @Test func resetClearsTheDelayLine() {
        let chorus = Chorus(sampleRate: rate)
        _ = SignalAnalysis.render(chorus, input: EffectTestSignals.noise(5000), frames: 5000)
        chorus.reset()
        let out = SignalAnalysis.render(chorus, input: [], frames: 2048)
        #expect(out.left.allSatisfy { $0 == 0 } && out.right.allSatisfy { $0 == 0 })
    }

    @Test func gsMacrosAreInRange() {
        for type in 0...7 {
            let s = ChorusSettings.gs(type: type)
            #expect(s == s.clamped, "GS type \(type)")
        }
        #expect(ChorusSettings.gs(type: -1) == ChorusSettings.gs(type: 2))
        #expect(ChorusSettings.gs(type: 2) == ChorusSettings(voiceCount: 3, level: 2.0, speed: 0.4, depth: 8))
    }
}
