/// The SF2 modulation envelope: delay → attack (convex) → hold → decay → sustain → release,
/// all in a 0…1 value that scales modEnvToPitch / modEnvToFilterFc.
struct ModulationEnvelope {
    typealias Stage = EnvelopeStage

    private(set) var stage: Stage = .finished
    /// The envelope's output, 0…1.
    private(set) var value: Float = 0
    /// Linear progress through the attack, shaped by the convex curve into ``value``.
    private var attackProgress: Float = 0
    private var remaining: Double = 0
    private var attackFrames: Double = 0
    private var holdFrames: Double = 0
    private var decayRate: Float = 1
    private var releaseRate: Float = 1
    private var sustainLevel: Float = 1

    mutating func start(delay: Double, attack: Double, hold: Double, decay: Double,
                        sustainPermille: Float, release: Double) {
        attackFrames = attack
        holdFrames = hold
        decayRate = decay > 0 ? Float(1 / decay) : 1
        releaseRate = release > 0 ? Float(1 / release) : 1
        sustainLevel = max(0, min(1, 1 - sustainPermille / 1000))
        value = 0
        attackProgress = 0
        stage = .delay
        remaining = delay
        skipEmptyStages()
    }

    /// The fastest the value can fall per frame from the current stage on (the decay's rate
    /// until the sustain is reached, the release's after), for how far a cutoff it drives may
    /// move in a given time. The attack rises, but only before this is asked.
    var fastestFall: Float {
        switch stage {
        case .finished: return 0
        case .sustain, .release: return value > 0 ? releaseRate : 0
        case .delay, .attack, .hold, .decay: return max(sustainLevel < 1 ? decayRate : 0, releaseRate)
        }
    }

    /// True while the value holds still until a note-off (the sustain) or for good.
    var isSteady: Bool { stage.isSteady }

    mutating func setRelease(frames: Double) {
        releaseRate = frames > 0 ? Float(1 / frames) : 1
    }

    mutating func release() {
        guard stage != .release && stage != .finished else { return }
        stage = .release
        if value <= 0 { stage = .finished; value = 0 }
    }

    @inline(__always)
    mutating func advance(_ frames: Int) {
        var left = Double(frames)
        while left > 0 {
            switch stage {
            case .delay, .hold:
                if remaining > left { remaining -= left; return }
                left -= remaining
                if stage == .delay {
                    stage = .attack
                    remaining = attackFrames
                    attackProgress = 0
                    value = 0
                } else {
                    stage = .decay
                    value = 1
                }
                skipEmptyStages()
            case .attack:
                if remaining > left {
                    remaining -= left
                    attackProgress = min(1, attackProgress + Float(left / attackFrames))
                    value = Self.convex(attackProgress)
                    return
                }
                left -= remaining
                value = 1
                stage = .hold
                remaining = holdFrames
                skipEmptyStages()
            case .decay:
                let needed = Double((value - sustainLevel) / decayRate)
                if needed > left { value -= decayRate * Float(left); return }
                left -= max(needed, 0)
                value = sustainLevel
                stage = .sustain
            case .sustain, .finished:
                return
            case .release:
                let needed = Double(value / releaseRate)
                if needed > left { value -= releaseRate * Float(left); return }
                value = 0
                stage = .finished
                return
            }
        }
    }

    private mutating func skipEmptyStages() {
        while true {
            switch stage {
            case .delay where remaining <= 0:
                stage = .attack; remaining = attackFrames; attackProgress = 0; value = 0
            case .attack where remaining <= 0:
                stage = .hold; remaining = holdFrames; value = 1
            case .hold where remaining <= 0:
                stage = .decay; value = 1
            default:
                return
            }
        }
    }

    /// The SF2 convex curve on a continuous 0…1 input: 1 + (400/960)·log10(x), clamped.
    @inline(__always)
    static func convex(_ x: Float) -> Float {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        return max(0, 1 + (400.0 / 960.0) * Math.log10(x))
    }
}
