/// Converts Float samples in −1…1 to the bytes of a ``SampleFormat``: scaling, TPDF dither,
/// rounding and clipping for integers, and the byte order of the container.
///
/// Integers are scaled by 2^(bits−1) (so −1.0 is the most negative code and reading divides by
/// the same power of two, making the round trip exact) and clipped to the integer range, so
/// +1.0 becomes the largest positive code, one LSB short of full scale. NaN becomes 0.
///
/// Each channel has its own dither generator (seeded from the dither seed and the channel
/// number), so the noise does not depend on how the song is cut into blocks and the channels'
/// noise is uncorrelated.
struct SampleEncoder {
    let sampleFormat: SampleFormat
    let bigEndian: Bool
    private var dither: [TriangularDitherGenerator]

    init(sampleFormat: SampleFormat, bigEndian: Bool, channelCount: Int, dither: Dither) {
        self.sampleFormat = sampleFormat
        self.bigEndian = bigEndian
        if sampleFormat == .int16, case .triangular(let seed) = dither {
            self.dither = (0..<channelCount).map {
                TriangularDitherGenerator(seed: seed &+ UInt64($0) &* 0xD1B5_4A32_D192_ED03)
            }
        } else {
            self.dither = []
        }
    }

    /// Encodes `frameCount` frames starting at frame `start` of planar channel buffers,
    /// interleaving them at `destination`.
    mutating func encode(
        planar channels: [UnsafeBufferPointer<Float>], start: Int, frameCount: Int,
        to destination: UnsafeMutableRawPointer
    ) {
        let stride = sampleFormat.bytesPerSample * channels.count
        for channel in 0..<channels.count {
            encode(
                channels[channel].baseAddress! + start, step: 1, count: frameCount, channel: channel,
                to: destination + channel * sampleFormat.bytesPerSample, stride: stride)
        }
    }

    /// Encodes `frameCount` frames of interleaved samples starting at frame `start`.
    mutating func encode(
        interleaved samples: UnsafeBufferPointer<Float>, channelCount: Int, start: Int, frameCount: Int,
        to destination: UnsafeMutableRawPointer
    ) {
        let stride = sampleFormat.bytesPerSample * channelCount
        for channel in 0..<channelCount {
            encode(
                samples.baseAddress! + start * channelCount + channel, step: channelCount, count: frameCount,
                channel: channel, to: destination + channel * sampleFormat.bytesPerSample, stride: stride)
        }
    }

    /// Encodes `count` samples of one channel read every `step` floats from `source`, written
    /// every `stride` bytes from `destination`. One loop per format keeps the inner loop free of
    /// branches on the format.
    private mutating func encode(
        _ source: UnsafePointer<Float>, step: Int, count: Int, channel: Int,
        to destination: UnsafeMutableRawPointer, stride: Int
    ) {
        var input = source
        var output = destination
        let swap = bigEndian
        switch sampleFormat {
        case .float32:
            for _ in 0..<count {
                let bits = input.pointee.bitPattern
                output.storeBytes(of: swap ? bits.bigEndian : bits.littleEndian, as: UInt32.self)
                input += step
                output += stride
            }
        case .int16:
            let dithered = !dither.isEmpty
            // The generator is copied out of the array for the loop: mutating it in place would
            // check the array's uniqueness on every sample.
            var generator = dithered ? dither[channel] : TriangularDitherGenerator(seed: 0)
            for _ in 0..<count {
                let sample = input.pointee
                var value = sample.isNaN ? 0 : sample * 32768
                if dithered { value += generator.next() }
                // Round half away from zero (as `rounded()`), without a libm call per sample.
                let clamped = min(max(value, -32768), 32767)
                let code = UInt16(bitPattern: Int16(clamped + (clamped < 0 ? -0.5 : 0.5)))
                output.storeBytes(of: swap ? code.bigEndian : code.littleEndian, as: UInt16.self)
                input += step
                output += stride
            }
            if dithered { dither[channel] = generator }
        case .int24:
            for _ in 0..<count {
                let sample = input.pointee
                // Double keeps all 24 bits of the product exact before rounding.
                let value = sample.isNaN ? 0 : Double(sample) * 8_388_608
                let bits = UInt32(bitPattern: Int32(value.rounded().clamped(to: -8_388_608...8_388_607)))
                let low = UInt8(truncatingIfNeeded: bits)
                let middle = UInt8(truncatingIfNeeded: bits >> 8)
                let high = UInt8(truncatingIfNeeded: bits >> 16)
                output.storeBytes(of: swap ? high : low, as: UInt8.self)
                output.storeBytes(of: middle, toByteOffset: 1, as: UInt8.self)
                output.storeBytes(of: swap ? low : high, toByteOffset: 2, as: UInt8.self)
                input += step
                output += stride
            }
        }
    }
}

extension Comparable {
    @inline(__always)
    func clamped(to range: ClosedRange<Self>) -> Self {
        min(max(self, range.lowerBound), range.upperBound)
    }
}
