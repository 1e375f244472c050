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
///
/// Samples go eight at a time through SIMD kernels, with scalar code for the odd frames at the
/// ends of a block; ``Int16Kernel``, ``Int24Kernel`` and the tests check that both give the
/// same bytes, so the block sizes a caller uses never show in the file.
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
        guard frameCount > 0 else { return }
        if channels.count == 2 {
            encodeStereo(
                channels[0].baseAddress! + start, channels[1].baseAddress! + start, step: 1, count: frameCount,
                to: destination)
            return
        }
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
        guard frameCount > 0 else { return }
        let first = samples.baseAddress! + start * channelCount
        if channelCount == 2 {
            encodeStereo(first, first + 1, step: 2, count: frameCount, to: destination)
            return
        }
        let stride = sampleFormat.bytesPerSample * channelCount
        for channel in 0..<channelCount {
            encode(
                first + channel, step: channelCount, count: frameCount, channel: channel,
                to: destination + channel * sampleFormat.bytesPerSample, stride: stride)
        }
    }

    // MARK: - Two channels

    /// Both channels of a stereo block at once, so that eight frames of output are one
    /// contiguous store.
    private mutating func encodeStereo(
        _ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>, step: Int, count: Int,
        to destination: UnsafeMutableRawPointer
    ) {
        switch sampleFormat {
        case .int16:
            if dither.isEmpty {
                var l = NoDither(), r = NoDither()
                Self.encodeStereoInt16(left, right, step: step, count: count, to: destination, bigEndian: bigEndian, &l, &r)
            } else {
                // Copied out of the array for the loop: mutating them in place would check the
                // array's uniqueness on every group.
                var l = dither[0], r = dither[1]
                Self.encodeStereoInt16(left, right, step: step, count: count, to: destination, bigEndian: bigEndian, &l, &r)
                dither[0] = l
                dither[1] = r
            }
        case .float32:
            Self.encodeStereoFloat32(left, right, step: step, count: count, to: destination, bigEndian: bigEndian)
        case .int24:
            let stride = 6
            encode(left, step: step, count: count, channel: 0, to: destination, stride: stride)
            encode(right, step: step, count: count, channel: 1, to: destination + 3, stride: stride)
        }
    }

    private static func encodeStereoInt16<D: DitherSource>(
        _ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>, step: Int, count: Int,
        to destination: UnsafeMutableRawPointer, bigEndian: Bool, _ leftDither: inout D, _ rightDither: inout D
    ) {
        var l = left, r = right
        var output = destination
        var remaining = count
        let swapVectors = bigEndian != hostIsBigEndian
        @inline(__always) func scalarFrame() {
            let a = Int16Kernel.code(l.pointee, dither: &leftDither)
            let b = Int16Kernel.code(r.pointee, dither: &rightDither)
            output.storeBytes(of: bigEndian ? a.bigEndian : a.littleEndian, as: UInt16.self)
            output.storeBytes(of: bigEndian ? b.bigEndian : b.littleEndian, toByteOffset: 2, as: UInt16.self)
            l += step
            r += step
            output += 4
            remaining -= 1
        }
        // A block that ended inside a dither group leaves the next one starting there.
        while remaining > 0 && !(leftDither.isAtGroupStart && rightDither.isAtGroupStart) { scalarFrame() }
        while remaining >= 8 {
            let a = Int16Kernel.codes(load8(l, step: step), dither: &leftDither)
            let b = Int16Kernel.codes(load8(r, step: step), dither: &rightDither)
            var frames = interleave(a, b)
            if swapVectors { frames = (frames &<< 8) | (frames &>> 8) }
            output.storeBytes(of: frames, as: SIMD16<UInt16>.self)
            l += 8 * step
            r += 8 * step
            output += 32
            remaining -= 8
        }
        while remaining > 0 { scalarFrame() }
    }

    private static func encodeStereoFloat32(
        _ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>, step: Int, count: Int,
        to destination: UnsafeMutableRawPointer, bigEndian: Bool
    ) {
        let swapVectors = bigEndian != hostIsBigEndian
        if step == 2 && !swapVectors {
            // Interleaved stereo in, interleaved stereo out in the host's byte order: the same bytes.
            destination.copyMemory(from: left, byteCount: 8 * count)
            return
        }
        var l = left, r = right
        var output = destination
        var remaining = count
        while remaining >= 8 {
            let a = unsafeBitCast(load8(l, step: step), to: SIMD8<UInt32>.self)
            let b = unsafeBitCast(load8(r, step: step), to: SIMD8<UInt32>.self)
            var frames = interleave(a, b)
            if swapVectors { frames = byteSwapped(frames) }
            output.storeBytes(of: frames, as: SIMD16<UInt32>.self)
            l += 8 * step
            r += 8 * step
            output += 64
            remaining -= 8
        }
        while remaining > 0 {
            let a = l.pointee.bitPattern, b = r.pointee.bitPattern
            output.storeBytes(of: bigEndian ? a.bigEndian : a.littleEndian, as: UInt32.self)
            output.storeBytes(of: bigEndian ? b.bigEndian : b.littleEndian, toByteOffset: 4, as: UInt32.self)
            l += step
            r += step
            output += 8
            remaining -= 1
        }
    }

    // MARK: - Any channel count

    /// Encodes `count` samples of one channel read every `step` floats from `source`, written
    /// every `stride` bytes from `destination`. One loop per format keeps the inner loop free of
    /// branches on the format.
    private mutating func encode(
        _ source: UnsafePointer<Float>, step: Int, count: Int, channel: Int,
        to destination: UnsafeMutableRawPointer, stride: Int
    ) {
        let swap = bigEndian
        switch sampleFormat {
        case .float32:
            var input = source
            var output = destination
            for _ in 0..<count {
                let bits = input.pointee.bitPattern
                output.storeBytes(of: swap ? bits.bigEndian : bits.littleEndian, as: UInt32.self)
                input += step
                output += stride
            }
        case .int16:
            if dither.isEmpty {
                var none = NoDither()
                Self.encodeInt16(source, step: step, count: count, to: destination, stride: stride, bigEndian: swap, &none)
            } else {
                var generator = dither[channel]
                Self.encodeInt16(source, step: step, count: count, to: destination, stride: stride, bigEndian: swap, &generator)
                dither[channel] = generator
            }
        case .int24:
            var input = source
            var output = destination
            var remaining = count
            @inline(__always) func store(_ code: Int32) {
                let bits = UInt32(bitPattern: code)
                let low = UInt8(truncatingIfNeeded: bits)
                let middle = UInt8(truncatingIfNeeded: bits >> 8)
                let high = UInt8(truncatingIfNeeded: bits >> 16)
                output.storeBytes(of: swap ? high : low, as: UInt8.self)
                output.storeBytes(of: middle, toByteOffset: 1, as: UInt8.self)
                output.storeBytes(of: swap ? low : high, toByteOffset: 2, as: UInt8.self)
                output += stride
            }
            while remaining >= 8 {
                let codes = Int24Kernel.codes(Self.load8(input, step: step))
                for lane in 0..<8 { store(codes[lane]) }
                input += 8 * step
                remaining -= 8
            }
            while remaining > 0 {
                store(Int24Kernel.code(input.pointee))
                input += step
                remaining -= 1
            }
        }
    }

    private static func encodeInt16<D: DitherSource>(
        _ source: UnsafePointer<Float>, step: Int, count: Int, to destination: UnsafeMutableRawPointer, stride: Int,
        bigEndian: Bool, _ dither: inout D
    ) {
        var input = source
        var output = destination
        var remaining = count
        let swapVectors = bigEndian != hostIsBigEndian
        @inline(__always) func store(_ code: UInt16) {
            output.storeBytes(of: bigEndian ? code.bigEndian : code.littleEndian, as: UInt16.self)
            output += stride
        }
        @inline(__always) func scalarSample() {
            store(Int16Kernel.code(input.pointee, dither: &dither))
            input += step
            remaining -= 1
        }
        while remaining > 0 && !dither.isAtGroupStart { scalarSample() }
        while remaining >= 8 {
            var codes = Int16Kernel.codes(load8(input, step: step), dither: &dither)
            if stride == 2 {
                // Mono: the eight codes are contiguous.
                if swapVectors { codes = (codes &<< 8) | (codes &>> 8) }
                output.storeBytes(of: codes, as: SIMD8<UInt16>.self)
                output += 16
            } else {
                for lane in 0..<8 { store(codes[lane]) }
            }
            input += 8 * step
            remaining -= 8
        }
        while remaining > 0 { scalarSample() }
    }

    // MARK: - Helpers

    /// Whether vector stores put the bytes of each lane in big-endian order.
    @inline(__always)
    private static var hostIsBigEndian: Bool {
        #if _endian(big)
        true
        #else
        false
        #endif
    }

    /// Eight samples `step` floats apart.
    @inline(__always)
    private static func load8(_ p: UnsafePointer<Float>, step: Int) -> SIMD8<Float> {
        if step == 1 { return UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self) }
        return SIMD8(p[0], p[step], p[2 * step], p[3 * step], p[4 * step], p[5 * step], p[6 * step], p[7 * step])
    }

    /// a₀ b₀ a₁ b₁ … a₇ b₇.
    @inline(__always)
    private static func interleave<T: SIMDScalar>(_ a: SIMD8<T>, _ b: SIMD8<T>) -> SIMD16<T> {
        SIMD16(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3], a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
    }

    @inline(__always)
    private static func byteSwapped(_ x: SIMD16<UInt32>) -> SIMD16<UInt32> {
        (x &<< 24) | ((x &<< 8) & 0x00FF_0000) | ((x &>> 8) & 0x0000_FF00) | (x &>> 24)
    }
}

