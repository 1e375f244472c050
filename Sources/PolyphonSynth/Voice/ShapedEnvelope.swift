import PolyphonSoundFontCore

/// An envelope of sfizz's shape moving a voice's pitch or its shaped filter's cutoff (SFZ's
/// `pitcheg_*` and `fileg_*`): from a start level, a linear attack to 1, a hold, then a decay
/// and a release that multiply the level by e^−9 over their stated time (as sfizz's do; the
/// SF2 modulation envelope's attack is convex and its decay and release linear, so these get
/// their own type).
///
/// Advanced lazily at control points, in closed form: a run of frames costs one power at most.
struct ShapedEnvelope {
    typealias Stage = EnvelopeStage

    private(set) var stage = Stage.finished
    /// The envelope's output, 0…1.
    private(set) var value: Float = 0
    private var remaining: Double = 0
    private var attackStep: Float = 1
    private var holdFrames: Double = 0
    /// Natural log of the decay's and release's factor per frame (−9 / frames).
    private var decayLog: Double = 0
    private var releaseLog: Double = 0
    private var sustain: Float = 1

    /// sfizz's floor for the decay and release times it scales (6 ms).
    static let shortestExponentialTime: Double = 0.006
    /// sfizz ends a release below this level.
    static let releaseFloor: Float = 1e-4

    /// Starts the envelope for a note at `velocity` (0…127), times turned into frames at `rate`.
    mutating func start(_ shape: ModulationEnvelopeShape, velocity: Int, rate: Double) {
        let v = Float(velocity) / 127
        func seconds(_ base: Float, _ byVelocity: Float) -> Double { Double(max(0, base + v * byVelocity)) }
        let attack = seconds(shape.attack, shape.velocityToAttack)
        attackStep = attack > 0 ? Float(1 / (attack * rate)) : 1
        holdFrames = (seconds(shape.hold, shape.velocityToHold) * rate).rounded(.towardZero)
        decayLog = Self.logFactor(seconds(shape.decay, shape.velocityToDecay), rate: rate)
        releaseLog = Self.logFactor(Double(max(0, shape.release + v * shape.velocityToRelease)), rate: rate)
        sustain = min(max(shape.sustain + v * shape.velocityToSustain, 0), 1)
        value = min(max(shape.start, 0), 1)
        stage = .delay
        remaining = (seconds(shape.delay, shape.velocityToDelay) * rate).rounded(.towardZero)
    }

    /// ln of the factor per frame of a stage that falls by e^−9 in `seconds` (−∞: at once).
    private static func logFactor(_ seconds: Double, rate: Double) -> Double {
        seconds > 0 ? -9 / (max(seconds, shortestExponentialTime) * rate) : -.infinity
    }

    /// True while the value holds still until a note-off (the sustain) or for good.
    var isSteady: Bool { stage.isSteady }

    /// Enters the release from wherever the envelope is.
    mutating func release() {
        guard stage != .finished else { return }
        stage = .release
    }

    /// Moves the envelope on by `frames` frames.
    mutating func advance(_ frames: Int) {
        var left = Double(frames)
        while left > 0 {
            switch stage {
            case .delay, .hold:
                if remaining > left { remaining -= left; return }
                left -= remaining
                if stage == .delay {
                    stage = .attack
                } else {
                    stage = .decay
                }
            case .attack:
                let needed = Double(((1 - value) / attackStep).rounded(.up))
                if needed > left { value += attackStep * Float(left); return }
                left -= max(needed, 0)
                value = 1
                stage = .hold
                remaining = holdFrames
            case .decay:
                // Falls until it is within sfizz's 0.001 of the sustain level.
                let target = sustain + 0.001
                let needed = value > target && decayLog > -.infinity
                    ? (Math.log(Double(target / value)) / decayLog).rounded(.up) : 0
                if needed > left {
                    value *= Float(Math.pow(2.718281828459045, decayLog * left))
                    return
                }
                left -= needed
                value = sustain
                stage = .sustain
            case .sustain, .finished:
                return
            case .release:
                let needed = value > Self.releaseFloor && releaseLog > -.infinity
                    ? (Math.log(Double(Self.releaseFloor / value)) / releaseLog).rounded(.up) : 0
                if needed > left {
                    value *= Float(Math.pow(2.718281828459045, releaseLog * left))
                    return
                }
                value = 0
                stage = .finished
                return
            }
        }
    }
}

/// A voice's `pitcheg` and `fileg` (``ShapedEnvelope``), with their depths in cents.
struct ShapedEnvelopes {
    private(set) var isActive = false
    private var pitch = ShapedEnvelope()
    private var cutoff = ShapedEnvelope()
    private var pitchDepth: Float = 0
    private var cutoffDepth: Float = 0

    /// Starts the envelopes `shaping` names for a note at `velocity`, or leaves them off.
    mutating func start(_ shaping: VoiceShaping?, velocity: Int, rate: Double) {
        self = ShapedEnvelopes()
        let v = Float(velocity) / 127
        if let shape = shaping?.pitchEnvelope {
            pitch.start(shape, velocity: velocity, rate: rate)
            pitchDepth = shape.depth + v * shape.velocityToDepth
            isActive = true
        }
        if let shape = shaping?.filterEnvelope {
            cutoff.start(shape, velocity: velocity, rate: rate)
            cutoffDepth = shape.depth + v * shape.velocityToDepth
            isActive = true
        }
    }

    var isSteady: Bool { pitch.isSteady && cutoff.isSteady }

    mutating func advance(_ frames: Int) {
        pitch.advance(frames)
        cutoff.advance(frames)
    }

    mutating func release() {
        pitch.release()
        cutoff.release()
    }

    /// Cents of pitch and of cutoff `frames` frames from now.
    func ahead(_ frames: Int) -> (pitch: Float, cutoff: Float) {
        var p = pitch, c = cutoff
        p.advance(frames)
        c.advance(frames)
        return (p.value * pitchDepth, c.value * cutoffDepth)
    }
}
