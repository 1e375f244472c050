/// The PCM a voice reads for one sample, with its bounds: what the engine asks for at note-on.
///
/// For an SF2 sample ``words`` is the bank's whole pool (the memory-mapped `smpl` chunk) and the
/// positions are the header's, so nothing is copied. For an SF3 Ogg Vorbis sample ``words`` is
/// the decoded PCM, followed by 46 zero points so interpolation past the end reads silence,
/// ``start`` is 0 and the loop points are the header's (sf3convert stores them relative to the
/// decoded sample). Either way a voice plays `words[start..<end]` and loops `loopStart..<loopEnd`.
///
/// The buffers stay valid as long as the ``SoundFont``'s ``SoundFont/sampleData`` lives.
public struct PlayableSample: @unchecked Sendable {
    // @unchecked: the buffers point to immutable memory owned by the bank's SampleData.

    /// The 16-bit points the positions index.
    public let words: UnsafeBufferPointer<Int16>
    /// The `sm24` low bytes, parallel to ``words`` (24-bit SF2 banks only).
    public let lowBytes: UnsafeBufferPointer<UInt8>?
    /// First point of the sample.
    public let start: Int
    /// One past the last point of the sample.
    public let end: Int
    /// First point of the loop.
    public let loopStart: Int
    /// One past the last point of the loop.
    public let loopEnd: Int
    /// Recording rate in Hz (from the sample header).
    public let sampleRate: Int
    /// True when the points were decoded from an Ogg Vorbis stream.
    public let isDecoded: Bool

    /// A playable view of sample points.
    public init(words: UnsafeBufferPointer<Int16>, lowBytes: UnsafeBufferPointer<UInt8>? = nil,
                start: Int, end: Int, loopStart: Int, loopEnd: Int, sampleRate: Int, isDecoded: Bool) {
        self.words = words
        self.lowBytes = lowBytes
        self.start = start
        self.end = end
        self.loopStart = loopStart
        self.loopEnd = loopEnd
        self.sampleRate = sampleRate
        self.isDecoded = isDecoded
    }

    /// The sample's own points, `words[start..<end]` clamped into the buffer.
    public var points: UnsafeBufferPointer<Int16> {
        let lo = min(max(start, 0), words.count), hi = min(max(end, lo), words.count)
        return UnsafeBufferPointer(rebasing: words[lo..<hi])
    }
}
