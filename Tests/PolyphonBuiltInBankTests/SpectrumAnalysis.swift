import Foundation
@testable import PolyphonAudio

/// Spectral measurements for the built-in bank tests: the figures a listener's impressions map
/// to (brightness, noisiness, where the energy sits), on PolyphonAudio's radix-2 FFT.
enum SpectrumAnalysis {
    /// Magnitudes of the Hann-windowed FFT of `x` (zero-padded to a power of two), bins 0…n/2.
    static func magnitudes(_ x: ArraySlice<Float>) -> [Double] {
        var n = 1
        while n < x.count { n <<= 1 }
        var re = [Double](repeating: 0, count: n)
        let count = x.count
        for (i, v) in x.enumerated() {
            let w = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(max(count - 1, 1)))
            re[i] = Double(v) * w
        }
        return AudioComparison.powerSpectrum(re).map { $0.squareRoot() }
    }

    /// Bin width in Hz for a spectrum of `magnitudes` made at `rate`.
    static func binHz(_ magnitudes: [Double], rate: Double) -> Double { rate / Double(2 * (magnitudes.count - 1)) }

    /// Power-weighted mean frequency (Hz).
    static func centroid(_ m: [Double], rate: Double) -> Double {
        var num = 0.0, den = 0.0
        for (k, v) in m.enumerated() { num += Double(k) * v * v; den += v * v }
        return den > 0 ? num / den * binHz(m, rate: rate) : 0
    }

    /// Share of the power between `low` and `high` Hz.
    static func bandShare(_ m: [Double], rate: Double, _ low: Double, _ high: Double) -> Double {
        let w = binHz(m, rate: rate)
        var band = 0.0, total = 0.0
        for (k, v) in m.enumerated() {
            total += v * v
            let f = Double(k) * w
            if f >= low && f < high { band += v * v }
        }
        return total > 0 ? band / total : 0
    }

    /// Wiener spectral flatness (geometric / arithmetic mean of power) between 200 Hz and
    /// 16 kHz: near 1 for white noise, near 0 for a few harmonics.
    static func flatness(_ m: [Double], rate: Double) -> Double {
        let w = binHz(m, rate: rate)
        let lo = Int(200 / w), hi = min(m.count - 1, Int(16000 / w))
        var logSum = 0.0, sum = 0.0
        for k in lo...hi { let p = m[k] * m[k] + 1e-20; logSum += log(p); sum += p }
        let n = Double(hi - lo + 1)
        return exp(logSum / n) / (sum / n)
    }

    /// Log-spectral distance in dB between two spectra over third-octave bands from 50 Hz to
    /// 16 kHz, each normalised to its total power (so it measures shape, not level). Bands are
    /// floored at −60 dB of the total: below that lie only dither and interpolation noise,
    /// which differ between renderers without being heard.
    static func logSpectralDistance(_ a: [Double], _ b: [Double], rate: Double) -> Double {
        func bands(_ m: [Double]) -> [Double] {
            let w = binHz(m, rate: rate)
            var out: [Double] = []
            var f = 50.0
            let total = m.reduce(0) { $0 + $1 * $1 }
            while f < 16000 {
                let hi = f * pow(2, 1.0 / 3)
                var p = 0.0
                for k in Int(f / w)..<min(m.count, Int(hi / w)) { p += m[k] * m[k] }
                out.append(max(-60, 10 * log10(p / max(total, 1e-30) + 1e-12)))
                f = hi
            }
            return out
        }
        let x = bands(a), y = bands(b)
        let meanSquare = zip(x, y).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) } / Double(x.count)
        return meanSquare.squareRoot()
    }

    /// Share of the power held by the strongest `fraction` of the bins between 100 Hz and
    /// 16 kHz: near 1 for a tone with a few partials, small for noise.
    static func peakShare(_ m: [Double], rate: Double, fraction: Double = 0.01) -> Double {
        let w = binHz(m, rate: rate)
        let powers = m[Int(100 / w)..<min(m.count, Int(16000 / w))].map { $0 * $0 }.sorted(by: >)
        let top = max(1, Int(Double(powers.count) * fraction))
        let total = powers.reduce(0, +)
        return total > 0 ? powers[0..<top].reduce(0, +) / total : 0
    }

    /// Share of the power in bins standing at least 8× above the mean of their ±16 neighbours
    /// (30 Hz–16 kHz): near 1 for tones (partials are sharp peaks), near 0 for noise of any
    /// colour (a noise bin exceeds 8× its local mean with probability e⁻⁸).
    static func tonalShare(_ m: [Double], rate: Double) -> Double {
        let w = binHz(m, rate: rate)
        let lo = max(17, Int(30 / w)), hi = min(m.count - 17, Int(16000 / w))
        let p = m.map { $0 * $0 }
        var tonal = 0.0, total = 0.0
        var window = p[lo - 16...lo + 16].reduce(0, +)
        for k in lo..<hi {
            total += p[k]
            if p[k] > 8 * window / 33 { tonal += p[k] }
            window += p[k + 17] - p[k - 16]
        }
        return total > 0 ? tonal / total : 0
    }
}
