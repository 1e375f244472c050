/// Sample points as floats, unscaled (integer values); ``scale`` maps them to −1…1. Two concrete
/// sources so the render loop is specialised for 16-bit banks (the common case) without a
/// per-point branch.
protocol SampleSource {
    /// A power of two, so applying it anywhere in a product rounds the same.
    static var scale: Float { get }
    /// The stored 16-bit words (of 24-bit points, the high parts).
    var words: UnsafePointer<Int16> { get }
    subscript(_ j: Int) -> Float { get }
    /// Points j … j+3.
    func window4(_ j: Int) -> SIMD4<Float>
    /// Points j … j+7.
    func window8(_ j: Int) -> SIMD8<Float>
    /// Points j ..< j + count as floats into `out`.
    func widen(_ j: Int, _ count: Int, into out: UnsafeMutablePointer<Float>)
}

struct Int16Samples: SampleSource {
    static var scale: Float { 1.0 / 32768.0 }
    let words: UnsafePointer<Int16>
    @inline(__always)
    subscript(_ j: Int) -> Float { Float(words[j]) }
    @inline(__always)
    func window4(_ j: Int) -> SIMD4<Float> {
        // One 8-byte load and a vector widen instead of four scalar loads.
        let v = UnsafeRawPointer(words + j).loadUnaligned(as: SIMD4<Int16>.self)
        return SIMD4<Float>(converting: SIMD4<Int32>(truncatingIfNeeded: v))
    }
    @inline(__always)
    func window8(_ j: Int) -> SIMD8<Float> {
        let v = UnsafeRawPointer(words + j).loadUnaligned(as: SIMD8<Int16>.self)
        return SIMD8<Float>(converting: SIMD8<Int32>(truncatingIfNeeded: v))
    }
    @inline(__always)
    func widen(_ j: Int, _ count: Int, into out: UnsafeMutablePointer<Float>) {
        var k = 0
        // Eight at a time, never reading past the last point asked for.
        while k + 8 <= count {
            UnsafeMutableRawPointer(out + k).storeBytes(of: window8(j &+ k), as: SIMD8<Float>.self)
            k += 8
        }
        while k < count {
            out[k] = self[j &+ k]
            k += 1
        }
    }
}

/// 24-bit points: the `smpl` word is the high part, the `sm24` byte the low 8 bits.
struct Int24Samples: SampleSource {
    static var scale: Float { 1.0 / 8_388_608.0 }
    let words: UnsafePointer<Int16>
    let low: UnsafePointer<UInt8>
    @inline(__always)
    subscript(_ j: Int) -> Float {
        Float(Int32(words[j]) << 8 | Int32(low[j]))
    }
    @inline(__always)
    func window4(_ j: Int) -> SIMD4<Float> { SIMD4(self[j], self[j + 1], self[j + 2], self[j + 3]) }
    @inline(__always)
    func window8(_ j: Int) -> SIMD8<Float> {
        SIMD8(self[j], self[j + 1], self[j + 2], self[j + 3], self[j + 4], self[j + 5], self[j + 6], self[j + 7])
    }
    @inline(__always)
    func widen(_ j: Int, _ count: Int, into out: UnsafeMutablePointer<Float>) {
        for k in 0..<count { out[k] = self[j &+ k] }
    }
}
