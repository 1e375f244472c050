import PolyphonMath
import PolyphonSoundFont

/// e^−x for x ≥ 0 from a table (step 1/128, linear interpolation, error below 1e-5 of the
/// value): the decays of drums and the Gaussian profiles of wide partials need millions of
/// them, and a table keeps the bank inside its generation budget.
enum DecayTable {
    private static let step = 1.0 / 128
    private static let table: [Double] = (0...128 * 40).map { PortableMath.exp(-Double($0) / 128) }

    /// e^−x (0 beyond x = 40, where it is below 5e-18).
    @inline(__always)
    static func value(_ x: Double) -> Double {
        guard x < 40 else { return 0 }
        let p = max(0, x) * 128
        let i = Int(p)
        let f = p - Double(i)
        return table[i] + (table[i + 1] - table[i]) * f
    }
}
