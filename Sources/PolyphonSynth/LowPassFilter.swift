import Foundation

/// The voice's resonant 2-pole low-pass filter (FluidSynth's IIR: RBJ low-pass, direct form II),
/// with FluidSynth's Q mapping and its pass-band gain reduction of 1/√q.
///
/// Coefficients glide linearly to new targets over a control period so cutoff sweeps from the
/// modulation envelope or LFO do not zipper. The voice skips the filter entirely while it is
/// fully open (initialFilterFc 13500 cents and Q 0 with nothing modulating the cutoff).
struct LowPassFilter {
    private var a1: Float = 0, a2: Float = 0, b02: Float = 0, b1: Float = 0
    private var a1Inc: Float = 0, a2Inc: Float = 0, b02Inc: Float = 0, b1Inc: Float = 0
    private var hist1: Float = 0, hist2: Float = 0
    private var ta1: Float = 0, ta2: Float = 0, tb02: Float = 0, tb1: Float = 0
    private var lastCutoff: Float = -1, lastQ: Float = -1
    private(set) var isPrimed = false
    /// Frames left in the current coefficient glide; at 0 the coefficients snap to the target.
    private var glideRemaining = 0
    /// Parity of frames filtered so far: samples are paired by their position in the voice,
    /// not in the buffer, so any slicing of render calls gives bit-identical output.
    private var oddFrame = false
    /// The first half of a pair split by the end of the previous call: its input and the state
    /// before it, so the second half is computed exactly as if the pair had not been split.
    private var pendingX0: Float = 0, pendingH1: Float = 0, pendingH2: Float = 0

    mutating func reset() {
        hist1 = 0; hist2 = 0
        glideRemaining = 0
        oddFrame = false
        lastCutoff = -1; lastQ = -1
        isPrimed = false
        a1Inc = 0; a2Inc = 0; b02Inc = 0; b1Inc = 0
    }

    /// True when the coefficients have reached their target (no glide under way).
    var isSettled: Bool { a1Inc == 0 && a2Inc == 0 && b1Inc == 0 && b02Inc == 0 }

    /// Flushes tiny state values so a decaying voice never drops into slow denormal arithmetic.
    /// Called at control points (which depend only on the voice's own timeline).
    mutating func flushDenormals() {
        if abs(hist1) < 1e-20 { hist1 = 0 }
        if abs(hist2) < 1e-20 { hist2 = 0 }
    }

    /// Sets the cutoff (Hz) and resonance (cB above DC) for the next `frames` frames, gliding
    /// from the previous coefficients unless this is the first setting.
    mutating func set(cutoffHz: Float, qCentibels: Float, sampleRate: Float, frames: Int) {
        var fc = cutoffHz
        let nyquistLimit = 0.45 * sampleRate
        if fc > nyquistLimit { fc = nyquistLimit } else if fc < 5 { fc = 5 }
        if isPrimed && abs(fc - lastCutoff) < 0.01 && qCentibels == lastQ {
            glide(frames: frames)
            return
        }
        lastCutoff = fc
        lastQ = qCentibels
        // FluidSynth: the response's Q is the SF2 value in dB minus 3.01, so Q 0 is the flat
        // (Butterworth) shape, −3 dB at the cutoff. The pass band is lowered by half the
        // resonance in dB, measured from Q 0 (FluidSynth 2.3.1 renders Q 0 filtered and
        // unfiltered voices at the same level, and Q 100 cB 5.0 dB lower).
        let qLin = powf(10, (qCentibels / 10 - 3.01) / 20)
        let gain = powf(10, -qCentibels / 400)
        let omega = 2 * Float.pi * fc / sampleRate
        let sinW = sinf(omega), cosW = cosf(omega)
        let alpha = sinW / (2 * qLin)
        let a0Inv = 1 / (1 + alpha)
        let na1 = -2 * cosW * a0Inv
        let na2 = (1 - alpha) * a0Inv
        let nb1 = (1 - cosW) * a0Inv * gain
        let nb02 = nb1 * 0.5
        ta1 = na1; ta2 = na2; tb1 = nb1; tb02 = nb02
        if !isPrimed {
            a1 = na1; a2 = na2; b1 = nb1; b02 = nb02
            isPrimed = true
        }
        glide(frames: frames)
    }

