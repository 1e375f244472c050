import PolyphonMath
import PolyphonSoundFont

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
        // Excitation: the string's shape when it is let go — a triangle with its apex at the
        // pick position, whose harmonic n has amplitude sin(nπp)/n² (the pick-position comb
        // included, and the energy in the low partials, as a real string's is) — rounded by
        // the finger or plectrum: a two-pole low-pass whose corner rises with brightness. A
        // little noise through the same filter adds the grain of the pluck. The triangle's
        // crest factor is low, so the string is loud for its peak.
        let p = min(max(pickPosition, 0.01), 0.99)
        let corner = 600 + 12_000 * brightness * brightness
        let a = 1 - PortableMath.exp(-PortableMath.twoPi * corner / GeneratedSample.rate)
        var shape = [Double](repeating: 0, count: period)
        for i in 0..<period {
            let x = Double(i) / Double(period)
            shape[i] = (x < p ? x / p : (1 - x) / (1 - p)) + 0.1 * brightness * random.bipolar()
        }
        // The low-pass runs round the period three times, so what it leaves is periodic.
        var lp1 = 0.0, lp2 = 0.0
        var excitation = [Double](repeating: 0, count: period)
        for _ in 0..<3 {
            for i in 0..<period {
                lp1 += a * (shape[i] - lp1)
                lp2 += a * (lp1 - lp2)
                excitation[i] = lp2
            }
        }
        let mean = excitation.reduce(0, +) / Double(period)
        var y = [Double](repeating: 0, count: count)
        for i in 0..<period { y[i] = excitation[i] - mean }
        // Symmetric three-tap loss filter: zero phase, so the period stays exactly `period`.
        let centre = 1 - 0.5 * damping, side = (1 - centre) / 2
        let rho = PortableMath.exp(-6.907755 / (decay * GeneratedSample.rate / Double(period)))
        y.withUnsafeMutableBufferPointer { y in
            y[period] = rho * (centre * y[0] + side * (y[period - 1] + y[1]))
            for n in period + 1..<count {
                y[n] = rho * (centre * y[n - period] + side * (y[n - period - 1] + y[n - period + 1]))
            }
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