/// Where the 16-bit encoder gets its dither: a ``TriangularDitherGenerator``, or ``NoDither``
/// for plain rounding (specialised away).
protocol DitherSource {
    /// Whether values are added at all.
    static var isActive: Bool { get }
    var isAtGroupStart: Bool { get }
    mutating func next() -> Float
    mutating func nextGroup() -> SIMD8<Float>
}

extension TriangularDitherGenerator: DitherSource {
    static var isActive: Bool { true }
}

/// Plain rounding.
struct NoDither: DitherSource {
    static var isActive: Bool { false }
    var isAtGroupStart: Bool { true }
    func next() -> Float { 0 }
    func nextGroup() -> SIMD8<Float> { SIMD8() }
}

/// Lane operations for the kernels, written so that they compile to plain SIMD code.
///
/// Swift's `SIMDMask` comparisons and `replacing(with:where:)` come out as scalar code with
/// branches on x86-64 without AVX, so masks here are made with arithmetic instead: the sign
/// bit of a difference, spread over the lane by an arithmetic shift.
enum Lanes {
    typealias Floats = SIMD8<Float>
    typealias Ints = SIMD8<Int32>

    @inline(__always) static func bits(_ x: Floats) -> Ints { unsafeBitCast(x, to: Ints.self) }
    @inline(__always) static func floats(_ x: Ints) -> Floats { unsafeBitCast(x, to: Floats.self) }

