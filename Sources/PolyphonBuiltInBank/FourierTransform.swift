import PolyphonMath
import PolyphonSoundFont

/// A radix-2 complex FFT of one power-of-two size, used backwards to turn a designed spectrum
/// into one period of a seamlessly looping wavetable.
///
/// Twiddle factors come from ``PortableMath`` so the result is the same on every platform.
struct FourierTransform {
    let size: Int
    /// Twiddle factors stage by stage: the stage whose butterflies span 2h points reads its h
    /// factors contiguously from offset h − 1 (so the inner loop walks memory in order).
    private let cosines: [Double]
    private let sines: [Double]
    private let reversed: [Int]

    /// A transform of `size` points; `size` must be a power of two ≥ 2.
    init(size: Int) {
        precondition(size >= 2 && size & (size - 1) == 0, "FFT size must be a power of two")
        self.size = size
        let half = size / 2
        let c = (0..<half).map { PortableMath.cos(PortableMath.twoPi * Double($0) / Double(size)) }
        let s = (0..<half).map { PortableMath.sin(PortableMath.twoPi * Double($0) / Double(size)) }
        var stageCos: [Double] = [], stageSin: [Double] = []
        var h = 1
        while h < size {
            let step = size / (2 * h)
            for k in 0..<h { stageCos.append(c[k * step]); stageSin.append(s[k * step]) }
            h <<= 1
        }
        cosines = stageCos
        sines = stageSin
        var bits = 0
        while 1 << bits < size { bits += 1 }
        reversed = (0..<size).map { i in
            var r = 0, v = i
            for _ in 0..<bits { r = r << 1 | v & 1; v >>= 1 }
            return r
        }
    }

    /// Two real signals from their spectra in one complex transform (the second rides in the
    /// imaginary part): `first` and `second` give (magnitude, phase in cycles) per bin for bins
    /// 1..<size/2 (bin 0, DC, is left empty). Bin k completes k cycles in `size` points, so both
    /// signals repeat exactly every `size` points.
    func realSignals(first: (magnitudes: [Double], phases: [Double]),
                     second: (magnitudes: [Double], phases: [Double])?) -> ([Double], [Double]) {
        var re = [Double](repeating: 0, count: size), im = [Double](repeating: 0, count: size)
        for k in 1..<size / 2 {
            var ar = 0.0, ai = 0.0, br = 0.0, bi = 0.0
            if k < first.magnitudes.count, first.magnitudes[k] != 0 {
                ar = first.magnitudes[k] * SineTable.value(cycles: first.phases[k] + 0.25)
                ai = first.magnitudes[k] * SineTable.value(cycles: first.phases[k])
            }
            if let second, k < second.magnitudes.count, second.magnitudes[k] != 0 {
                br = second.magnitudes[k] * SineTable.value(cycles: second.phases[k] + 0.25)
                bi = second.magnitudes[k] * SineTable.value(cycles: second.phases[k])
            }
            // X[k] = A[k] + i·B[k] and X[n−k] = conj(A[k]) + i·conj(B[k]): the inverse is a + i·b.
            re[k] = ar - bi; im[k] = ai + br
            re[size - k] = ar + bi; im[size - k] = br - ai
        }
        inverse(&re, &im)
        return (re, im)
    }

    /// In-place inverse transform (unscaled).
    func inverse(_ re: inout [Double], _ im: inout [Double]) {
        let n = size
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { m in
                for i in 0..<n {
                    let j = reversed[i]
                    if j > i { r.swapAt(i, j); m.swapAt(i, j) }
                }
                cosines.withUnsafeBufferPointer { cs in
                    sines.withUnsafeBufferPointer { sn in
                        var length = 2
                        while length <= n {
                            let half = length / 2, base = half - 1
                            var start = 0
                            while start < n {
                                for j in 0..<half {
                                    // Inverse transform: twiddle e^{+iθ}.
                                    let k = start + j
                                    let wr = cs[base + j], wi = sn[base + j]
                                    let xr = r[k + half] * wr - m[k + half] * wi
                                    let xi = r[k + half] * wi + m[k + half] * wr
                                    r[k + half] = r[k] - xr; m[k + half] = m[k] - xi
                                    r[k] += xr; m[k] += xi
                                }
                                start += length
                            }
                            length <<= 1
                        }
                    }
                }
            }
        }
    }
}
