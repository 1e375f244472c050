import PolyphonSoundFontCore

/// A voice's SFZ v2 flex envelope (``FlexEnvelopeShape``) as sfizz's FlexEnvelope plays it:
/// from level 0 a segment to each point in turn, `level = from + curve(x) × (to − from)` with
/// x the fraction of the point's time gone (a stage of time T lasts ⌈T × rate⌉ frames, a stage
/// of no time jumps to its level); the sustain point holds until release, which skips to the
/// point after it; past the last point the output is 0 and the envelope is finished.
///
/// Fixed-size state (``FlexEnvelopeShape/pointLimit`` points), advanced in closed form.
struct FlexEnvelope {
    /// Each point's time in frames and level, its controllers added.
    private var times = SIMD8<Float>(repeating: 0)
    private var levels = SIMD8<Float>(repeating: 0)
    private var shapes = SIMD8<Float>(repeating: 0)
    private var pointCount = 0
    private var sustain = 0
    /// The point the envelope is heading for (≥ pointCount: finished).
    private var stage = 0
    private var framesInStage: Double = 0
    private var stageFrames: Double = 0
    private var from: Float = 0
    private var to: Float = 0
    private var shape: Float = 0
    private var isReleased = false
    private(set) var value: Float = 0

    init() {}

    /// Starts through `pointCount` points of `levels`, `seconds` and `shapes`, holding at `sustain`.
    init(levels: SIMD8<Float>, seconds: SIMD8<Float>, shapes: SIMD8<Float>, pointCount: Int, sustain: Int,
         rate: Double) {
        self.pointCount = min(pointCount, FlexEnvelopeShape.pointLimit)
        self.sustain = sustain
        self.shapes = shapes
        setPoints(levels: levels, seconds: seconds, rate: rate, currentStageToo: false)
        enter(0)
    }

    var isFinished: Bool { stage >= pointCount }

    /// New point levels and times (controllers moved): the coming stages take them, and the
    /// current one too when `currentStageToo` (`egN_dynamic`).
    mutating func setPoints(levels: SIMD8<Float>, seconds: SIMD8<Float>, rate: Double, currentStageToo: Bool) {
        self.levels = levels
        times = (seconds * Float(rate)).replacing(with: 0, where: seconds .< 0)
        if currentStageToo && !isFinished {
            to = self.levels[stage]
            stageFrames = Double(times[stage])
        }
    }

    mutating func release() {
        isReleased = true
    }

    private mutating func enter(_ point: Int) {
        stage = point
        guard point < pointCount else { value = 0; return }
        from = value
        to = levels[point]
        shape = shapes[point]
        stageFrames = Double(times[point])
        framesInStage = 0
    }

    mutating func advance(_ frames: Int) {
        var left = Double(frames)
        while true {
            if isFinished { value = 0; return }
            if isReleased && stage <= sustain { enter(sustain + 1); continue }
            let holds = stage == sustain && !isReleased
            let end = holds ? Double.infinity : stageFrames.rounded(.up)
            if framesInStage >= end {
                if stageFrames <= 0 { value = to }
                enter(stage + 1)
                continue
            }
            guard left > 0 else { return }
            let taken = min(left, end - framesInStage)
            framesInStage += taken
            left -= taken
            value = level(at: framesInStage)
        }
    }

    private func level(at frames: Double) -> Float {
        let x = stageFrames > 0 ? Float(min(frames / stageFrames, 1)) : 1
        let curved: Float
        if shape > 0 {
            curved = Float(Math.pow(Double(x), Double(1 + shape)))
        } else if shape < 0 {
            curved = 1 - Float(Math.pow(Double(1 - x), Double(1 - shape)))
        } else {
            curved = x
        }
        return from + curved * (to - from)
    }
}
