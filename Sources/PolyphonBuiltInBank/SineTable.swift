import PolyphonMath
import PolyphonSoundFont

/// A 4096-point sine table with linear interpolation, for the time-domain one-shots (drums,
/// effects), where calling a polynomial sine for every partial of every point would blow the
/// bank's generation budget. Accurate to about −100 dB, below 16-bit resolution.
enum SineTable {
    static let size = 4096
    private static let table: [Double] = (0...size).map { PortableMath.sin(PortableMath.twoPi * Double($0) / Double(size)) }

    /// sin(2π·phase) for a phase in cycles (any real value).
    @inline(__always)
    static func value(cycles phase: Double) -> Double {
        // Truncation instead of `rounded(.down)`, which is a libm call on baseline x86-64.
        var fraction = phase - Double(Int(phase))
        if fraction < 0 { fraction += 1 }
        let p = fraction * Double(size)
        let i = min(Int(p), size - 1)
        let f = p - Double(i)
        return table[i] + (table[i + 1] - table[i]) * f
    }
}
