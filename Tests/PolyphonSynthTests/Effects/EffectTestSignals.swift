import Foundation

/// Deterministic test signals for the effect tests.
enum EffectTestSignals {
    /// Uniform white noise in −amplitude…amplitude from a fixed-seed xorshift generator, so
    /// every run measures the same samples.
    static func noise(_ frames: Int, amplitude: Float = 0.5, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [Float] {
        var state = seed
        return (0..<frames).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let unit = Float(state >> 40) / Float(1 << 24)   // 0..<1
            return (unit * 2 - 1) * amplitude
        }
    }

    /// A sine of `frequency` Hz.
    static func sine(_ frames: Int, frequency: Double, sampleRate: Double, amplitude: Float = 0.5) -> [Float] {
        (0..<frames).map { Float(sin(2 * Double.pi * frequency * Double($0) / sampleRate)) * amplitude }
    }

    /// True when `x` is a subnormal (denormal) float, the range that slows FPUs down.
    static func isSubnormal(_ x: Float) -> Bool {
        x != 0 && abs(x) < Float.leastNormalMagnitude
    }
}
