/// Adds eight mono signals, each with its own left and right gain, into a pair of buffers in
/// one pass: one load and store of the pair per four frames instead of one per signal.
///
/// Every frame is summed signal by signal, 0 to 7, just as eight passes of
/// `left[i] += signal[i] * gain.x` would sum it, so the result is the same bit for bit. Unused
/// slots name a silent buffer with zero gains, which add +0.
enum StereoMix {
    static func addEight(_ p: UnsafePointer<UnsafeMutablePointer<Float>>, gains g: UnsafePointer<SIMD2<Float>>,
                         left fl: UnsafeMutablePointer<Float>, right fr: UnsafeMutablePointer<Float>, count: Int) {
        let p0 = p[0], p1 = p[1], p2 = p[2], p3 = p[3], p4 = p[4], p5 = p[5], p6 = p[6], p7 = p[7]
        let g0 = g[0], g1 = g[1], g2 = g[2], g3 = g[3], g4 = g[4], g5 = g[5], g6 = g[6], g7 = g[7]
        @inline(__always) func load(_ q: UnsafeMutablePointer<Float>, _ i: Int) -> SIMD4<Float> {
            UnsafeRawPointer(q + i).loadUnaligned(as: SIMD4<Float>.self)
        }
        @inline(__always) func store(_ v: SIMD4<Float>, _ q: UnsafeMutablePointer<Float>, _ i: Int) {
            UnsafeMutableRawPointer(q + i).storeBytes(of: v, as: SIMD4<Float>.self)
        }
        @inline(__always) func add(_ l: inout SIMD4<Float>, _ r: inout SIMD4<Float>, _ o: SIMD4<Float>, _ g: SIMD2<Float>) {
            l += o * g.x
            r += o * g.y
        }
        var i = 0
        while i &+ 4 <= count {
            var l = load(fl, i), r = load(fr, i)
            add(&l, &r, load(p0, i), g0); add(&l, &r, load(p1, i), g1)
            add(&l, &r, load(p2, i), g2); add(&l, &r, load(p3, i), g3)
            add(&l, &r, load(p4, i), g4); add(&l, &r, load(p5, i), g5)
            add(&l, &r, load(p6, i), g6); add(&l, &r, load(p7, i), g7)
            store(l, fl, i); store(r, fr, i)
            i &+= 4
        }
        while i < count {
            var l = fl[i], r = fr[i]
            for k in 0..<8 {
                l += p[k][i] * g[k].x
                r += p[k][i] * g[k].y
            }
            fl[i] = l; fr[i] = r
            i += 1
        }
    }
}
