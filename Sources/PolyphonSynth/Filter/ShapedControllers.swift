import PolyphonSoundFontCore

/// The controllers moving a voice's shaped filters and equaliser bands
/// (``ControllerModulationShape``), as sfizz's controller sources move them: the controller's
/// value (0…1; the pitch wheel −1…1) read through the input's curve, times its depth, truncated
/// to a multiple of its step, then followed linearly — a change reaching its new value after
/// the smoothing time (at least 16 frames), as sfizz's linear smoother does.
///
/// One set follows the filters' and bands' targets, another the voice's own (``Group``).
/// Targets are read by slot: filter `i`'s cutoff (cents), resonance and gain (dB) at 3·i …
/// 3·i + 2, equaliser band `j`'s frequency (Hz), width (octaves) and gain (dB) at 6 + 3·j …;
/// the voice's volume (dB), pan (percent) and pitch (cents, with the bend's two sides) at 0, 1, 2.
/// At most ``capacity`` inputs play; state lives in fixed vectors so nothing allocates while
/// the voice renders.
struct ShapedControllers {
    static let capacity = 16

    /// Which targets a set follows.
    enum Group {
        /// The filters' and equaliser bands' (``ShapedFilterChain``).
        case filterStages
        /// The voice's volume, pan and pitch (``ShapedVoiceControllers``).
        case voice
    }

    private var inputs: [ControllerModulationShape] = []
    /// Each input's value (depth × curve, stepped) now, where it is going and its change per frame.
    private var current = SIMD16<Float>(repeating: 0)
    private var target = SIMD16<Float>(repeating: 0)
    private var stepPerFrame = SIMD16<Float>(repeating: 0)
    /// Frames a change of each input takes (0 or 1: at once).
    private var smoothingFrames = SIMD16<Float>(repeating: 0)
    private var slots = SIMD16<Int32>(repeating: 0)
    /// Which of `inputs` each kept input is (an input whose slot is out of range is skipped).
    private var sources = SIMD16<Int32>(repeating: 0)
    private var count = 0

    /// True when the voice has inputs to follow.
    var isActive: Bool { count > 0 }

    /// True when every input has reached its value (nothing moves until the channel changes).
    var isSteady: Bool { current == target }

    /// The slot a target of filter or band `index` reads.
    static func slot(_ target: ControllerModulationShape.Target, index: Int) -> Int {
        switch target {
        case .cutoff: 3 * index
        case .resonance: 3 * index + 1
        case .filterGain: 3 * index + 2
        case .equalizerFrequency: 6 + 3 * index
        case .equalizerBandwidth: 7 + 3 * index
        case .equalizerGain: 8 + 3 * index
        case .volume: 0
        case .pan: 1
        case .pitch, .bendUp, .bendDown: 2
        }
    }

    /// Starts following those of `modulations` that move `group`'s targets for a note, at their
    /// values now (no smoothing at the start, as sfizz resets its smoothers to the controller's value).
    mutating func start(_ modulations: [ControllerModulationShape], _ context: ModulatorEvaluation.Context,
                        outputRate: Double, group: Group = .filterStages) {
        self = ShapedControllers()
        var kept = 0
        for (index, modulation) in modulations.enumerated()
        where kept < Self.capacity && modulation.target.movesVoice == (group == .voice) {
            let slot = Self.slot(modulation.target, index: modulation.index)
            guard (0..<15).contains(slot) else { continue }
            slots[kept] = Int32(slot)
            sources[kept] = Int32(index)
            smoothingFrames[kept] = (modulation.smoothing * 1e-3 * Float(outputRate)).rounded(.towardZero)
            kept += 1
        }
        inputs = modulations
        count = kept
        for i in 0..<count { target[i] = value(of: i, context) }
        current = target
    }

    /// The channel, key or pressure changed: new values for the inputs to reach.
    mutating func update(_ context: ModulatorEvaluation.Context) {
        for i in 0..<count {
            let value = value(of: i, context)
            guard value != target[i] else { continue }
            target[i] = value
            if smoothingFrames[i] < 2 {
                current[i] = value
                stepPerFrame[i] = 0
            } else {
                stepPerFrame[i] = (value - current[i]) / max(16, smoothingFrames[i])
            }
        }
    }

    /// Moves the smoothed inputs on by `frames`.
    mutating func advance(_ frames: Int) {
        guard frames > 0, current != target else { return }
        current = moved(by: frames)
    }

    /// The sum per slot of the inputs as they will be `frames` from now.
    func values(ahead frames: Int) -> SIMD16<Float> {
        let ahead = current == target ? current : moved(by: frames)
        var sums = SIMD16<Float>(repeating: 0)
        for i in 0..<count { sums[Int(slots[i])] += ahead[i] }
        // Bounded inputs, so at most 16 × 10⁶: finite, never ∞ − ∞.
        return sums
    }

    private func moved(by frames: Int) -> SIMD16<Float> {
        let next = current + stepPerFrame * Float(frames)
        // A ramp stops at its target.
        let rising = target .> current
        return next.replacing(with: target, where: (rising .& (next .> target)) .| (.!rising .& (next .< target)))
    }

    /// Input `i`'s value for the channel as it is: the source through the curve, times the
    /// depth, stepped.
    private func value(of i: Int, _ context: ModulatorEvaluation.Context) -> Float {
        let input = inputs[Int(sources[i])]
        var x = Self.sourceValue(input.controller, context)
        // The wheel's side each half of the bend follows.
        if input.target == .bendUp { x = max(x, 0) } else if input.target == .bendDown { x = min(x, 0) }
        var y = x
        // sfizz reads the pitch wheel and channel pressure without a curve.
        if !input.curve.isEmpty && input.controller != 128 && input.controller != 129 {
            let position = min(max(x, 0), 1) * 127
            let index = min(Int(position), 126)
            let fraction = position - Float(index)
            y = input.curve[index] + (input.curve[index + 1] - input.curve[index]) * fraction
        }
        // sfizz steps the note's velocity and key in their own 0…1 (its per-voice sources), a
        // channel's controllers in the target's unit, and those only with a depth above 0 (it
        // divides the step by the depth); the bend's step is in cents whatever its sign.
        let isBend = input.target == .bendUp || input.target == .bendDown
        let isNoteSource = input.controller == 131 || input.controller == 133
        if input.step > 0 && isNoteSource && !isBend { y = (y / input.step).rounded(.towardZero) * input.step }
        var result = y * input.depth
        if input.step > 0 && !isNoteSource && (input.depth > 0 || isBend) {
            result = (result / input.step).rounded(.towardZero) * input.step
        }
        return RoutedModulation.finite(result)
    }

    /// sfizz's value of an SFZ controller number: 7-bit values over 127, the pitch wheel over
    /// 8191 around its centre.
    static func sourceValue(_ controller: Int, _ context: ModulatorEvaluation.Context) -> Float {
        let channel = context.channel
        switch controller {
        case 0...127: return Float(channel.controllers[controller]) / 127
        case 128: return min(max((Float(channel.pitchWheel) - 8192) / 8191, -1), 1)
        case 129: return Float(channel.channelPressure) / 127
        case 130: return Float(channel.polyPressure[min(max(context.key, 0), 127)]) / 127
        case 131: return Float(context.velocity) / 127
        case 133: return Float(context.key) / 127
        default: return 0
        }
    }
}
