import PolyphonSoundFont

/// One spectral component of a periodic tone: a frequency, an amplitude and a bandwidth.
///
/// With a bandwidth of zero the component is a single sinusoid; wider components spread over
/// neighbouring bins with a Gaussian profile and random phases (Paul Nasca's PADsynth), which
/// sounds like many slightly detuned players: strings, choirs, pads, breath.
struct SpectralComponent {
    var frequency: Double
    var amplitude: Double
    var bandwidth: Double = 0
}

/// Turns a list of components into one seamless loop by an inverse FFT: every bin completes a
/// whole number of cycles in the loop, so the last point runs straight into the first.
enum SpectralSynthesis {
    /// The frequency the loop can represent exactly that is nearest to `frequency`: a whole
    /// number of cycles (a multiple of `multiple`) in `length` points.
    static func binFrequency(near frequency: Double, length: Int, multiple: Int = 1) -> Double {
        let bin = max(1, (frequency * Double(length) / GeneratedSample.rate / Double(multiple)).rounded())
        return bin * Double(multiple) * GeneratedSample.rate / Double(length)
    }

    /// One period of `length` points holding the components; phases are drawn from `seed`, so
    /// two calls with the same seed share phases bin by bin (tables that are mixed later stay
    /// coherent).
    static func table(_ components: [SpectralComponent], length: Int, seed: UInt64,
                      transform: FourierTransform) -> [Double] {
        tables(components, seed: seed, nil, seed: 0, length: length, transform: transform).0
    }

    /// Two tables from one inverse FFT (the second is empty when `second` is nil).
    static func tables(_ first: [SpectralComponent], seed firstSeed: UInt64,
                       _ second: [SpectralComponent]?, seed secondSeed: UInt64,
                       length: Int, transform: FourierTransform) -> ([Double], [Double]) {
        precondition(transform.size == length)
        let a = (magnitudes: magnitudes(first, length: length), phases: phases(length: length, seed: firstSeed))
        let b = second.map { (magnitudes: magnitudes($0, length: length), phases: phases(length: length, seed: secondSeed)) }
        return transform.realSignals(first: a, second: b)
    }

    /// Random phases in cycles, one per bin.
    private static func phases(length: Int, seed: UInt64) -> [Double] {
        var random = SeededRandom(seed: seed)
        return (0..<length / 2).map { _ in random.unit() }
    }

    /// Bin magnitudes: each component's power spread over a Gaussian profile of its bandwidth.
    private static func magnitudes(_ components: [SpectralComponent], length: Int) -> [Double] {
        let binWidth = GeneratedSample.rate / Double(length)
        var power = [Double](repeating: 0, count: length / 2)
        for c in components where c.amplitude > 0 {
            let centre = c.frequency / binWidth
            let sigma = c.bandwidth / binWidth / 2
            if sigma < 0.5 {
                let k = Int(centre.rounded())
                if k >= 1 && k < length / 2 { power[k] += c.amplitude * c.amplitude }
                continue
            }
            let lo = max(1, Int((centre - 3 * sigma).rounded(.down)))
            let hi = min(length / 2 - 1, Int((centre + 3 * sigma).rounded(.up)))
            guard lo <= hi else { continue }
            var total = 0.0
            for k in lo...hi {
                let d = (Double(k) - centre) / sigma
                total += DecayTable.value(0.5 * d * d)
            }
            guard total > 0 else { continue }
            let scale = c.amplitude * c.amplitude / total
            for k in lo...hi {
                let d = (Double(k) - centre) / sigma
                power[k] += DecayTable.value(0.5 * d * d) * scale
            }
        }
        return power.map { $0.squareRoot() }
    }

    /// Scales `x` so its largest point is 1.
    static func normalized(_ x: [Double]) -> [Double] {
        let peak = x.reduce(0) { max($0, abs($1)) }
        return peak > 0 ? x.map { $0 / peak } : x
    }
}
