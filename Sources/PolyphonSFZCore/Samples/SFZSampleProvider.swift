/// Decodes an instrument's sample files when they are first needed and keeps them for every
/// synthesizer that plays the instrument.
///
/// The model is portable and reads no audio files itself; PolyphonSFZ supplies a provider that
/// decodes through PolyphonAudio (WAV, AIFF, and FLAC/Ogg through libsndfile).
public protocol SFZSampleProvider: AnyObject, Sendable {
    /// Sample `index` of the instrument's ``SFZInstrument/samples``, decoded (on the first
    /// call; later calls return the same object).
    /// - Throws: ``SFZSampleError`` when the file cannot be read or decoded.
    func sample(at index: Int) throws(SFZSampleError) -> SFZDecodedSample

    /// Sample `index` if it has been decoded already, without decoding it.
    func decodedSample(at index: Int) -> SFZDecodedSample?

    /// Forgets decoded sample `index` (a bank that copied it holds it now); it is decoded again
    /// if asked for. Objects already handed out stay valid.
    func releaseDecodedSample(at index: Int)
}

extension SFZSampleProvider {
    /// Keeps everything (a provider without a cache to trim).
    public func releaseDecodedSample(at index: Int) {}
}

/// A sample file that cannot be decoded.
public struct SFZSampleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// Why (the audio reader's message).
    public var reason: String

    /// An error about `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}

/// What the reader needs to know about a sample file to settle a region's playback — its
/// length, rate, channels and the loop and root key stored in the file — without its audio.
public struct SFZSampleMetadata: Hashable, Sendable {
    /// Frames in the file.
    public var frameCount: Int
    /// Frames per second.
    public var sampleRate: Double
    /// 1 (mono) or 2 (stereo); files with more channels are played from their first two.
    public var channelCount: Int
    /// The first loop of the file's `smpl` (WAV) or `INST`/`MARK` (AIFF) chunk: first and
    /// last frame, both played.
    public var loop: SFZRange<Int>?
    /// The key the sample was recorded at (`smpl` MIDI unity note), when the file says.
    public var rootKey: UInt8?

    /// Metadata with every field given.
    public init(frameCount: Int, sampleRate: Double, channelCount: Int, loop: SFZRange<Int>? = nil, rootKey: UInt8? = nil) {
        self.frameCount = frameCount
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.loop = loop
        self.rootKey = rootKey
    }
}
