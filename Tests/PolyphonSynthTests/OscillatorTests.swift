import Foundation
import Testing
@testable import PolyphonSoundFont
@testable import PolyphonSoundFontCore
@testable import PolyphonSynth

@Suite("Oscillator")
struct OscillatorTests {
    /// The block paths (cubic and sinc: points widened into scratch blocks; integer cubic: two
    /// frames per multiply-add; all four frames per step) must give exactly the one-frame
    /// reference's bits, for every increment: below and above 1, non-integral, so large that a
    /// block holds fewer than four frames, and across many scratch blocks.
    @Test(arguments: [0.37, 1.0, 1.5, 3.999_9, 17.25, 300.0, 1500.0])
    func widenedBlocksMatchTheOneFrameReference(ratio: Double) {
        var rng = SplitMix64(seed: 7)
        let count = 1 << 20
        let words = (0..<count).map { _ in Int16(truncatingIfNeeded: rng.next()) }
        let low = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let tables = InterpolationTables.shared
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: Oscillator.scratchPoints)
        scratch.initialize(repeating: .nan, count: Oscillator.scratchPoints)
        defer { scratch.deallocate() }
        let inc = UInt64(ratio * 4_294_967_296)
        // As many frames as fit the data after the start, at most 5000 (several blocks).
        let frames = min(5000, Int(Double(count - 200) / ratio) - 1)
        let start = (UInt64(37) << 32) | 0x9E37_79B9
        words.withUnsafeBufferPointer { w in
            low.withUnsafeBufferPointer { l in
                func check<K: InterpolationKernel, S: SampleSource>(_ kernel: K.Type, _ source: S) {
                    var blockOut = [Float](repeating: 0, count: frames)
                    var frameOut = [Float](repeating: 0, count: frames)
                    var p1 = start, p2 = start, g1 = 3, g2 = 3
                    blockOut.withUnsafeMutableBufferPointer {
                        K.renderRun(source, tables, scratch, $0.baseAddress!, frames, &p1, inc, 0.25, 1e-4, &g1)
                    }
                    frameOut.withUnsafeMutableBufferPointer {
                        K.renderOneByOne(source, tables, $0.baseAddress!, frames, &p2, inc, 0.25, 1e-4, &g2)
                    }
                    #expect(p1 == p2 && g1 == g2)
                    let firstDifference = blockOut.indices.first { blockOut[$0].bitPattern != frameOut[$0].bitPattern }
                    #expect(firstDifference == nil, "\(K.self), ratio \(ratio): frames differ from \(firstDifference ?? -1)")
                }
                for kernel in [CubicKernel.self, SincKernel.self] as [any WidenedKernel.Type] {
                    func open<K: WidenedKernel>(_ k: K.Type) {
                        check(k, Int16Samples(words: w.baseAddress!))
                        check(k, Int24Samples(words: w.baseAddress!, low: l.baseAddress!))
                    }
                    open(kernel)
                }
                check(WordCubicKernel.self, Int16Samples(words: w.baseAddress!))
            }
        }
    }

    /// The integer cubic kernel is the float one with coefficients rounded to 2⁻¹⁵ (each at most
    /// 1.5 units off, the four summing to exactly 2¹⁵): on full-scale noise, the worst case for
    /// the rounding, it stays within 6 · 2⁻¹⁵ of the float kernel at every frame and 88 dB below
    /// it on average; on a 1 kHz sine the difference is below −120 dB.
    @Test func integerCubicMatchesTheFloatKernel() {
        var rng = SplitMix64(seed: 11)
        let noise = (0..<4096).map { _ in Int16(truncatingIfNeeded: rng.next()) }
        let sine = (0..<4096).map { Int16((29_000 * sin(2 * Double.pi * 1000 / 44_100 * Double($0))).rounded()) }
        let tables = InterpolationTables.shared
        func difference(_ words: [Int16]) -> (worst: Double, relativeDB: Double) {
            var worst = 0.0, squares = 0.0, signal = 0.0
            words.withUnsafeBufferPointer { w in
                let source = Int16Samples(words: w.baseAddress!)
                for idx in 1..<4000 {
                    let frac = idx * 37 % 256
                    let exact = Double(CubicKernel.interpolate(source, idx, frac, tables)) * Double(Int16Samples.scale)
                    let fixed = Double(WordCubicKernel.interpolate(source, idx, frac, tables))
                        * Double(Int16Samples.scale * WordCubicKernel.scale)
                    worst = max(worst, abs(fixed - exact))
                    squares += (fixed - exact) * (fixed - exact)
                    signal += exact * exact
                }
            }
            return (worst, 10 * log10(squares / signal))
        }
        let n = difference(noise)
        #expect(n.worst <= 6.0 / 32768)
        #expect(n.relativeDB < -88, "noise: \(n.relativeDB) dB")
        let s = difference(sine)
        #expect(s.relativeDB < -120, "1 kHz sine: \(s.relativeDB) dB")
        // Every row sums to exactly 2¹⁵: a constant signal comes out unchanged at every fraction.
        for f in 0..<InterpolationTables.steps {
            let r = tables.cubicWords[f]
            #expect(Int(r[0]) + Int(r[1]) + Int(r[2]) + Int(r[3]) == 32768)
        }
    }

    /// The multiply-add of two frames (the x86 intrinsic form where it runs) equals the portable
    /// SIMD form other architectures use, and the exact products, including the extremes of
    /// 16-bit points against the largest coefficients.
    @Test func pairProductsMatchThePortableFormAndExactSums() {
        var rng = SplitMix64(seed: 5)
        var words = (0..<64).map { _ in Int16(truncatingIfNeeded: rng.next()) }
        words += [-32768, -32768, -32768, -32768, 32767, 32767, 32767, 32767]
        let rows = InterpolationTables.shared.cubicWords
        words.withUnsafeBufferPointer { w in
            for i in stride(from: 0, to: words.count - 4, by: 3) {
                for f in [0, 1, 77, 128, 200, 255] {
                    let w0 = UnsafeRawPointer(w.baseAddress! + i), w1 = UnsafeRawPointer(w.baseAddress! + (words.count - 4 - i))
                    let c0 = UnsafeRawPointer(rows + f), c1 = UnsafeRawPointer(rows + (255 - f))
                    let fast = WordCubicKernel.pairProducts(w0, c0, w1, c1)
                    let portable = WordCubicKernel.portablePairProducts(w0, c0, w1, c1)
                    #expect(fast == portable)
                    func exact(_ wp: UnsafeRawPointer, _ cp: UnsafeRawPointer, _ j: Int) -> Int {
                        let a = wp.loadUnaligned(as: SIMD4<Int16>.self), b = cp.loadUnaligned(as: SIMD4<Int16>.self)
                        return Int(a[j]) * Int(b[j]) + Int(a[j + 1]) * Int(b[j + 1])
                    }
                    let got: [Int] = [Int(fast[0]), Int(fast[1]), Int(fast[2]), Int(fast[3])]
                    let expected: [Int] = [exact(w0, c0, 0), exact(w0, c0, 2), exact(w1, c1, 0), exact(w1, c1, 2)]
                    #expect(got == expected)
                }
            }
        }
    }
}
