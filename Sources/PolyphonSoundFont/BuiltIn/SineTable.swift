/// A 4096-point sine table with linear interpolation, for the time-domain one-shots (drums,
/// effects), where calling a polynomial sine for every partial of every point would blow the
/// bank's generation budget. Accurate to about −100 dB, below 16-bit resolution.
enum SineTable {
    static let size = 4096
    private static let table: [Double] = (0...size).map { PortableMath.sin(PortableMath.twoPi * Double($0) / Double(size)) }

    /// sin(2π·phase) for a phase in cycles (any real value).
    @inline(__always)
    static func value(cycles phase: Double) -> Double {
        let p = (phase - phase.rounded(.down)) * Double(size)
        let i = Int(p)
        let f = p - Double(i)
        return table[i] + (table[i + 1] - table[i]) * f
    }
}
