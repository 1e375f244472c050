/// A decoded sample file as voices play it: one buffer of 24-bit points per channel (16-bit
/// words with a low byte beside them, the layout SF2 uses for `sm24`, so an SFZ voice reads
/// its sample as an SF2 voice does), each followed by zero points so interpolation past the end
/// reads silence.
///
/// Immutable once made and shared by every synthesizer; the buffers live as long as the object.
public final class SFZDecodedSample: @unchecked Sendable {
    // @unchecked: written once in init, read-only afterwards.

    /// Zero points after each channel, as SF2 asks of every sample.
    public static let padding = 46

    /// Length, rate, channels, and the loop and root key from the file.
    public let metadata: SFZSampleMetadata
    /// High 16 bits of each point, one buffer per channel (``SFZSampleMetadata/frameCount``
    /// points plus ``padding``).
    public let words: [UnsafeBufferPointer<Int16>]
    /// Low 8 bits of each point, one buffer per channel; nil when the file held 16 bits or
    /// fewer.
    public let lowBytes: [UnsafeBufferPointer<UInt8>]?

    /// A sample from float channels (full scale ±1, clipped beyond), kept at 24-bit precision
    /// when `keepsLowBytes`, else rounded to 16 bits; `reversed` stores the frames backwards
    /// (`direction=reverse`; the file's loop is then dropped, as in sfizz).
    public init(channels: [[Float]], sampleRate: Double, loop: SFZRange<Int>?, rootKey: UInt8?,
                keepsLowBytes: Bool, reversed: Bool = false) {
        let frameCount = channels.map { $0.count }.min() ?? 0
        let kept = Array(channels.prefix(2))
        metadata = SFZSampleMetadata(frameCount: frameCount, sampleRate: sampleRate, channelCount: max(kept.count, 1),
                                     loop: reversed ? nil : loop, rootKey: rootKey)
        var words: [UnsafeBufferPointer<Int16>] = []
        var lows: [UnsafeBufferPointer<UInt8>] = []
        for channel in kept {
            let w = UnsafeMutableBufferPointer<Int16>.allocate(capacity: frameCount + Self.padding)
            let l = keepsLowBytes ? UnsafeMutableBufferPointer<UInt8>.allocate(capacity: frameCount + Self.padding) : nil
            for i in 0..<frameCount {
                let x = channel[reversed ? frameCount - 1 - i : i]
                // Round to 24 bits, clip to the representable range (NaN reads as 0).
                let scaled = x.isNaN ? 0 : (Double(x) * 8_388_608).rounded()
                let value = Int32(min(max(scaled, -8_388_608), 8_388_607))
                if let l {
                    w[i] = Int16(truncatingIfNeeded: value >> 8)
                    l[i] = UInt8(truncatingIfNeeded: value)
                } else {
                    w[i] = Int16(clamping: (value + 128) >> 8)
                }
            }
            (w.baseAddress! + frameCount).initialize(repeating: 0, count: Self.padding)
            words.append(UnsafeBufferPointer(w))
            if let l {
                (l.baseAddress! + frameCount).initialize(repeating: 0, count: Self.padding)
                lows.append(UnsafeBufferPointer(l))
            }
        }
        if words.isEmpty {
            let w = UnsafeMutableBufferPointer<Int16>.allocate(capacity: Self.padding)
            w.initialize(repeating: 0)
            words.append(UnsafeBufferPointer(w))
        }
        self.words = words
        lowBytes = keepsLowBytes && !lows.isEmpty ? lows : nil
    }

    deinit {
        for w in words { UnsafeMutableBufferPointer(mutating: w).deallocate() }
        for l in lowBytes ?? [] { UnsafeMutableBufferPointer(mutating: l).deallocate() }
    }

    /// Point `frame` of `channel` as a value in −1…1.
    public func value(channel: Int, frame: Int) -> Float {
        let word = Int32(words[channel][frame])
        if let low = lowBytes?[channel] {
            return Float(word << 8 | Int32(low[frame])) * (1.0 / 8_388_608.0)
        }
        return Float(word) * (1.0 / 32_768.0)
    }
}
