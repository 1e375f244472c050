import PolyphonSoundFontCore

/// An LFO of sfizz's (``LFOShape``: SFZ's `amplfo_*`, `pitchlfo_*`, `fillfo_*`): its waves with
/// its formulas — the sine is its parabola −4x(1 − |x|), x = 2·phase − 1 — starting at phase 0
/// after the delay and faded in linearly. Read at control points, in closed form.
struct ShapedLFO {
    private var wave = LFOShape.Wave.sine
    /// Cycles per frame.
    private var step: Double = 0
    private var phase: Double = 0
    private var onset = LFOOnset()
    private(set) var depth: Float = 0

    init() {}

    init(_ shape: LFOShape, rate: Double) {
        wave = shape.wave
        step = Double(max(shape.frequency, 0)) / rate
        depth = shape.depth
        onset = LFOOnset(delay: shape.delay, fade: shape.fade, rate: rate)
    }

    mutating func advance(_ frames: Int) {
        let n = onset.advance(frames)
        guard n > 0 else { return }
        phase += step * Double(n)
        phase -= phase.rounded(.down)
    }

    /// The output now, in the target's unit.
    var value: Float {
        guard !onset.isDelaying else { return 0 }
        return wave.value(at: Float(phase)) * Float(onset.fade) * depth
    }
}

extension LFOShape.Wave {
    /// The wave at `phase` (0…1), with sfizz's formulas; 0 for sample-and-hold, whose value the
    /// LFO holds itself.
    @inline(__always)
    func value(at p: Float) -> Float {
        switch self {
        case .triangle: p < 0.25 ? 4 * p : p > 0.75 ? 4 * p - 4 : 2 - 4 * p
        case .sine: -4 * (p + p - 1) * (1 - abs(p + p - 1))
        case .pulse75: p < 0.75 ? 1 : 0
        case .square: p < 0.5 ? 1 : 0
        case .pulse25: p < 0.25 ? 1 : 0
        case .pulse12_5: p < 0.125 ? 1 : 0
        case .ramp: 2 * p - 1
        case .saw: 1 - 2 * p
        case .sampleAndHold: 0
        }
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
