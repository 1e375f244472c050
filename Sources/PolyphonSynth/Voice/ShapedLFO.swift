import PolyphonSoundFontCore

/// An LFO of sfizz's (``LFOShape``: SFZ's `amplfo_*`, `pitchlfo_*`, `fillfo_*`): its waves with
/// its formulas — the sine is its parabola −4x(1 − |x|), x = 2·phase − 1 — starting at phase 0
/// after the delay and faded in linearly. Read at control points, in closed form.
struct ShapedLFO {
    private var wave = LFOShape.Wave.sine
    /// Cycles per frame.
    private var step: Double = 0
    private var phase: Double = 0
    private var delayFrames = 0
    /// Fade-in progress 0…1 and its step per frame.
    private var fade: Double = 1
    private var fadeStep: Double = 0
    private(set) var depth: Float = 0

    init() {}

    init(_ shape: LFOShape, rate: Double) {
        wave = shape.wave
        step = Double(max(shape.frequency, 0)) / rate
        depth = shape.depth
        // An SFZ may give any finite delay (`pitchlfo_delay=1e30`); beyond Int32.max frames (over
        // 13 hours) the LFO never starts anyway, and the conversion to Int must not trap.
        delayFrames = shape.delay > 0 ? Int(min(Double(shape.delay) * rate, Double(Int32.max)).rounded(.up)) : 0
        fade = shape.fade > 0 ? 0 : 1
        fadeStep = shape.fade > 0 ? 1 / (Double(shape.fade) * rate) : 0
    }

    mutating func advance(_ frames: Int) {
        var n = frames
        if delayFrames > 0 {
            let skipped = min(n, delayFrames)
            delayFrames -= skipped
            n -= skipped
        }
        guard n > 0 else { return }
        phase += step * Double(n)
        phase -= phase.rounded(.down)
        if fade < 1 { fade = min(1, fade + fadeStep * Double(n)) }
    }

    /// The output now, in the target's unit.
    var value: Float {
        guard delayFrames == 0 else { return 0 }
        let p = Float(phase)
        let y: Float
        switch wave {
        case .triangle: y = p < 0.25 ? 4 * p : p > 0.75 ? 4 * p - 4 : 2 - 4 * p
        case .sine:
            let x = p + p - 1
            y = -4 * x * (1 - abs(x))
        case .pulse75: y = p < 0.75 ? 1 : 0
        case .square: y = p < 0.5 ? 1 : 0
        case .pulse25: y = p < 0.25 ? 1 : 0
        case .pulse12_5: y = p < 0.125 ? 1 : 0
        case .ramp: y = 2 * p - 1
        case .saw: y = 1 - 2 * p
        }
        return y * Float(fade) * depth
    }
}

/// A voice's `amplfo`, `pitchlfo` and `fillfo` (``ShapedLFO``).
struct ShapedLFOs {
    private(set) var isActive = false
    private var volume = ShapedLFO()
    private var pitch = ShapedLFO()
    private var cutoff = ShapedLFO()

    /// Starts the LFOs `shaping` names, or leaves them off.
    mutating func start(_ shaping: VoiceShaping?, rate: Double) {
        self = ShapedLFOs()
        guard let shaping else { return }
        if let shape = shaping.volumeLFO { volume = ShapedLFO(shape, rate: rate) }
        if let shape = shaping.pitchLFO { pitch = ShapedLFO(shape, rate: rate) }
        if let shape = shaping.filterLFO { cutoff = ShapedLFO(shape, rate: rate) }
        isActive = shaping.volumeLFO != nil || shaping.pitchLFO != nil || shaping.filterLFO != nil
    }

    mutating func advance(_ frames: Int) {
        volume.advance(frames)
        pitch.advance(frames)
        cutoff.advance(frames)
    }

    /// dB of volume, cents of pitch and of cutoff `frames` frames from now.
    func ahead(_ frames: Int) -> (volume: Float, pitch: Float, cutoff: Float) {
        var v = volume, p = pitch, c = cutoff
        v.advance(frames)
        p.advance(frames)
        c.advance(frames)
        return (v.value, p.value, c.value)
    }
}
