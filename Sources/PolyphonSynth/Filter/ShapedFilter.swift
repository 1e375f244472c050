import PolyphonSoundFontCore

/// A voice's filter of another shape than SoundFont 2's low-pass (``FilterShape``: SFZ's
/// `fil_type` low-, high-, band-pass and band-reject of 1, 2, 4 and 6 poles, shelves, peaking
/// band, pink and state-variable types), or one of its equaliser bands
/// (``EqualizerBandShape``), with sfizz's designs: RBJ biquads with Q = 10^(resonance/20) (4
/// and 6 poles are two and three of them in series), sfizz's one-pole low- and high-pass, its
/// band-pass 1-pole (the two in series) and band-reject 1-pole (the input plus two one-pole
/// all-passes, which doubles the pass band), Faust's pink filter; equaliser bands take their Q
/// from the bandwidth in octaves.
///
/// It runs inside the voice, over each stretch the oscillator renders, in place of the
/// ``LowPassFilter`` that ``FilterBatch`` runs for SF2 voices: chosen once at note-on, it
/// leaves the SF2 path's arithmetic untouched. Its cutoff follows the control points: a new
/// one glides its coefficients linearly over a control period (as sfizz smooths them) so sweeps
/// do not zipper.
struct ShapedFilter {
    /// True when the voice plays a shape (and its SF2 low-pass stays off).
    private(set) var isActive = false
    private(set) var response = FilterShape.Response.lowPass
    private var poles = 2
    /// Biquad sections in series (1 to 3).
    private var sections = 1
    /// The shape's cutoff with its key and velocity tracking, in absolute cents (a band's
    /// frequency with its velocity term, in Hz).
    private(set) var baseCents: Float = 0
    /// The shape's resonance in dB (a band's width in octaves).
    private(set) var baseResonance: Float = 0
    /// The shelf or peak gain in dB, with a band's velocity term.
    private(set) var baseGain: Float = 0

    /// Coefficients (b0, b1, b2, a1, a2, –, –, –) in use, their target and step per frame.
    private var coefficients = SIMD8<Float>(repeating: 0)
    private var target = SIMD8<Float>(repeating: 0)
    private var increments = SIMD8<Float>(repeating: 0)
    private var glideRemaining = 0
    /// Transposed direct form II state (s1, s2) of each section (the pink filter's past
    /// recursion values).
    private var state = SIMD8<Float>(repeating: 0)
    /// The design last aimed at (hertz, Q, gain).
    private var aimed = SIMD4<Double>(repeating: .nan)

    /// True while the coefficients glide to a new target.
    var isGliding: Bool { glideRemaining > 0 }

    /// Starts the filter for a note, or leaves it off when `shape` is nil: sfizz's base cutoff,
    /// moved by the random draw of note `noteSeed`, the key and the velocity tracking (with its
    /// controllers' values on `channel` at the note-on).
    mutating func start(_ shape: FilterShape?, key: Int, velocity: Int, channel: Channel, noteSeed: UInt64) {
        self = ShapedFilter()
        guard let shape else { return }
        isActive = true
        response = shape.response
        poles = shape.poles
        sections = shape.poles >= 6 ? 3 : shape.poles >= 4 ? 2 : 1
        let hertz = Double(max(shape.cutoff, 1))
        var tracking = shape.velocityTracking
        for input in shape.velocityTrackingControllers {
            tracking += input.contribution(at: channel.controllers[input.controller & 127])
        }
        let random = shape.random == 0 ? 0 : shape.random * NoteDraw.uniform(noteSeed, stream: shape.randomStream)
        // Bounded as sfizz bounds its opcodes' sums: absurd depths stay finite.
        let moved = Voice.bounded(random + shape.keytrack * Float(key - Int(shape.keycenter))
            + tracking * Float(velocity) / 127, -1e6...1e6)
        baseCents = Float(1200 * Math.log2(hertz / 8.175798915643707)) + moved
        baseResonance = shape.resonance
        baseGain = shape.gain
    }

