import PolyphonMath
import PolyphonSoundFont

/// A periodic tone designed in the frequency domain.
struct SpectralRecipe: Sendable {
    /// Amplitude of harmonic `h` (1 = fundamental) sounding at `hz`; formants are functions of `hz`.
    var harmonics: @Sendable (_ h: Int, _ hz: Double) -> Double = { h, _ in 1 / Double(h) }
    /// Explicit partials as (ratio to the fundamental, amplitude); replaces `harmonics` (bells, bars).
    var partials: [(ratio: Double, amplitude: Double)]? = nil
    /// Piano-string inharmonicity B: partial h sounds at h·f·√(1 + B·h²).
    var stretch = 0.0
    /// Width of each partial in cents at the fundamental (PADsynth ensemble width); 0 = pure.
    var bandwidthCents = 0.0
    /// How the width grows with the partial number (1 = proportional to frequency).
    var bandwidthGrowth = 1.0
    /// Noise bands (centre Hz, width Hz, level relative to the tone's RMS): breath, bow, air.
    var noise: [(centre: Double, width: Double, level: Double)] = []
    /// Soft-clipping drive (0 = clean): overdriven guitars, rock organ.
    var drive = 0.0
    /// Highest partial frequency; keeps transposition above the root free of aliasing.
    var ceiling = 11_000.0
    /// Loop length in points (power of two): longer loops hold wider, lusher spectra and make
    /// noise repeat less often. Nil picks 4096 for pure tones (whose partials fit in single
    /// bins anyway) and 8192 for anything with noise or width.
    var length: Int? = nil

    /// The loop length used.
    var loopLength: Int { length ?? (noise.isEmpty && bandwidthCents <= 2 ? 4096 : 8192) }
    /// What plays once before the loop.
    var attack: AttackRecipe? = nil
    /// Periodic amplitude modulation of the whole sample: (cycles per loop, depth 0…1).
    var tremolo: (cycles: Int, depth: Double)? = nil

    private func components(f0: Double, amplitude: (Int, Double) -> Double) -> [SpectralComponent] {
        var out: [SpectralComponent] = []
        let list: [(Double, Double)]
        if let partials {
            list = partials.enumerated().map { ($0.element.ratio, amplitude($0.offset + 1, $0.element.ratio * f0) * $0.element.amplitude) }
        } else {
            var l: [(Double, Double)] = []
            var h = 1
            while Double(h) * f0 < ceiling {
                let ratio = Double(h) * (1 + stretch * Double(h * h)).squareRoot()
                l.append((ratio, amplitude(h, Double(h) * f0)))
                h += 1
            }
            list = l
        }
        for (ratio, a) in list where ratio * f0 < ceiling {
            let width = bandwidthCents > 0
                ? (PortableMath.exp2(bandwidthCents / 1200) - 1) * f0 * PortableMath.exp(bandwidthGrowth * PortableMath.log(ratio))
                : 0
            out.append(SpectralComponent(frequency: ratio * f0, amplitude: a, bandwidth: width))
        }
        return out
    }

    /// Renders one sample per seed (one for mono, two for a left/right pair). Every inverse FFT
    /// carries two real tables: the tone and its noise for mono; the two channels' tones (then
    /// noises, brightness, bursts) for a pair.
    func render(frequency: Double, seeds: [UInt64], transforms: [Int: FourierTransform]) -> [GeneratedSample] {
        let length = loopLength
        let fft = transforms[length] ?? FourierTransform(size: length)
        let f0 = SpectralSynthesis.binFrequency(near: frequency, length: length, multiple: partials == nil ? 1 : 2)
        let tone = components(f0: f0, amplitude: harmonics)
        let bands = noise.map { SpectralComponent(frequency: $0.centre, amplitude: $0.level, bandwidth: $0.width) }
        func pair(_ a: [SpectralComponent]?, _ seedA: UInt64, _ b: [SpectralComponent]?, _ seedB: UInt64) -> ([Double]?, [Double]?) {
            guard a != nil || b != nil else { return (nil, nil) }
            let (x, y) = SpectralSynthesis.tables(a ?? [], seed: seedA, b, seed: seedB, length: length, transform: fft)
            return (a == nil ? nil : x, b == nil ? nil : y)
        }
        let noiseBands = bands.isEmpty ? nil : bands
        var mains: [[Double]] = [], noises: [[Double]?] = []
        if seeds.count == 2 {
            let (l, r) = pair(tone, seeds[0], tone, seeds[1])
            mains = [l!, r!]
            let (nl, nr) = pair(noiseBands, seeds[0] &+ 77, noiseBands, seeds[1] &+ 77)
            noises = [nl, nr]
        } else {
            let (m, n) = pair(tone, seeds[0], noiseBands, seeds[0] &+ 77)
            mains = [m!]
            noises = [n]
        }
        var brights: [[Double]?] = Array(repeating: nil, count: seeds.count)
        var bursts: [[Double]?] = Array(repeating: nil, count: seeds.count)
        if let attack {
            // Bright partials use the tone's seed, so their phases match the tone's bin by bin
            // and they add coherently.
            let bright = attack.brightness.map { components(f0: f0, amplitude: $0) }
            let burst = attack.noiseLevel > 0
                ? [SpectralComponent(frequency: attack.noiseCentre, amplitude: 1, bandwidth: attack.noiseWidth)] : nil
            if seeds.count == 2 {
                (brights[0], brights[1]) = pair(bright, seeds[0], bright, seeds[1])
                (bursts[0], bursts[1]) = pair(burst, seeds[0] &+ 991, burst, seeds[1] &+ 991)
            } else {
                (brights[0], bursts[0]) = pair(bright, seeds[0], burst, seeds[0] &+ 991)
            }
        }
        return seeds.indices.map { c in
            assemble(main: mains[c], noise: noises[c], bright: brights[c], burst: bursts[c].map(SpectralSynthesis.normalized),
                     toneIsEmpty: tone.isEmpty, f0: f0, length: length)
        }
    }