    /// All ones where `x` has its sign bit set (negative, or −0), zero elsewhere.
    @inline(__always) static func negative(_ x: Floats) -> Ints { bits(x) &>> 31 }

    /// `b` where `mask` is all ones, `a` where it is zero.
    @inline(__always)
    static func select(_ a: Floats, _ b: Floats, where mask: Ints) -> Floats {
        floats((bits(a) & ~mask) | (bits(b) & mask))
    }

    /// `x` with NaN lanes made 0.
    @inline(__always)
    static func zeroingNaN(_ x: Floats) -> Floats {
        // A NaN's magnitude bits exceed those of infinity, making the difference negative.
        let isNaN = (0x7F80_0000 &- (bits(x) & 0x7FFF_FFFF)) &>> 31
        return floats(bits(x) & ~isNaN)
    }

    /// `x` limited to `lower...upper` (`x` not NaN). The sign of a rounded difference is the
    /// sign of the exact one, and equal values give +0, so this is exactly `min(max(x, l), u)`.
    @inline(__always)
    static func clamp(_ x: Floats, _ lower: Float, _ upper: Float) -> Floats {
        let low = Floats(repeating: lower), high = Floats(repeating: upper)
        let raised = select(x, low, where: negative(x - low))
        return select(raised, high, where: negative(high - raised))
    }

    /// The magnitude of `x` (its sign bit cleared).
    @inline(__always)
    static func magnitude(_ x: Floats) -> Floats { floats(bits(x) & 0x7FFF_FFFF) }

