import PolyphonSoundFontCore

/// The decoded audio of one sample file of a SoundBankPlayer bank: what a
/// ``SampleBankAudioLoader`` returns.
///
/// PolyphonSoundFont does not read audio files itself (that is PolyphonAudio's job, and this
/// module does not depend on it); the caller passes a loader, typically
/// `{ let f = try AudioFile(contentsOf: $0); return SampleBankAudio(sampleRate: f.sampleRate, channels: f.channels) }`.
public struct SampleBankAudio: Sendable, Equatable {
    /// Frames per second.
    public var sampleRate: Double
    /// One array per channel, full scale ±1; all channels the same length.
    public var channels: [[Float]]

    /// Decoded audio.
    public init(sampleRate: Double, channels: [[Float]]) {
        self.sampleRate = sampleRate
        self.channels = channels
    }
}

/// Reads and decodes the audio file at a path (CAF, WAV or AIFF for SoundBankPlayer banks).
public typealias SampleBankAudioLoader = @Sendable (String) throws -> SampleBankAudio
