/// A radix-2 complex FFT of one power-of-two size, used backwards to turn a designed spectrum
/// into one period of a seamlessly looping wavetable.
///
/// Twiddle factors come from ``PortableMath`` so the result is the same on every platform.
struct FourierTransform {
    let size: Int
    private let cosines: [Double]
    private let sines: [Double]
    private let reversed: [Int]

    /// A transform of `size` points; `size` must be a power of two ≥ 2.
    init(size: Int) {
        precondition(size >= 2 && size & (size - 1) == 0, "FFT size must be a power of two")
        self.size = size
        let half = size / 2
        cosines = (0..<half).map { PortableMath.cos(PortableMath.twoPi * Double($0) / Double(size)) }
        sines = (0..<half).map { PortableMath.sin(PortableMath.twoPi * Double($0) / Double(size)) }
        var bits = 0
        while 1 << bits < size { bits += 1 }
        reversed = (0..<size).map { i in
            var r = 0, v = i
            for _ in 0..<bits { r = r << 1 | v & 1; v >>= 1 }
            return r
        }
    }

    /// The real signal whose spectrum has `magnitudes[k]` and `phases` (radians) at bin k for
    /// k in 1..<size/2 (bin 0, DC, is left empty). Bin k completes k cycles in `size` points,
    /// so the signal repeats exactly every `size` points.
    func realSignal(magnitudes: [Double], phases: [Double]) -> [Double] {
        var re = [Double](repeating: 0, count: size), im = [Double](repeating: 0, count: size)
        for k in 1..<min(size / 2, magnitudes.count) where magnitudes[k] != 0 {
            let c = magnitudes[k] * PortableMath.cos(phases[k]), s = magnitudes[k] * PortableMath.sin(phases[k])
            re[k] = c; im[k] = s
            re[size - k] = c; im[size - k] = -s
        }
        inverse(&re, &im)
        return re
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
                            let half = length / 2, step = n / length
                            var start = 0
                            while start < n {
                                var t = 0
                                for k in start..<start + half {
                                    // Inverse transform: twiddle e^{+iθ}.
                                    let wr = cs[t], wi = sn[t]
                                    let xr = r[k + half] * wr - m[k + half] * wi
                                    let xi = r[k + half] * wi + m[k + half] * wr
                                    r[k + half] = r[k] - xr; m[k + half] = m[k] - xi
                                    r[k] += xr; m[k] += xi
                                    t += step
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
