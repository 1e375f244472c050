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
