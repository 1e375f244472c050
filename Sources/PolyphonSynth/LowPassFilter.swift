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

    mutating func reset() {
        hist1 = 0; hist2 = 0
        lastCutoff = -1; lastQ = -1
        isPrimed = false
        a1Inc = 0; a2Inc = 0; b02Inc = 0; b1Inc = 0
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
        // FluidSynth: Q in dB minus 3.01 so Q 0 is the flat (Butterworth) response.
        let qLin = powf(10, (qCentibels / 10 - 3.01) / 20)
        let gain = 1 / sqrtf(qLin)
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
        let inv = 1 / Float(frames)
        a1Inc = (ta1 - a1) * inv
        a2Inc = (ta2 - a2) * inv
        b1Inc = (tb1 - b1) * inv
        b02Inc = (tb02 - b02) * inv
    }

    /// Filters `count` samples in place.
    @inline(__always)
    mutating func process(_ buffer: UnsafeMutablePointer<Float>, count: Int) {
        var h1 = hist1, h2 = hist2
        var ca1 = a1, ca2 = a2, cb1 = b1, cb02 = b02
        if a1Inc == 0 && a2Inc == 0 && b1Inc == 0 && b02Inc == 0 {
            for i in 0..<count {
                let centre = buffer[i] - ca1 * h1 - ca2 * h2
                buffer[i] = cb02 * (centre + h2) + cb1 * h1
                h2 = h1
                h1 = centre
            }
        } else {
            for i in 0..<count {
                ca1 += a1Inc; ca2 += a2Inc; cb1 += b1Inc; cb02 += b02Inc
                let centre = buffer[i] - ca1 * h1 - ca2 * h2
                buffer[i] = cb02 * (centre + h2) + cb1 * h1
                h2 = h1
                h1 = centre
            }
        }
        // Flush denormals so a decaying voice never drops into slow arithmetic.
        if abs(h1) < 1e-20 { h1 = 0 }
        if abs(h2) < 1e-20 { h2 = 0 }
        hist1 = h1; hist2 = h2
        a1 = ca1; a2 = ca2; b1 = cb1; b02 = cb02
    }
}
