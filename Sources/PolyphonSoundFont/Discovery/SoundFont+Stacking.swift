import PolyphonSoundFontCore

extension SoundFont {
    /// Several banks played as one: each bank-and-program comes from the first bank that has
    /// it, as FluidSynth stacks the SoundFonts it loads.
    ///
    /// This is how an SFZ instrument placed on one program (`SFZSoundBank` with
    /// `.preset(bank:program:)`) plays a song's piano while a General MIDI bank plays the rest.
    /// A channel's fallbacks then apply to the stack as a whole: a program no bank has plays
    /// program 0 of the first bank that has it.
    ///
    /// No sample point is copied: the stack plays each bank's pool where it is
    /// (`SampleData(stacking:)`), so a memory-mapped bank stays mapped and only the
    /// samples that play are paged in. SF3 banks are decoded first (every compressed sample,
    /// through the bank's decoder), into memory of their own.
    /// - Throws: ``SoundBankStackError`` when `banks` is empty, a compressed sample cannot be
    ///   decoded, or the stack needs more samples or instruments than SF2's 16-bit indexes name.
    public init(stacking banks: [SoundFont]) throws(SoundBankStackError) {
        guard let first = banks.first else { throw SoundBankStackError(kind: .noBanks) }
        if banks.count == 1 {
            self = first
            return
        }
        var playable: [SoundFont] = []
        for (position, bank) in banks.enumerated() {
            guard bank.samples.contains(where: { $0.sampleType.isCompressed }) else {
                playable.append(bank)
                continue
            }
            do {
                playable.append(try bank.subset(presetIndexes: Array(bank.presets.indices)))
            } catch {
                throw SoundBankStackError(kind: .undecodable(bank: position, error))
            }
        }
        guard let merged = SoundFont.merging(playable, copyingSamples: false) else {
            throw SoundBankStackError(kind: .tooLarge(samples: playable.reduce(0) { $0 + $1.samples.count },
                                                      instruments: playable.reduce(0) { $0 + $1.instruments.count }))
        }
        var info = merged.info
        info.name = banks.map(\.info.name).joined(separator: " + ")
        self = merged
        self.info = info
    }
}

/// Banks that cannot be stacked into one (``SoundFont/init(stacking:)``).
public struct SoundBankStackError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// No bank was given.
        case noBanks
        /// The bank at this position in the stack has a compressed sample that cannot be decoded.
        case undecodable(bank: Int, SampleDecodingError)
        /// Together the banks have more samples or instruments than an SF2 bank can index (65 535).
        case tooLarge(samples: Int, instruments: Int)
    }

    /// What went wrong.
    public var kind: Kind

    /// An error of `kind`.
    public init(kind: Kind) { self.kind = kind }

    public var description: String {
        switch kind {
        case .noBanks: return "no banks to stack"
        case .undecodable(let bank, let error): return "bank \(bank + 1) of the stack: \(error)"
        case .tooLarge(let samples, let instruments):
            return "the stacked banks have \(samples) samples and \(instruments) instruments; one bank holds at most 65535 of each"
        }
    }
}
