import PolyphonSoundFont

/// The GM sound effects (programs 120–127) that are events in time rather than spectra:
/// written point by point, looped where a held note should go on (birds, ringing, applause).
enum EffectSynthesis {
    private static let rate = GeneratedSample.rate

    /// A finger sliding on a wound string: a short scrape whose band glides upward.
    @Sendable static func fretNoise(_ frequency: Double, _ seed: UInt64) -> GeneratedSample {
        var random = SeededRandom(seed: seed)
        let count = Int(0.6 * rate)
        var points = [Double](repeating: 0, count: count)
        var phase = 0.0
        for n in 0..<count {
            let t = Double(n) / rate
            let envelope = min(1, t / 0.02) * DecayTable.value(t / 0.16)
            // Winding ridges passing under the finger: a pulse train rising from 300 to 900 Hz.
            phase += (300 + 1200 * t) / rate
            let ridge = SineTable.value(cycles: phase)
            points[n] = envelope * (0.6 * random.bipolar() * (0.5 + 0.5 * ridge) + 0.4 * ridge * ridge * ridge)
        }
        var filter = Biquad(.bandPass, frequency: 2500, q: 0.8)
        points = points.map { filter.process($0) }
        return GeneratedSample(points: points, loop: nil, frequency: nil)
    }

    /// A chirp sweeping up an octave twice, then silence; the loop repeats the call.
    @Sendable static func birdTweet(_ frequency: Double, _ seed: UInt64) -> GeneratedSample {
        let count = 16384
        var points = [Double](repeating: 0, count: count)
        var phase = 0.0
        for n in 0..<count {
            let t = Double(n) / rate
            let local = t.truncatingRemainder(dividingBy: 0.09)
            let active = t < 0.18
            let f = frequency * (1 + local / 0.09) * (1 + 0.05 * SineTable.value(cycles: t * 40))
            phase += f / rate
            let envelope = active ? SineTable.value(cycles: 0.5 * local / 0.09) : 0
            points[n] = envelope * SineTable.value(cycles: phase)
        }
        return .looped(period: points, frequency: frequency)
    }

    /// A bell ringer alternating two tones about 16 times a second; every tone completes whole
    /// cycles in the loop, so it rings on seamlessly while held.
    @Sendable static func telephoneRing(_ frequency: Double, _ seed: UInt64) -> GeneratedSample {
        let length = 8192
        let f1 = SpectralSynthesis.binFrequency(near: frequency, length: length)
        let f2 = SpectralSynthesis.binFrequency(near: frequency * 1.25, length: length)
        let switches = 3.0
        var points = [Double](repeating: 0, count: length)
        for n in 0..<length {
            let t = Double(n) / rate
            let gate = SineTable.value(cycles: switches * Double(n) / Double(length))
            let a = 0.5 + 0.5 * max(-1, min(1, 4 * gate))
            points[n] = a * SineTable.value(cycles: f1 * t) + (1 - a) * SineTable.value(cycles: f2 * t)
        }
        return .looped(period: points, frequency: f1)
    }

    /// Many hands: short band-passed noise bursts at random points of a circular buffer, so the
    /// loop has no seam.
    @Sendable static func applause(_ frequency: Double, _ seed: UInt64) -> GeneratedSample {
        var random = SeededRandom(seed: seed)
        let length = 65536
        var points = [Double](repeating: 0, count: length)
        for _ in 0..<260 {
            let start = Int(random.unit() * Double(length))
            let gain = 0.4 + 0.6 * random.unit()
            var filter = Biquad(.bandPass, frequency: 800 + 1600 * random.unit(), q: 1.2)
            for i in 0..<Int(0.03 * rate) {
                let v = filter.process(random.bipolar()) * gain * DecayTable.value(Double(i) / (0.006 * rate))
                points[(start + i) % length] += v
            }
        }
        return .looped(period: points, frequency: nil)
    }

    /// A blast of noise with a low boom and a long rumbling tail.
    @Sendable static func gunshot(_ frequency: Double, _ seed: UInt64) -> GeneratedSample {
        var random = SeededRandom(seed: seed)
        let count = Int(1.2 * rate)
        var low = Biquad(.lowPass, frequency: 400, q: 0.7)
        var points = [Double](repeating: 0, count: count)
        for n in 0..<count {
            let t = Double(n) / rate
            let noise = random.bipolar()
            let crack = noise * DecayTable.value(t / 0.02)
            let rumble = low.process(noise) * 3 * DecayTable.value(t / 0.35)
            let boom = SineTable.value(cycles: 55 * t) * DecayTable.value(t / 0.12)
            points[n] = crack + rumble + 0.8 * boom
        }
        return GeneratedSample(points: points, loop: nil, frequency: nil)
    }
}
