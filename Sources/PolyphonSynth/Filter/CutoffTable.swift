/// sin ω and 1 − cos ω of the filter cutoff, tabulated over absolute cents for one sample rate,
/// so a control point turns a moving cutoff into coefficients without exp2, sin or cos.
///
/// Entries are 4 cents apart and interpolated linearly (relative error below 3e−7, under Float's
/// own rounding of the coefficients). The range is the filter's: 5 Hz up to 0.45 × the sample
/// rate, as FluidSynth clamps it. 1 − cos ω is computed as 2·sin²(ω/2), exact at low cutoffs.
/// The synthesizer owns the storage; voices hold this value (a pointer and its bounds).
struct CutoffTable {
    static let step: Float = 4
    let minimumCents: Float
    let maximumCents: Float
    private let values: UnsafePointer<SIMD2<Float>>
    private let count: Int

    /// Allocates and fills a table; release it with ``deallocate()``.
    static func make(sampleRate: Double) -> CutoffTable {
        let low = 1200 * Math.log2(5 / 8.175799)
        let high = 1200 * Math.log2(0.45 * sampleRate / 8.175799)
        let count = Int(((high - low) / Double(step)).rounded(.up)) + 2
        let values = UnsafeMutablePointer<SIMD2<Float>>.allocate(capacity: count)
        for i in 0..<count {
            let cents = low + Double(i) * Double(step)
            let hertz = min(8.175799 * Math.pow(2, cents / 1200), 0.45 * sampleRate)
            let omega = 2 * Double.pi * hertz / sampleRate
            let half = Math.sin(omega / 2)
            values[i] = SIMD2(Float(Math.sin(omega)), Float(2 * half * half))
        }
        return CutoffTable(minimumCents: Float(low), maximumCents: Float(high), values: UnsafePointer(values),
                           count: count)
    }

    func deallocate() { UnsafeMutablePointer(mutating: values).deallocate() }

    /// (sin ω, 1 − cos ω) for a cutoff in absolute cents, clamped to the filter's range.
    @inline(__always)
    func lookup(cents: Float) -> SIMD2<Float> {
        // Written so NaN lands on the lowest entry instead of trapping in the Int conversion.
        let c = cents > minimumCents ? (cents < maximumCents ? cents : maximumCents) : minimumCents
        let x = (c - minimumCents) * (1 / Self.step)
        let i = min(Int(x), count - 2)
        let f = x - Float(i)
        let a = values[i], b = values[i + 1]
        return a + (b - a) * f
    }
}
