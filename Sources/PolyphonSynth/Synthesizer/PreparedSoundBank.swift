import PolyphonSoundFontCore

/// A bank with every preset's regions resolved, made once and shared by any number of
/// synthesizers on any threads.
///
/// ``Synthesizer/init(soundBank:sampleRate:configuration:)`` resolves the regions itself, which
/// for a large General MIDI bank is several megabytes per synthesizer. A program that makes many
/// synthesizers for one bank — a batch rendering a file per core, a server rendering requests —
/// prepares the bank once and passes it to ``Synthesizer/init(preparedBank:sampleRate:configuration:)``.
public final class PreparedSoundBank: Sendable {
    /// The bank.
    public let soundBank: SoundFont
    /// How the regions were resolved; a synthesizer configured otherwise resolves its own.
    public let velocityToFilter: VelocityToFilterMode
    let presets: PresetTable

    /// Resolves the regions of every preset of `soundBank` for synthesizers whose configuration
    /// has `velocityToFilter`.
    public init(_ soundBank: SoundFont,
                velocityToFilter: VelocityToFilterMode = SynthesizerConfiguration().velocityToFilter) {
        self.soundBank = soundBank
        self.velocityToFilter = velocityToFilter
        presets = PresetTable(soundBank: soundBank, velocityToFilter: velocityToFilter)
    }

    /// The resolved presets for a synthesizer configured with `mode`.
    func presets(for mode: VelocityToFilterMode) -> PresetTable {
        mode == velocityToFilter ? presets : PresetTable(soundBank: soundBank, velocityToFilter: mode)
    }
}
