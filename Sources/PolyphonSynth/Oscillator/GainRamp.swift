/// A linear gain ramp across a control period. Each frame's gain is computed from its index
/// rather than accumulated, so frames can be computed in any grouping with the same result
/// and without a loop-carried addition.
struct GainRamp: Equatable {
    /// Start and step side by side, written and read as one 8-byte value: written as two
    /// floats at a control point and read back as one pair when the oscillator starts, they
    /// missed store-to-load forwarding (a stall of a dozen cycles per voice and period).
    private var pair = SIMD2<Float>.zero
    var start: Float { pair.x }
    var step: Float { pair.y }
    /// Frames of the ramp already rendered.
    var index = 0

    init() {}

    init(start: Float, step: Float, index: Int) {
        pair = SIMD2(start, step)
        self.index = index
    }

    @inline(__always)
    var current: Float { start + step * Float(index) }
}
