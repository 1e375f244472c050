/// The voice's resonant 2-pole low-pass filter (FluidSynth's IIR: RBJ low-pass, direct form II),
/// with FluidSynth's Q mapping and its pass-band gain reduction of 1/√q.
///
/// Coefficients glide linearly, sample by sample, to new targets over a control period so cutoff
/// sweeps from the modulation envelope or LFO do not zipper (as FluidSynth does). The voice skips
/// the filter entirely while it is fully open (initialFilterFc 13500 cents and Q 0 with nothing
/// modulating the cutoff).
///
/// The filters run eight at a time, one per SIMD lane (``FilterBatch``); this type holds one
/// filter's state and turns a cutoff and resonance into coefficients.
struct LowPassFilter {
    /// Coefficients in use (a1, a2, unused, b02; b0 = b2 = b02 and b1 = 2·b02 for this low-pass),
    /// the glide's target and per-frame step.
    var coefficients = SIMD4<Float>(repeating: 0)
    var increments = SIMD4<Float>(repeating: 0)
    var target = SIMD4<Float>(repeating: 0)
    /// Frames left in the current glide; at 0 the coefficients snap to the target.
    var glideRemaining = 0
    /// The last two centre values of direct form II.
    var hist1: Float = 0, hist2: Float = 0

    // Control side: what the voice last asked for.
    private var lastCutoff: Float = -1, lastQ: Float = -1
    private var inverseTwoQ: Float = 1, passGain: Float = 1
    /// True once a target has been set since the last reset.
    private(set) var isPrimed = false

    mutating func reset() {
        hist1 = 0; hist2 = 0
        glideRemaining = 0
        increments = SIMD4(repeating: 0)
        lastCutoff = -1; lastQ = -1
        isPrimed = false
    }

    /// The coefficients for a cutoff (absolute cents) and resonance (cB above DC), or nil when
    /// they are what was asked for last (the glide under way continues). Marks the filter primed.
    mutating func coefficients(cutoffCents: Float, qCentibels: Float, table: CutoffTable) -> SIMD4<Float>? {
        if isPrimed && abs(cutoffCents - lastCutoff) < 0.01 && qCentibels == lastQ { return nil }
        isPrimed = true
        lastCutoff = cutoffCents
        if qCentibels != lastQ {
            lastQ = qCentibels
            // FluidSynth: the response's Q is the SF2 value in dB minus 3.01, so Q 0 is the flat
            // (Butterworth) shape, −3 dB at the cutoff. The pass band is lowered by half the
            // resonance in dB, measured from Q 0 (FluidSynth 2.3.1 renders Q 0 filtered and
            // unfiltered voices at the same level, and Q 100 cB 5.0 dB lower).
            inverseTwoQ = 1 / (2 * Self.linearQ(qCentibels: qCentibels))
            passGain = Math.pow(10, -qCentibels / 400)
        }
        // RBJ low-pass.
        let w = table.lookup(cents: cutoffCents)
        let sinW = w[0], oneMinusCos = w[1]
        let alpha = sinW * inverseTwoQ
        let a0Inv = 1 / (1 + alpha)
        let b02 = oneMinusCos * a0Inv * passGain * 0.5
        return SIMD4(-2 * (1 - oneMinusCos) * a0Inv, (1 - alpha) * a0Inv, 0, b02)
    }

    /// The gain at 0 Hz of the coefficients in use (the pass band below the cutoff, 1/√q), for
    /// the channel meters: b0 + b1 + b2 over 1 + a1 + a2.
    var passBandGain: Float {
        let denominator = 1 + coefficients[0] + coefficients[1]
        return denominator > 1e-12 ? 4 * coefficients[3] / denominator : 1
    }

    /// FluidSynth's linear Q for a resonance in centibels: the SF2 value in dB less 3.01, so Q 0
    /// is the flat (Butterworth) 0.707.
    static func linearQ(qCentibels: Float) -> Float {
        Math.pow(10, (qCentibels / 10 - 3.01) / 20)
    }

    /// Applies an event (``FilterEvent``): flushes denormal state, then glides or snaps to a
    /// target, or takes in or settles a shared filter's state.
    @inline(__always)
    mutating func apply(_ event: FilterEvent) {
        // A decaying voice must never drop into slow denormal arithmetic.
        if abs(hist1) < 1e-20 { hist1 = 0 }
        if abs(hist2) < 1e-20 { hist2 = 0 }
        switch event.change {
        case .glide(let to, let frames) where to != coefficients:
            target = to
            increments = (target - coefficients) * (1 / Float(frames))
            glideRemaining = Int(frames)
        case .glide(let to, _), .snap(let to), .join(let to, _):
            target = to
            coefficients = to
            increments = SIMD4(repeating: 0)
            glideRemaining = 0
        case .inject(let state):
            hist1 += state[0]
            hist2 += state[1]
        case .settle:
            // A shared filter's state 160 dB below full scale is set to 0 (members or not).
            if abs(hist1) < 1e-8 && abs(hist2) < 1e-8 { hist1 = 0; hist2 = 0 }
        case .flush:
            break
        }
    }

    /// Hands the filter's state over to a shared filter (``SharedFilterPool``): returns it as
    /// (hist1, hist2) and leaves this filter silent, with its coefficients kept.
    @inline(__always)
    mutating func handOver() -> SIMD2<Float> {
        let state = SIMD2<Float>(hist1, hist2)
        hist1 = 0; hist2 = 0
        return state
    }
}
