import PolyphonSoundFontCore

/// A bank with every preset's regions resolved, made once and shared by any number of
/// synthesizers on any threads.
///
/// ``Synthesizer/init(soundBank:sampleRate:configuration:threads:)`` resolves the regions itself, which
/// for a large General MIDI bank is several megabytes per synthesizer. A program that makes many
/// synthesizers for one bank — a batch rendering a file per core, a server rendering requests —
/// prepares the bank once and passes it to ``Synthesizer/init(preparedBank:sampleRate:configuration:threads:)``.
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

    /// How many voices a note starts on a channel playing `program` of the General MIDI bank
    /// (or of the drum kits when `isDrumKit`), with the synthesizer's fallbacks when the bank
    /// lacks that preset: the regions that hold the key and velocity. For estimating work.
    public func voiceCount(program: Int, isDrumKit: Bool, key: Int, velocity: Int) -> Int {
        let p = isDrumKit
            ? presets.preset(bank: 128, program: program) ?? presets.preset(bank: 128, program: 0)
                ?? presets.preset(bank: 0, program: program)
            : presets.preset(bank: 0, program: program) ?? presets.preset(bank: 0, program: 0)
        guard let p, (0...127).contains(key), (0...127).contains(velocity) else { return 0 }
        return presets.regions[p].reduce(0) { $0 + ($1.contains(key: UInt8(key), velocity: UInt8(velocity)) ? 1 : 0) }
    }

    /// The resolved presets for a synthesizer configured with `mode`.
    func presets(for mode: VelocityToFilterMode) -> PresetTable {
        mode == velocityToFilter ? presets : PresetTable(soundBank: soundBank, velocityToFilter: mode)
    }
}
