/// A triangle low-frequency oscillator that starts at 0 after its delay and rises first
/// (SF2 2.04 §8.1.2, generators 21–24), as FluidSynth's.
struct LFO {
    private var delayRemaining: Double = 0
    /// Phase in cycles, 0…1.
    private var phase: Double = 0
    private var increment: Double = 0
    /// Current output, −1…1.
    private(set) var value: Float = 0

    mutating func start(delayFrames: Double, frequency: Double, sampleRate: Double) {
        delayRemaining = delayFrames
        phase = 0
        increment = frequency / sampleRate
        value = 0
    }

    @inline(__always)
    mutating func advance(_ frames: Int) {
        var left = Double(frames)
        if delayRemaining > 0 {
            if delayRemaining >= left { delayRemaining -= left; return }
            left -= delayRemaining
            delayRemaining = 0
        }
        phase += increment * left
        if phase >= 1 { phase -= Double(Int(phase)) }
        value = Self.triangle(phase)
    }

    @inline(__always)
    static func triangle(_ p: Double) -> Float {
        // 0 → 1 at ¼, → 0 at ½, → −1 at ¾, → 0 at 1.
        if p < 0.25 { return Float(4 * p) }
        if p < 0.75 { return Float(2 - 4 * p) }
        return Float(4 * p - 4)
    }
}