    /// One channel from its tables: tone plus noise looped, the attack's transients on top.
    private func assemble(main tone: [Double], noise noiseTable: [Double]?, bright: [Double]?, burst: [Double]?,
                          toneIsEmpty: Bool, f0: Double, length: Int) -> GeneratedSample {
        var main = tone
        if let noiseTable {
            // Beside a tone, band levels are relative to the tone's RMS.
            let wanted = (noise.reduce(0) { $0 + $1.level * $1.level }).squareRoot() * (toneIsEmpty ? 0.3 : Self.rms(main))
            let scale = wanted / max(Self.rms(noiseTable), 1e-12)
            for n in 0..<length { main[n] += noiseTable[n] * scale }
        }
        // The attack (played once) is the periodic tone plus transients that fade to exactly
        // zero where the loop starts; the loop is any L consecutive points after it, which the
        // tone's periodicity makes seamless wherever it begins.
        let attackCount = attack.map { Int($0.duration * GeneratedSample.rate) } ?? 8
        var points: [Double] = []
        points.reserveCapacity(attackCount + length + 8)
        while points.count < attackCount + length + 8 {
            points += main.prefix(attackCount + length + 8 - points.count)
        }
        if let attack {
            let mainPeak = max(main.reduce(0) { max($0, abs($1)) }, 1e-12)
            let brightGain = bright.map { b in mainPeak / max(b.reduce(0) { max($0, abs($1)) }, 1e-12) * attack.brightLevel } ?? 0
            // Exponential decays by recursion (one multiply per point instead of an exp).
            let brightStep = PortableMath.exp(-1 / (attack.brightDecay * GeneratedSample.rate))
            let noiseStep = PortableMath.exp(-1 / (attack.noiseDecay * GeneratedSample.rate))
            var brightLevel = brightGain, noiseLevel = mainPeak * attack.noiseLevel
            var j = 0 // n modulo the loop length, without a division per point
            for n in 0..<attackCount {
                // A raised-cosine fade makes both transients exactly zero where the loop starts.
                let fade = 0.5 + 0.5 * SineTable.value(cycles: 0.25 + 0.5 * Double(n) / Double(attackCount))
                if let bright { points[n] += bright[j] * brightLevel * fade }
                if let burst { points[n] += burst[j] * noiseLevel * fade }
                brightLevel *= brightStep
                noiseLevel *= noiseStep
                j += 1
                if j == length { j = 0 }
            }
        }
        var sample = GeneratedSample(points: points, loop: attackCount..<attackCount + length, frequency: f0)
        if let tremolo {
            // A gain curve of `cycles` periods per loop, computed once and indexed from the loop
            // start, so the modulation is as seamless as the loop.
            let gain = (0..<length).map { offset in
                1 - tremolo.depth * (0.5 + 0.5 * SineTable.value(cycles: Double(offset * tremolo.cycles % length) / Double(length) + 0.25))
            }
            var offset = ((-attackCount) % length + length) % length
            for n in sample.points.indices {
                sample.points[n] *= gain[offset]
                offset += 1
                if offset == length { offset = 0 }
            }
        }
        if drive > 0 {
            let peak = sample.peak
            sample.points = sample.points.map { PortableMath.tanh(drive * $0 / peak) }
        }
        return sample
    }

    static func rms(_ x: [Double]) -> Double {
        guard !x.isEmpty else { return 0 }
        return (x.reduce(0) { $0 + $1 * $1 } / Double(x.count)).squareRoot()
    }
}
