import PolyphonSoundFont

/// SplitMix64: a tiny fixed-seed generator, so the built-in bank's noise and phases are the
/// same on every run and platform (the system generator is neither seeded nor portable).
struct SeededRandom {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<1 (53 random bits).
    mutating func unit() -> Double { Double(next() >> 11) * (1.0 / 9_007_199_254_740_992) }

    /// Uniform in −1..<1: white noise.
    mutating func bipolar() -> Double { unit() * 2 - 1 }
}