    /// Starts an equaliser band for a note (sfizz adds the velocity terms at note-on).
    mutating func start(band: EqualizerBandShape, velocity: Int) {
        self = ShapedFilter()
        isActive = true
        response = switch band.kind {
        case .peak: .peaking
        case .lowShelf: .lowShelf
        case .highShelf: .highShelf
        }
        poles = 2
        let v = Float(velocity) / 127
        baseCents = band.frequency + v * band.velocityToFrequency
        baseResonance = band.bandwidth
        baseGain = band.gain + v * band.velocityToGain
    }

    /// Aims the filter at `cents` (absolute), `resonance` dB and `gain` dB: a glide over
    /// `frames` frames, or at once the first time.
    mutating func aim(cents: Float, resonance: Float, gain: Float, outputRate: Double, frames: Int) {
        guard response != .pink else { return }
        let hertz = Double(Units.absoluteCentsToHertz(cents))
        aim(hertz: hertz, q: Math.pow(10, Double(min(max(resonance, -60), 60)) / 20), gain: Double(gain),
            outputRate: outputRate, frames: frames)
    }

    /// Aims an equaliser band at `hertz`, `bandwidth` octaves and `gain` dB (sfizz's Q from
    /// the bandwidth: 1 / (2·sinh(ln 2 / 2 · bandwidth · w₀ / sin w₀))).
    mutating func aimBand(hertz: Float, bandwidth: Float, gain: Float, outputRate: Double, frames: Int) {
        let f = Self.clampedHertz(Double(hertz), outputRate: outputRate)
        let w = 2 * Double.pi * f / outputRate
        let octaves = Double(min(max(bandwidth, 0.01), 12))
        let x = 0.5 * 0.6931471805599453 * octaves * w / Math.sin(w)
        let sinh = 0.5 * (Math.pow(2.718281828459045, x) - Math.pow(2.718281828459045, -x))
        aim(hertz: f, q: 1 / (2 * sinh), gain: Double(gain), outputRate: outputRate, frames: frames)
    }

    /// sfizz clamps the cutoff to 1 Hz…20 kHz; the designs need it below Nyquist.
    static func clampedHertz(_ hertz: Double, outputRate: Double) -> Double {
        hertz.isNaN ? 1 : min(max(hertz, 1), min(20_000, outputRate * 0.49))
    }

