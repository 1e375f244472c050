/// How interleaved samples are laid out in a file's data chunk.
struct SampleLayout {
    enum Kind { case signedInteger, unsignedInteger, float }
    var kind: Kind
    /// Bytes per sample in the file (the container size, which may exceed the significant bits).
    var bytesPerSample: Int
    var bigEndian: Bool

    /// Whether the decoder handles this combination.
    var isDecodable: Bool {
        switch kind {
        case .signedInteger: (1...4).contains(bytesPerSample)
        case .unsignedInteger: bytesPerSample == 1
        case .float: bytesPerSample == 4 || bytesPerSample == 8
        }
    }
}

/// Converts interleaved sample bytes to one Float array per channel, integers divided by
/// 2^(container bits − 1) so that full scale is ±1.
enum SampleDecoder {
    /// Decodes `frameCount` frames at `offset`. The caller guarantees the bytes are there.
    static func decode(
        _ bytes: [UInt8], offset: Int, frameCount: Int, channelCount: Int, layout: SampleLayout
    ) -> [[Float]] {
        precondition(layout.isDecodable)
        precondition(offset + frameCount * channelCount * layout.bytesPerSample <= bytes.count)
        var channels = [[Float]](repeating: [], count: channelCount)
        for channel in 0..<channelCount { channels[channel].reserveCapacity(frameCount) }
        let width = layout.bytesPerSample
        bytes.withUnsafeBufferPointer { buffer in
            var position = offset
            for _ in 0..<frameCount {
                for channel in 0..<channelCount {
                    channels[channel].append(sample(buffer, at: position, width: width, layout: layout))
                    position += width
                }
            }
        }
        return channels
    }

    @inline(__always)
    private static func sample(
        _ bytes: UnsafeBufferPointer<UInt8>, at position: Int, width: Int, layout: SampleLayout
    ) -> Float {
        // Gather the sample most significant byte first, whatever the file's order.
        var word: UInt64 = 0
        for index in 0..<width {
            word = word << 8 | UInt64(bytes[layout.bigEndian ? position + index : position + width - 1 - index])
        }
        switch layout.kind {
        case .unsignedInteger:
            return (Float(word) - 128) / 128
        case .signedInteger:
            // Left-justify in 32 bits so the sign bit lands on top; full scale is then 2^31.
            let justified = Int32(bitPattern: UInt32(truncatingIfNeeded: word << (32 - 8 * width)))
            return Float(justified) * (1.0 / 2_147_483_648.0)
        case .float:
            if width == 4 { return Float(bitPattern: UInt32(truncatingIfNeeded: word)) }
            return Float(Double(bitPattern: word))
        }
    }
}
