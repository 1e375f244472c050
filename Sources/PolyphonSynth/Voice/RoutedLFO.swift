import PolyphonSoundFontCore

/// A voice's SFZ v2 LFO (``RoutedLFOShape``) as sfizz plays it: each wave's phase runs at its
/// ratio of the LFO's frequency from the LFO's starting phase, the waves are summed as
/// `offset + scale × wave`, nothing comes out during the delay and the sum fades in linearly
/// after it. Sample-and-hold takes a new random value (−1…1) each half cycle. A step sequence
/// (`lfoN_stepX`) plays in place of the first wave: step ⌊phase × steps⌋ at its phase, scaled
/// and offset as it is. After `count` cycles the LFO stops (sfizz does not
/// implement `lfoN_count`).
///
/// Fixed-size state, read at control points in closed form from the cycles since the delay.
struct RoutedLFO {
    private var waveCount = 0
    private var waves = SIMD8<UInt8>(repeating: 0)
    private var offsets = SIMD8<Float>(repeating: 0)
    private var ratios = SIMD8<Float>(repeating: 1)
    private var scales = SIMD8<Float>(repeating: 1)
    /// Sample-and-hold: the value held by each wave and the half cycle it was taken in.
    private var held = SIMD8<Float>(repeating: 0)
    private var heldHalf = SIMD8<Float>(repeating: 0)
    private var random: UInt64 = 1
    /// Steps of the sequence played in place of the first wave (0: none); their values stay
    /// in the shape, the one playing (``stepIndex``) passed to ``value(step:)``.
    private var stepCount = 0
    private var startPhase: Double = 0
    /// Cycles at the LFO's own frequency since the delay ended.
    private var cycles: Double = 0
    /// Cycles per frame.
    private var step: Double = 0
    private var onset = LFOOnset()
    /// Cycles after which the LFO stops (0: never).
    private var count: Double = 0

    init() {}

    /// Starts `shape` at `frequency` Hz from `phase` after `delay` seconds, fading in over
    /// `fade` seconds (its controllers already added); `seed` picks its random values.
    init(_ shape: RoutedLFOShape, frequency: Float, phase: Float, delay: Float, fade: Float, rate: Double,
         seed: UInt64) {
        waveCount = min(shape.waves.count, RoutedLFOShape.waveLimit)
        for i in 0..<waveCount {
            let wave = shape.waves[i]
            waves[i] = wave.wave.rawValue
            offsets[i] = wave.offset
            ratios[i] = wave.ratio
            scales[i] = wave.scale
        }
        stepCount = waveCount > 0 ? min(shape.steps.count, RoutedLFOShape.stepLimit) : 0
        startPhase = Self.wrapped(phase)
        step = Double(frequency) / rate
        onset = LFOOnset(delay: delay, fade: fade, rate: rate)
        count = Double(max(shape.count, 0))
        // splitmix64 of the seed: a different, never-zero xorshift state per voice and LFO.
        var z = seed &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        random = (z ^ (z >> 31)) | 1
        // sfizz's hold starts at 0 in the first half cycle; a start in the second takes a value.
        heldHalf = SIMD8(repeating: 0)
        holdNewValues()
    }

    /// A change of frequency (its controllers moved), from now on.
    mutating func setFrequency(_ frequency: Float, rate: Double) {
        step = Double(frequency) / rate
    }

    /// A change of phase offset (`lfoN_phase_onccN` moved), from now on.
    mutating func setPhase(_ phase: Float) {
        startPhase = Self.wrapped(phase)
        holdNewValues()
    }

    private static func wrapped(_ phase: Float) -> Double {
        Double(phase) - Double(phase).rounded(.down)
    }

    mutating func advance(_ frames: Int) {
        let n = onset.advance(frames)
        guard n > 0 else { return }
        cycles += step * Double(n)
        holdNewValues()
    }

    /// Takes a new random value for every sample-and-hold wave that entered another half cycle.
    private mutating func holdNewValues() {
        for i in 0..<waveCount where waves[i] == LFOShape.Wave.sampleAndHold.rawValue {
            let half = Float((2 * (Double(ratios[i]) * cycles + startPhase)).rounded(.down))
            if half != heldHalf[i] {
                heldHalf[i] = half
                random ^= random << 13
                random ^= random >> 7
                random ^= random << 17
                held[i] = Float(random >> 40) / Float(1 << 23) - 1
            }
        }
    }

    /// True when it plays a step sequence.
    var playsSteps: Bool { stepCount > 0 }

    /// The step of the sequence playing now: ⌊phase × steps⌋ of the first wave's phase.
    var stepIndex: Int {
        let phase = Double(ratios[0]) * cycles + startPhase
        return min(max(Int((phase - phase.rounded(.down)) * Double(stepCount)), 0), max(stepCount - 1, 0))
    }

    /// The sum of the waves now, the first replaced by `step` (the value of step
    /// ``stepIndex``) when it plays a sequence; 0 during the delay and after the last cycle.
    func value(step: Float) -> Float {
        guard !onset.isDelaying, count == 0 || cycles < count else { return 0 }
        var sum: Float = 0
        var first = 0
        if stepCount > 0 {
            sum = offsets[0] + scales[0] * step
            first = 1
        }
        for i in first..<waveCount {
            let wave = LFOShape.Wave(rawValue: waves[i]) ?? .triangle
            let y: Float
            if wave == .sampleAndHold {
                y = held[i]
            } else {
                let phase = Double(ratios[i]) * cycles + startPhase
                y = wave.value(at: Float(phase - phase.rounded(.down)))
            }
            sum += offsets[i] + scales[i] * y
        }
        return sum * Float(onset.fade)
    }
}
