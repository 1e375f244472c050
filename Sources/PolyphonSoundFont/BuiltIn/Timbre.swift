/// A recipe for the samples of one sound, rendered once per root key and shared by every
/// program that uses it (a family shares a base sample, its programs differ in envelopes,
/// filters and layering, as in real GM banks).
struct Timbre: Sendable {
    /// How the points are made.
    enum Source: Sendable {
        /// A periodic spectrum rendered by inverse FFT, with an optional attack played once.
        case spectral(SpectralRecipe)
        /// A Karplus-Strong plucked string, its decayed tail looped.
        case plucked(PluckRecipe)
        /// Two-operator FM whose index decays during the attack and then loops.
        case frequencyModulation(FMRecipe)
        /// A one-shot or special loop written directly in the time domain.
        case custom(@Sendable (_ frequency: Double, _ seed: UInt64) -> GeneratedSample)
    }

    var source: Source
    /// Nominal keys one sample each is made for; zones split halfway between them.
    var roots: [Int]
    /// Two decorrelated samples per root (left and right), for wide ensembles and pads.
    var stereo = false

    /// Renders the samples for every root: `[root index][channel]`.
    func render(seed: UInt64, transforms: [Int: FourierTransform]) -> [[GeneratedSample]] {
        roots.enumerated().map { i, root in
            let f = PortableMath.frequency(ofKey: Double(root))
            return (0..<(stereo ? 2 : 1)).map { channel in
                let s = seed &+ UInt64(i * 2 + channel) &* 0x1000_0000_1B3
                switch source {
                case .spectral(let r): return r.render(frequency: f, seed: s, transforms: transforms)
                case .plucked(let r): return r.render(frequency: f, seed: s)
                case .frequencyModulation(let r): return r.render(frequency: f)
                case .custom(let make): return make(f, s)
                }
            }
        }
    }
}

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

    func render(frequency: Double, seed: UInt64, transforms: [Int: FourierTransform]) -> GeneratedSample {
        let length = loopLength
        let fft = transforms[length] ?? FourierTransform(size: length)
        let f0 = SpectralSynthesis.binFrequency(near: frequency, length: length, multiple: partials == nil ? 1 : 2)
        let tone = components(f0: f0, amplitude: harmonics)
        // The tone and its noise bands come out of one inverse FFT (real and imaginary parts).
        let bands = noise.map { SpectralComponent(frequency: $0.centre, amplitude: $0.level, bandwidth: $0.width) }
        var (main, noiseTable) = SpectralSynthesis.tables(tone, seed: seed, bands.isEmpty ? nil : bands, seed: seed &+ 77,
                                                          length: length, transform: fft)
        if !noise.isEmpty {
            // Beside a tone, band levels are relative to the tone's RMS.
            let wanted = (noise.reduce(0) { $0 + $1.level * $1.level }).squareRoot() * (tone.isEmpty ? 0.3 : Self.rms(main))
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
            // Bright partials (same phases as the tone, so they add coherently) and the noise
            // burst share one inverse FFT.
            let burstBand = [SpectralComponent(frequency: attack.noiseCentre, amplitude: 1, bandwidth: attack.noiseWidth)]
            let (brightTable, burstTable) = SpectralSynthesis.tables(
                components(f0: f0, amplitude: attack.brightness ?? { _, _ in 0 }), seed: seed,
                attack.noiseLevel > 0 ? burstBand : nil, seed: seed &+ 991, length: length, transform: fft)
            let bright = attack.brightness == nil ? nil : brightTable
            let burst = attack.noiseLevel > 0 ? SpectralSynthesis.normalized(burstTable) : nil
            let mainPeak = max(main.reduce(0) { max($0, abs($1)) }, 1e-12)
            let brightGain = bright.map { b in mainPeak / max(b.reduce(0) { max($0, abs($1)) }, 1e-12) * attack.brightLevel } ?? 0
            // Exponential decays by recursion (one multiply per point instead of an exp).
            let brightStep = PortableMath.exp(-1 / (attack.brightDecay * GeneratedSample.rate))
            let noiseStep = PortableMath.exp(-1 / (attack.noiseDecay * GeneratedSample.rate))
            var brightLevel = brightGain, noiseLevel = mainPeak * attack.noiseLevel
            for n in 0..<attackCount {
                // A raised-cosine fade makes both transients exactly zero where the loop starts.
                let fade = 0.5 + 0.5 * SineTable.value(cycles: 0.25 + 0.5 * Double(n) / Double(attackCount))
                if let bright { points[n] += bright[n % length] * brightLevel * fade }
                if let burst { points[n] += burst[n % length] * noiseLevel * fade }
                brightLevel *= brightStep
                noiseLevel *= noiseStep
            }
        }
        var sample = GeneratedSample(points: points, loop: attackCount..<attackCount + length, frequency: f0)
        if let tremolo {
            let start = sample.loop!.lowerBound
            for n in sample.points.indices {
                let offset = ((n - start) % length + length) % length
                let phase = Double(offset * tremolo.cycles % length) / Double(length)
                sample.points[n] *= 1 - tremolo.depth * (0.5 + 0.5 * SineTable.value(cycles: phase + 0.25))
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

/// The part of a spectral tone that plays once: extra partials that die away (a hammer's or
/// mallet's brightness, a percussive organ's click) and a noise burst (hammer, chiff, breath).
struct AttackRecipe: Sendable {
    /// Seconds before the loop starts (rounded up to whole loop lengths).
    var duration = 0.4
    /// Amplitudes of the extra partials, like ``SpectralRecipe/harmonics``.
    var brightness: (@Sendable (_ h: Int, _ hz: Double) -> Double)? = nil
    /// Level of the extra partials relative to the tone's peak.
    var brightLevel = 1.0
    /// Time constant of their decay, seconds.
    var brightDecay = 0.1
    /// Level of the noise burst relative to the tone's peak (0 = none).
    var noiseLevel = 0.0
    /// Time constant of the burst, seconds.
    var noiseDecay = 0.01
    /// Centre and width of the burst's band, Hz.
    var noiseCentre = 3000.0
    var noiseWidth = 4000.0
}

/// A Karplus-Strong plucked string: a delay line of one period fed back through a loss filter.
struct PluckRecipe: Sendable {
    /// Brightness of the excitation, 0 (dark thumb) … 1 (bright pick).
    var brightness = 0.6
    /// How fast the high partials die: 0 (slow, bright) … 1 (fast, dull).
    var damping = 0.5
    /// Where the string is plucked, as a fraction of its length (a comb on the excitation).
    var pickPosition = 0.2
    /// Seconds rendered before the tail is looped.
    var duration = 0.9
    /// T60 of the string's own decay, seconds (the volume envelope shapes the rest).
    var decay = 5.0
    /// Soft-clipping drive (sitar buzz, slap).
    var drive = 0.0

    func render(frequency: Double, seed: UInt64) -> GeneratedSample {
        let period = max(8, Int((GeneratedSample.rate / frequency).rounded()))
        let count = max(Int(duration * GeneratedSample.rate), period * 24)
        var random = SeededRandom(seed: seed)
        // Excitation: one-pole low-passed noise, combed at the pick position.
        var excitation = [Double](repeating: 0, count: period)
        var lp = 0.0
        // Squared, so dull excitations (basses, thumbs) really are dull: cutoff ≈ a × 7 kHz.
        let a = 0.03 + 0.97 * brightness * brightness
        for i in 0..<period { lp += a * (random.bipolar() - lp); excitation[i] = lp }
        let pick = max(1, Int(pickPosition * Double(period)))
        let combed = (0..<period).map { excitation[$0] - excitation[($0 + period - pick) % period] }
        let mean = combed.reduce(0, +) / Double(period)
        let excitationPeak = max(combed.reduce(0) { max($0, abs($1 - mean)) }, 1e-12)
        var y = [Double](repeating: 0, count: count)
        // Soft-limit the excitation: noise peaks three or four times above its RMS, and the
        // sample is normalised to its first period's peak, so untamed peaks would leave the
        // string itself quiet. Limiting noise only reshapes noise.
        for i in 0..<period { y[i] = PortableMath.tanh(2.5 * (combed[i] - mean) / excitationPeak) }
        // Symmetric three-tap loss filter: zero phase, so the period stays exactly `period`.
        let centre = 1 - 0.5 * damping, side = (1 - centre) / 2
        let rho = PortableMath.exp(-6.907755 / (decay * GeneratedSample.rate / Double(period)))
        for n in period..<count {
            let before = n - period - 1 >= 0 ? y[n - period - 1] : y[n - 1]
            y[n] = rho * (centre * y[n - period] + side * (before + y[n - period + 1]))
        }
        if drive > 0 {
            let peak = y.reduce(0) { max($0, abs($1)) }
            y = y.map { PortableMath.tanh(drive * $0 / peak) }
        }
        // Loop a whole number of periods at the end, crossfaded so the join is seamless.
        let periods = max(2, 2048 / period)
        let loopLength = periods * period
        let end = count, start = end - loopLength
        let fade = min(loopLength / 2, start)
        var points = y
        for i in 0..<fade {
            let w = Double(i) / Double(fade)
            points[end - fade + i] = y[end - fade + i] * (1 - w) + y[start - fade + i] * w
        }
        points += points[start..<start + 8]
        return GeneratedSample(points: points, loop: start..<end, frequency: GeneratedSample.rate / Double(period))
    }
}

/// Two-operator FM (carrier and modulator at integer multiples of the loop's bin frequency) with
/// an index that falls from `indexStart` to `indexEnd`, plus an optional high "tine" partial.
struct FMRecipe: Sendable {
    var carrier = 1.0
    var modulator = 1.0
    var indexStart = 3.0
    var indexEnd = 0.5
    var indexDecay = 0.3
    var tine: (ratio: Double, level: Double, decay: Double)? = nil
    var attackSeconds = 0.6
    var length = 8192

    func render(frequency: Double) -> GeneratedSample {
        let f0 = SpectralSynthesis.binFrequency(near: frequency, length: length, multiple: 2)
        let bin = Int((f0 * Double(length) / GeneratedSample.rate).rounded())
        let cStep = Int((carrier * Double(bin)).rounded()), mStep = Int((modulator * Double(bin)).rounded())
        let tStep = tine.map { Int(($0.ratio * Double(bin)).rounded()) } ?? 0
        let attack = Int(attackSeconds * GeneratedSample.rate), total = attack + length + 8
        let indexStep = PortableMath.exp(-1 / (indexDecay * GeneratedSample.rate))
        let tineStep = tine.map { PortableMath.exp(-1 / ($0.decay * GeneratedSample.rate)) } ?? 0
        var indexDecayLevel = 1.0, tineLevel = tine?.level ?? 0
        var points = [Double](repeating: 0, count: total)
        for n in 0..<total {
            let fade = n < attack ? 0.5 + 0.5 * SineTable.value(cycles: 0.25 + 0.5 * Double(n) / Double(attack)) : 0
            let index = indexEnd + (indexStart - indexEnd) * indexDecayLevel * fade
            // Phases as exact fractions of the loop: every operator completes whole cycles in it.
            let pm = Double(mStep * n % length) / Double(length)
            let pc = Double(cStep * n % length) / Double(length)
            var v = SineTable.value(cycles: pc + index / PortableMath.twoPi * SineTable.value(cycles: pm))
            if tine != nil, n < attack {
                let pt = Double(tStep * n % length) / Double(length)
                v += tineLevel * fade * SineTable.value(cycles: pt)
                tineLevel *= tineStep
            }
            indexDecayLevel *= indexStep
            points[n] = v
        }
        return GeneratedSample(points: points, loop: attack..<attack + length, frequency: f0)
    }
}
