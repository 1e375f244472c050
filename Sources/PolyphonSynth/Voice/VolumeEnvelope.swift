/// The SF2 volume envelope: delay → attack → hold → decay → sustain → release.
///
/// The attack rises linearly in amplitude; every later stage moves linearly in decibels over a
/// 96 dB range (FluidSynth's model): ``value`` is then a normalised level where 1 is full scale
/// and 0 is −96 dB. Stage times are exact to the frame rather than rounded to blocks, so the
/// voice can evaluate the envelope at any control point.
struct VolumeEnvelope {
    typealias Stage = EnvelopeStage

    private(set) var stage: Stage = .finished
    /// Attack: linear amplitude 0…1. Later stages: normalised dB level 0…1.
    private(set) var value: Float = 0
    /// Frames left in the current timed stage (delay, attack, hold).
    private var remaining: Double = 0

    private var delayFrames: Double = 0
    private var attackFrames: Double = 0
    private var holdFrames: Double = 0
    /// Level change per frame in the decay and release stages (full scale per stage time).
    private var decayRate: Float = 0
    private var releaseRate: Float = 0
    private(set) var sustainLevel: Float = 1
    /// The level the delay holds and the attack rises from (SFZ `ampeg_start`; 0 for SF2).
    private var startLevel: Float = 0

    /// Sets the stage times (in frames) and the sustain attenuation, then starts the delay
    /// stage. A `startLevel` above 0 (sfizz's `ampeg_start`) is held through the delay, and the
    /// attack rises from it at its usual slope, reaching full level sooner.
    mutating func start(delay: Double, attack: Double, hold: Double, decay: Double,
                        sustainCentibels: Float, release: Double, startLevel: Float = 0) {
        self.startLevel = startLevel
        delayFrames = delay
        attackFrames = attack
        holdFrames = hold
        decayRate = decay > 0 ? Float(1 / decay) : 1
        releaseRate = release > 0 ? Float(1 / release) : 1
        sustainLevel = max(0, min(1, 1 - sustainCentibels / 960))
        value = startLevel
        stage = .delay
        remaining = delayFrames
        skipEmptyStages()
    }

    /// New stage times (frames) and sustain while the envelope runs (SFZ `ampeg_dynamic`, sfizz's
    /// `ADSREnvelope::updateValues`): the running stage goes on from its level at its new pace —
    /// the attack's rest takes (1 − level) × attack, a delay or hold counts its new length from
    /// where it began, and a sustain lowered below the level is reached at the decay's pace.
    /// (sfizz_render restarts a dynamic delay or hold each 16 frames, so they never end; the
    /// envelope does not copy that.)
    mutating func retime(_ frames: StageFrames, sustainCentibels: Float) {
        switch stage {
        case .delay: remaining += frames.delay - delayFrames
        case .attack: remaining = Double(1 - value) * frames.attack
        case .hold: remaining += frames.hold - holdFrames
        default: break
        }
        delayFrames = frames.delay
        attackFrames = frames.attack
        holdFrames = frames.hold
        decayRate = frames.decay > 0 ? Float(1 / frames.decay) : 1
        releaseRate = frames.release > 0 ? Float(1 / frames.release) : 1
        sustainLevel = max(0, min(1, 1 - sustainCentibels / 960))
        if stage == .sustain && value > sustainLevel { stage = .decay }
        skipEmptyStages()
    }

    /// Release time may change until note-off (modulators on generator 38).
    mutating func setRelease(frames: Double) {
        releaseRate = frames > 0 ? Float(1 / frames) : 1
    }

    /// How much ``value`` falls per frame in the decay and release stages (0 in the others).
    var levelFallPerFrame: Float {
        switch stage {
        case .decay: return decayRate
        case .release: return releaseRate
        default: return 0
        }
    }

    /// True when the level is on the dB scale (after the attack).
    var isLogarithmic: Bool { stage.rawValue > Stage.attack.rawValue }

    /// Enters the release stage from wherever the envelope is, without a jump in level.
    /// `attackLevelOffsetCB` is the extra attenuation (mod LFO) applied during the attack, so
    /// the converted level matches what is heard.
    mutating func release() {
        switch stage {
        case .release, .finished:
            return
        case .delay:
            value = 0
        case .attack:
            // Map the linear attack amplitude onto the dB scale the release runs on.
            if value > 0 {
                let db = 20 * Math.log10(value)  // ≤ 0
                value = max(0, min(1, 1 + db / 96))
            } else {
                value = 0
            }
        default:
            break
        }
        stage = .release
        if value <= 0 { stage = .finished; value = 0 }
    }

    /// Advances the envelope by `frames` and returns nothing; read ``value`` and ``stage``.
    @inline(__always)
    mutating func advance(_ frames: Int) {
        var left = Double(frames)
        while left > 0 {
            switch stage {
            case .delay, .hold:
                if remaining > left { remaining -= left; return }
                left -= remaining
                stage = stage == .delay ? .attack : .decay
                if stage == .attack { remaining = attackFrames * Double(1 - startLevel); value = startLevel } else { value = 1 }
                skipEmptyStages()
            case .attack:
                let step = attackFrames > 0 ? Float(left / attackFrames) : 1
                if remaining > left {
                    remaining -= left
                    value = min(1, value + step)
                    return
                }
                left -= remaining
                value = 1
                stage = .hold
                remaining = holdFrames
                skipEmptyStages()
            case .decay:
                let target = sustainLevel
                // The common case (still above the sustain level after `left`) needs no division.
                let next = value - decayRate * Float(left)
                if next > target {
                    value = next
                    return
                }
                left -= max(Double((value - target) / decayRate), 0)
                value = target
                stage = .sustain
            case .sustain:
                return
            case .release:
                let next = value - releaseRate * Float(left)
                if next > 0 {
                    value = next
                    return
                }
                value = 0
                stage = .finished
                return
            case .finished:
                return
            }
        }
    }

    /// Zero-length timed stages are passed through at once so a 0 s attack starts at full level.
    private mutating func skipEmptyStages() {
        while true {
            switch stage {
            case .delay where remaining <= 0:
                stage = .attack
                remaining = attackFrames * Double(1 - startLevel)
                value = startLevel
            case .attack where remaining <= 0:
                stage = .hold
                remaining = holdFrames
                value = 1
            case .hold where remaining <= 0:
                stage = .decay
                value = 1
            default:
                return
            }
        }
    }

    /// Amplitude factor of the envelope alone, with `extraCentibels` of attenuation applied on
    /// the dB scale (initial attenuation, mod LFO): what the voice multiplies samples by.
    @inline(__always)
    func amplitude(extraCentibels: Float) -> Float {
        switch stage {
        case .finished: return 0
        case .delay: return value > 0 ? value * Units.centibelsToAmplitude(extraCentibels) : 0
        case .attack: return value * Units.centibelsToAmplitude(extraCentibels)
        default: return Units.centibelsToAmplitude(extraCentibels + 960 * (1 - value))
        }
    }
}