    /// Sets increments that reach the target coefficients after `frames` frames.
    private mutating func glide(frames: Int) {
        if frames <= 1 || (a1 == ta1 && a2 == ta2 && b1 == tb1 && b02 == tb02) {
            a1 = ta1; a2 = ta2; b1 = tb1; b02 = tb02
            a1Inc = 0; a2Inc = 0; b02Inc = 0; b1Inc = 0
            return
        }
        glideRemaining = frames
        let inv = 1 / Float(frames)
        a1Inc = (ta1 - a1) * inv
        a2Inc = (ta2 - a2) * inv
        b1Inc = (tb1 - b1) * inv
        b02Inc = (tb02 - b02) * inv
    }

    /// Filters `count` samples in place.
    mutating func process(_ buffer: UnsafeMutablePointer<Float>, count: Int) {
        var h1 = hist1, h2 = hist2
        if a1Inc == 0 && a2Inc == 0 && b1Inc == 0 && b02Inc == 0 {
            // Steady coefficients: two samples per step. c[n+1] is written in terms of c[n−1]
            // and c[n−2], so the loop-carried chain is one multiply-add per two samples instead
            // of per sample (the recursion's latency, not arithmetic, bounds an IIR filter).
            let a1 = self.a1, a2 = self.a2, b1 = self.b1, b02 = self.b02
            let k1 = a1 * a1 - a2, k2 = a1 * a2
            var i = 0
            if oddFrame && count > 0 {
                let x1 = buffer[0]
                let c1 = (x1 - a1 * pendingX0) + k1 * pendingH1 + k2 * pendingH2
                buffer[0] = b02 * (c1 + pendingH1) + b1 * h1
                h2 = h1
                h1 = c1
                i = 1
            }
            while i + 1 < count {
                let x0 = buffer[i], x1 = buffer[i + 1]
                let c0 = x0 - a2 * h2 - a1 * h1
                let c1 = (x1 - a1 * x0) + k1 * h1 + k2 * h2
                buffer[i] = b02 * (c0 + h2) + b1 * h1
                buffer[i + 1] = b02 * (c1 + h1) + b1 * c0
                h2 = c0
                h1 = c1
                i += 2
            }
            if i < count {
                let x0 = buffer[i]
                pendingX0 = x0; pendingH1 = h1; pendingH2 = h2
                let c = x0 - a2 * h2 - a1 * h1
                buffer[i] = b02 * (c + h2) + b1 * h1
                h2 = h1
                h1 = c
            }
        } else {
            var ca1 = a1, ca2 = a2, cb1 = b1, cb02 = b02
            for i in 0..<count {
                if i == count - 1 && (oddFrame ? count & 1 == 0 : count & 1 == 1) {
                    pendingX0 = buffer[i]; pendingH1 = h1; pendingH2 = h2
                }
                ca1 += a1Inc; ca2 += a2Inc; cb1 += b1Inc; cb02 += b02Inc
                // a2·h2 first: h2 is older, so only a1·h1 sits on the loop-carried path.
                let centre = (buffer[i] - ca2 * h2) - ca1 * h1
                buffer[i] = cb02 * (centre + h2) + cb1 * h1
                h2 = h1
                h1 = centre
            }
            a1 = ca1; a2 = ca2; b1 = cb1; b02 = cb02
            glideRemaining -= count
            if glideRemaining <= 0 {
                // Reached the target: snap exactly so the steady path takes over.
                a1 = ta1; a2 = ta2; b1 = tb1; b02 = tb02
                a1Inc = 0; a2Inc = 0; b02Inc = 0; b1Inc = 0
            }
        }
        if count & 1 == 1 { oddFrame.toggle() }
        hist1 = h1; hist2 = h2
    }
}
