/// Converts Float samples in −1…1 to the bytes of a ``SampleFormat``: scaling, TPDF dither,
/// rounding and clipping for integers, and the byte order of the container.
///
/// Integers are scaled by 2^(bits−1) (so −1.0 is the most negative code and reading divides by
/// the same power of two, making the round trip exact) and clipped to the integer range, so
/// +1.0 becomes the largest positive code, one LSB short of full scale. NaN becomes 0.
struct SampleEncoder {
    let sampleFormat: SampleFormat
    let bigEndian: Bool
    private var dither: TriangularDitherGenerator?

    init(sampleFormat: SampleFormat, bigEndian: Bool, dither: Dither) {
        self.sampleFormat = sampleFormat
        self.bigEndian = bigEndian
        if sampleFormat == .int16, case .triangular(let seed) = dither {
            self.dither = TriangularDitherGenerator(seed: seed)
        } else {
            self.dither = nil
        }
    }

    /// Encodes `frameCount` frames starting at frame `start` of planar channel buffers,
    /// interleaving them at `destination`.
    mutating func encode(
        planar channels: [UnsafeBufferPointer<Float>], start: Int, frameCount: Int,
        to destination: UnsafeMutableRawPointer
    ) {
        let width = sampleFormat.bytesPerSample
        var offset = 0
        for frame in start..<(start + frameCount) {
            for channel in channels {
                store(channel[frame], at: destination + offset)
                offset += width
            }
        }
    }

    /// Encodes `sampleCount` consecutive samples (already interleaved) starting at `start`.
    mutating func encode(
        interleaved samples: UnsafeBufferPointer<Float>, start: Int, sampleCount: Int,
        to destination: UnsafeMutableRawPointer
    ) {
        let width = sampleFormat.bytesPerSample
        var offset = 0
        for index in start..<(start + sampleCount) {
            store(samples[index], at: destination + offset)
            offset += width
        }
    }

    @inline(__always)
    private mutating func store(_ sample: Float, at pointer: UnsafeMutableRawPointer) {
        switch sampleFormat {
        case .int16:
            var value = sample.isNaN ? 0 : sample * 32768
            if dither != nil { value += dither!.next() }
            let code = Int16(value.rounded().clamped(to: -32768...32767))
            let bits = UInt16(bitPattern: code)
            pointer.storeBytes(of: bigEndian ? bits.bigEndian : bits.littleEndian, as: UInt16.self)
        case .int24:
            // Double keeps all 24 bits of the product exact before rounding.
            let value = sample.isNaN ? 0 : Double(sample) * 8_388_608
            let code = Int32(value.rounded().clamped(to: -8_388_608...8_388_607))
            let bits = UInt32(bitPattern: code)
            let low = UInt8(truncatingIfNeeded: bits)
            let middle = UInt8(truncatingIfNeeded: bits >> 8)
            let high = UInt8(truncatingIfNeeded: bits >> 16)
            pointer.storeBytes(of: bigEndian ? high : low, as: UInt8.self)
            pointer.storeBytes(of: middle, toByteOffset: 1, as: UInt8.self)
            pointer.storeBytes(of: bigEndian ? low : high, toByteOffset: 2, as: UInt8.self)
        case .float32:
            let bits = sample.bitPattern
            pointer.storeBytes(of: bigEndian ? bits.bigEndian : bits.littleEndian, as: UInt32.self)
        }
    }
}

extension Comparable {
    @inline(__always)
    func clamped(to range: ClosedRange<Self>) -> Self {
        min(max(self, range.lowerBound), range.upperBound)
    }
}
