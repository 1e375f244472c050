import PolyphonSoundFontCore

extension SoundFont {
    /// Loads any supported bank, its kind told by content (``SoundBankKind/sniff(path:)``):
    /// SoundFont 2/3, DLS Level 1/2, or a SoundBankPlayer property list.
    ///
    /// - Parameters:
    ///   - path: the bank file.
    ///   - audioLoader: reads the sample files of a SoundBankPlayer bank (PolyphonAudio's
    ///     `AudioFile` in practice, see ``SampleBankAudio``); other kinds do not use it.
    ///   - sampleBankOptions: how a SoundBankPlayer bank becomes zones; other kinds do not use it.
    /// - Throws: ``SoundBankError`` when the file is missing or of no known kind (or a sample bank
    ///   comes without `audioLoader`); otherwise the kind's own error (``SoundFontError``,
    ///   ``DLSError``, ``SampleBankError``).
    public init(contentsOfAnyBank path: String, audioLoader: SampleBankAudioLoader? = nil,
                sampleBankOptions: SampleBankOptions = SampleBankOptions()) throws {
        switch try SoundBankKind.sniff(path: path) {
        case .soundFont:
            try self.init(contentsOf: path)
        case .dls:
            try self.init(contentsOfDLS: path)
        case .sampleBank:
            guard let audioLoader else { throw SoundBankError(path: path, kind: .audioLoaderRequired) }
            try self.init(contentsOfSampleBank: path, audioLoader: audioLoader, options: sampleBankOptions)
        case nil:
            throw SoundBankError(path: path, kind: .unrecognized)
        }
    }
}