    /// `x` negated where `sign` is all ones (two's complement).
    @inline(__always)
    static func applySign(_ x: Ints, _ sign: Ints) -> Ints { (x ^ sign) &- sign }
}

/// Float → 16-bit code: scale by 32768, add dither, clip, round half away from zero.
enum Int16Kernel {
    /// One sample: the reference arithmetic.
    @inline(__always)
    static func code<D: DitherSource>(_ sample: Float, dither: inout D) -> UInt16 {
        var value = sample.isNaN ? 0 : sample * 32768
        if D.isActive { value += dither.next() }
        // Round half away from zero (as `rounded()`), without a libm call per sample.
        let clamped = min(max(value, -32768), 32767)
        return UInt16(bitPattern: Int16(clamped + (clamped < 0 ? -0.5 : 0.5)))
    }

    /// Eight samples, lane for lane the same codes as ``code(_:dither:)``.
    ///
    /// `Int16(c ± 0.5)` is sign(c)·⌊fl(|c| + 0.5)⌋ (rounding to nearest is symmetric). For
    /// u = fl(|v| + 0.5) below 2²², adding 1.5·2²³ leaves u rounded to the nearest integer in
    /// the low mantissa bits, and stepping down where that rounded up gives ⌊u⌋. Above that the
    /// result is no longer ⌊u⌋ but still at least 2²² − 1 (Float bit patterns grow with the
    /// value), so clipping the integer to 32767 (32768 for negative values) afterwards gives
    /// exactly what clipping the Float first does. No float-to-integer conversion is needed,
    /// so this stays in plain SIMD on every platform.
    @inline(__always)
    static func codes<D: DitherSource>(_ samples: SIMD8<Float>, dither: inout D) -> SIMD8<UInt16> {
        var value = Lanes.zeroingNaN(samples * 32768)
        if D.isActive { value += dither.nextGroup() }
        let sign = Lanes.negative(value)
        let u = Lanes.magnitude(value) + 0.5
        let shifted = u + 12_582_912
        let nearest = shifted - 12_582_912
        let floor = (Lanes.bits(shifted) &- Lanes.bits(Lanes.Floats(repeating: 12_582_912)))
            &+ Lanes.negative(u - nearest)
        let excess = (32767 &- sign) &- floor
        let clipped = floor &+ (excess & (excess &>> 31))
        let code = SIMD8<Int16>(truncatingIfNeeded: Lanes.applySign(clipped, sign))
        return unsafeBitCast(code, to: SIMD8<UInt16>.self)
    }
}

/// Float → 24-bit code: scale by 2²³, clip, round half away from zero (exactly).
enum Int24Kernel {
    /// One sample: the reference arithmetic.
    @inline(__always)
    static func code(_ sample: Float) -> Int32 {
        // Double keeps all 24 bits of the product exact before rounding.
        let value = sample.isNaN ? 0 : Double(sample) * 8_388_608
        return Int32(value.rounded().clamped(to: -8_388_608...8_388_607))
    }

    /// Eight samples, lane for lane the same codes as ``code(_:)``.
    ///
    /// The product by 2²³ is exact in Float too. Clipping first gives the same codes (the
    /// limits are integers), leaves magnitudes m ≤ 2²³, and m + 2²³ then holds m rounded to
    /// the nearest integer, ties to even, in its low mantissa bits; m − that is exact, so the
    /// ties that went down (m − nearest = ½) are found and stepped up.
    @inline(__always)
    static func codes(_ samples: SIMD8<Float>) -> SIMD8<Int32> {
        let clamped = Lanes.clamp(Lanes.zeroingNaN(samples * 8_388_608), -8_388_608, 8_388_607)
        let m = Lanes.magnitude(clamped)
        let shifted = m + 8_388_608
        let nearest = shifted - 8_388_608
        // m − nearest − ½ is +0 for a tie that went down and negative otherwise.
        let tieWentDown = ~Lanes.negative((m - nearest) - 0.5) & 1
        let rounded = (Lanes.bits(shifted) &- Lanes.bits(Lanes.Floats(repeating: 8_388_608))) &+ tieWentDown
        return Lanes.applySign(rounded, Lanes.negative(clamped))
    }
}

extension Comparable {
    @inline(__always)
    func clamped(to range: ClosedRange<Self>) -> Self {
        min(max(self, range.lowerBound), range.upperBound)
    }
}
