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
        precondition(transform.size == length)
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
            var weights = [Double](repeating: 0, count: hi - lo + 1), total = 0.0
            for k in lo...hi {
                let d = (Double(k) - centre) / sigma
                weights[k - lo] = PortableMath.exp(-0.5 * d * d)
                total += weights[k - lo]
            }
            guard total > 0 else { continue }
            let scale = c.amplitude * c.amplitude / total
            for k in lo...hi { power[k] += weights[k - lo] * scale }
        }
        var random = SeededRandom(seed: seed)
        let phases = (0..<length / 2).map { _ in random.unit() * PortableMath.twoPi }
        return transform.realSignal(magnitudes: power.map { $0.squareRoot() }, phases: phases)
    }

    /// Scales `x` so its largest point is 1.
    static func normalized(_ x: [Double]) -> [Double] {
        let peak = x.reduce(0) { max($0, abs($1)) }
        return peak > 0 ? x.map { $0 / peak } : x
    }
}