    private mutating func aim(hertz: Double, q: Double, gain: Double, outputRate: Double, frames: Int) {
        let f = Self.clampedHertz(hertz, outputRate: outputRate)
        let key = SIMD4<Double>(f, q, gain, 0)
        guard key != aimed else { return }
        let first = aimed[0].isNaN
        aimed = key
        target = Self.design(response, poles: poles, hertz: f, q: q, gain: gain, outputRate: outputRate)
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

    /// The section coefficients (b0, b1, b2, a1, a2) for a design at `hertz` with a resonance
    /// of `resonance` dB (Q = 10^(dB/20)) and a shelf or peak gain of `gain` dB.
    static func design(_ response: FilterShape.Response, poles: Int, hertz: Double, resonance: Float, gain: Float = 0,
                       outputRate: Double) -> SIMD8<Float> {
        design(response, poles: poles, hertz: hertz, q: Math.pow(10, Double(min(max(resonance, -60), 60)) / 20),
               gain: Double(gain), outputRate: outputRate)
    }

    /// The section coefficients for a design at `hertz` with quality `q` and gain `gain` dB
    /// (Faust's RBJ `filtercoeff`, which sfizz's filters are built from).
    static func design(_ response: FilterShape.Response, poles: Int, hertz: Double, q: Double, gain: Double,
                       outputRate: Double) -> SIMD8<Float> {
        let w = 2 * Double.pi * hertz / outputRate
        if poles == 1 {
            // sfizz's one-pole designs (Faust's lp1/hp1/ap1 with p = e^(−w)).
            let p = Math.pow(2.718281828459045, -w)
            switch response {
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
            default:
                return SIMD8(Float(1 - p), 0, 0, Float(-p), 0, 0, 0, 0)
            }
        }
        let cosW = Math.cos(w), sinW = Math.sin(w)
        let alpha = sinW / (2 * max(q, 0.001))
        // Shelves and peak: A = 10^(dB/40), sfizz clamping the gain to −120…60 dB.
        let a = Math.pow(10, min(max(gain, -120), 60) / 40)
        let rootA = a.squareRoot()
        let (b0, b1, b2, a0, a1, a2): (Double, Double, Double, Double, Double, Double) = switch response {
        case .lowPass: ((1 - cosW) / 2, 1 - cosW, (1 - cosW) / 2, 1 + alpha, -2 * cosW, 1 - alpha)
        case .highPass: ((1 + cosW) / 2, -1 - cosW, (1 + cosW) / 2, 1 + alpha, -2 * cosW, 1 - alpha)
        case .bandPass: (alpha, 0, -alpha, 1 + alpha, -2 * cosW, 1 - alpha)
        // The state-variable band-pass: the band output of a TPT state-variable filter, whose
        // peak is Q (the RBJ band-pass of constant skirt gain).
        case .stateVariableBandPass: (sinW / 2, 0, -sinW / 2, 1 + alpha, -2 * cosW, 1 - alpha)
        case .bandReject: (1, -2 * cosW, 1, 1 + alpha, -2 * cosW, 1 - alpha)
        case .peaking: (1 + alpha * a, -2 * cosW, 1 - alpha * a, 1 + alpha / a, -2 * cosW, 1 - alpha / a)
        case .lowShelf:
            (a * ((a + 1) - (a - 1) * cosW + 2 * rootA * alpha), 2 * a * ((a - 1) - (a + 1) * cosW),
             a * ((a + 1) - (a - 1) * cosW - 2 * rootA * alpha), (a + 1) + (a - 1) * cosW + 2 * rootA * alpha,
             -2 * ((a - 1) + (a + 1) * cosW), (a + 1) + (a - 1) * cosW - 2 * rootA * alpha)
        case .highShelf:
            (a * ((a + 1) + (a - 1) * cosW + 2 * rootA * alpha), -2 * a * ((a - 1) + (a + 1) * cosW),
             a * ((a + 1) + (a - 1) * cosW - 2 * rootA * alpha), (a + 1) - (a - 1) * cosW + 2 * rootA * alpha,
             2 * ((a - 1) - (a + 1) * cosW), (a + 1) - (a - 1) * cosW - 2 * rootA * alpha)
        case .pink: (1, 0, 0, 1, 0, 0)
        }
        return SIMD8(Float(b0 / a0), Float(b1 / a0), Float(b2 / a0), Float(a1 / a0), Float(a2 / a0), 0, 0, 0)
    }

    /// Filters `count` frames of `buffer` in place.
    mutating func process(_ buffer: UnsafeMutablePointer<Float>, count: Int) {
        if response == .pink { return processPink(buffer, count: count) }
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

    /// Faust's `pink_filter` (which sfizz's `pink` is): a third-order recursion with fixed
    /// coefficients, computed in double as Faust's generated code does.
    private mutating func processPink(_ buffer: UnsafeMutablePointer<Float>, count: Int) {
        var r1 = Double(state[0]), r2 = Double(state[1]), r3 = Double(state[2])
        for i in 0..<count {
            let r0 = Double(buffer[i]) + 2.494956002 * r1 - 2.017265875 * r2 + 0.5221894 * r3
            buffer[i] = Float(0.049922035 * r0 - 0.095993537 * r1 + 0.050612699 * r2 - 0.004408786 * r3)
            r3 = r2
            r2 = r1
            r1 = r0
        }
        state[0] = Float(r1)
        state[1] = Float(r2)
        state[2] = Float(r3)
    }
}
