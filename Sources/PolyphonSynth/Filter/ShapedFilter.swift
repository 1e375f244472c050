import PolyphonSoundFontCore

/// A voice's filter of another shape than SoundFont 2's low-pass (``FilterShape``: SFZ's
/// `fil_type` low-, high-, band-pass and band-reject of 1, 2, 4 and 6 poles), with sfizz's
/// designs: RBJ biquads with Q = 10^(resonance/20) (4 and 6 poles are two and three of them in
/// series), sfizz's one-pole low- and high-pass, its band-pass 1-pole (the two in series) and
/// band-reject 1-pole (the input plus two one-pole all-passes, which doubles the pass band).
///
/// It runs inside the voice, over each stretch the oscillator renders, in place of the
/// ``LowPassFilter`` that ``FilterBatch`` runs for SF2 voices: chosen once at note-on, it
/// leaves the SF2 path's arithmetic untouched. Its cutoff follows the control points: a new
/// one glides its coefficients linearly over a control period (as sfizz smooths them) so sweeps
/// do not zipper.
struct ShapedFilter {
    /// True when the voice plays a shape (and its SF2 low-pass stays off).
    private(set) var isActive = false
    private var response = FilterShape.Response.lowPass
    private var poles = 2
    /// Biquad sections in series (1 to 3).
    private var sections = 1
    /// The shape's cutoff with its key and velocity tracking, in absolute cents.
    private(set) var baseCents: Float = 0
    /// The shape's resonance in dB.
    private(set) var baseResonance: Float = 0

    /// Coefficients (b0, b1, b2, a1, a2, –, –, –) in use, their target and step per frame.
    private var coefficients = SIMD8<Float>(repeating: 0)
    private var target = SIMD8<Float>(repeating: 0)
    private var increments = SIMD8<Float>(repeating: 0)
    private var glideRemaining = 0
    /// Transposed direct form II state (s1, s2) of each section.
    private var state = SIMD8<Float>(repeating: 0)
    private var lastCents: Float = .nan
    private var lastResonance: Float = .nan

    /// Starts the filter for a note, or leaves it off when `shape` is nil.
    mutating func start(_ shape: FilterShape?, key: Int, velocity: Int) {
        self = ShapedFilter()
        guard let shape else { return }
        isActive = true
        response = shape.response
        poles = shape.poles
        sections = shape.poles >= 6 ? 3 : shape.poles >= 4 ? 2 : 1
        let hertz = Double(max(shape.cutoff, 1))
        baseCents = Float(1200 * Math.log2(hertz / 8.175798915643707)) + shape.keytrack * Float(key - Int(shape.keycenter))
            + shape.velocityTracking * Float(velocity) / 127
        baseResonance = shape.resonance
    }

    /// Aims the filter at `cents` (absolute) and `resonance` dB: a glide over `frames` frames,
    /// or at once the first time.
    mutating func aim(cents: Float, resonance: Float, outputRate: Double, frames: Int) {
        guard cents != lastCents || resonance != lastResonance else { return }
        let first = lastCents.isNaN
        lastCents = cents
        lastResonance = resonance
        // sfizz clamps the cutoff to 0…20 kHz; the designs need it below Nyquist.
        let hertz = min(max(Double(Units.absoluteCentsToHertz(cents)), 1), min(20_000, outputRate * 0.49))
        target = Self.design(response, poles: poles, hertz: hertz, resonance: resonance, outputRate: outputRate)
        if first {
            coefficients = target
            glideRemaining = 0
        } else {
            increments = (target - coefficients) * (1 / Float(frames))
            glideRemaining = frames
        }
        // A decaying voice must never drop into slow denormal arithmetic.
        for i in 0..<6 where state[i] > -1e-20 && state[i] < 1e-20 { state[i] = 0 }
    }

    /// The section coefficients (b0, b1, b2, a1, a2) for a design at `hertz`.
    static func design(_ response: FilterShape.Response, poles: Int, hertz: Double, resonance: Float,
                       outputRate: Double) -> SIMD8<Float> {
        let w = 2 * Double.pi * hertz / outputRate
        if poles == 1 {
            // sfizz's one-pole designs (Faust's lp1/hp1/ap1 with p = e^(−w)).
            let p = Math.pow(2.718281828459045, -w)
            switch response {
            case .lowPass:
                return SIMD8(Float(1 - p), 0, 0, Float(-p), 0, 0, 0, 0)
            case .highPass:
                let k = 0.5 * (1 + p)
                return SIMD8(Float(k), Float(-k), 0, Float(-p), 0, 0, 0, 0)
            case .bandPass:
                // Low-pass then high-pass: one biquad with a double pole at p.
                let k = (1 - p) * 0.5 * (1 + p)
                return SIMD8(Float(k), Float(-k), 0, Float(-2 * p), Float(p * p), 0, 0, 0)
            case .bandReject:
                // x + ap(ap(x)) with the all-pass H = (a + z⁻¹)/(1 + a·z⁻¹), a = w − 1.
                let a = w - 1
                return SIMD8(Float(1 + a * a), Float(4 * a), Float(1 + a * a), Float(2 * a), Float(a * a), 0, 0, 0)
            }
        }
        let q = Math.pow(10, Double(min(max(resonance, -60), 60)) / 20)
        let cosW = Math.cos(w), alpha = Math.sin(w) / (2 * q)
        let a0 = 1 + alpha
        let b: (Double, Double, Double) = switch response {
        case .lowPass: ((1 - cosW) / 2, 1 - cosW, (1 - cosW) / 2)
        case .highPass: ((1 + cosW) / 2, -1 - cosW, (1 + cosW) / 2)
        case .bandPass: (alpha, 0, -alpha)
        case .bandReject: (1, -2 * cosW, 1)
        }
        return SIMD8(Float(b.0 / a0), Float(b.1 / a0), Float(b.2 / a0), Float(-2 * cosW / a0), Float((1 - alpha) / a0),
                     0, 0, 0)
    }

    /// Filters `count` frames of `buffer` in place.
    mutating func process(_ buffer: UnsafeMutablePointer<Float>, count: Int) {
        var c = coefficients
        var s = state
        for i in 0..<count {
            if glideRemaining > 0 {
                glideRemaining -= 1
                c = glideRemaining == 0 ? target : c + increments
            }
            var x = buffer[i]
            // Section 1, then 2 and 3 when the shape has them (same coefficients).
            var y = c[0] * x + s[0]
            s[0] = c[1] * x - c[3] * y + s[1]
            s[1] = c[2] * x - c[4] * y
            if sections > 1 {
                x = y
                y = c[0] * x + s[2]
                s[2] = c[1] * x - c[3] * y + s[3]
                s[3] = c[2] * x - c[4] * y
                if sections > 2 {
                    x = y
                    y = c[0] * x + s[4]
                    s[4] = c[1] * x - c[3] * y + s[5]
                    s[5] = c[2] * x - c[4] * y
                }
            }
            buffer[i] = y
        }
        coefficients = c
        state = s
    }
}
