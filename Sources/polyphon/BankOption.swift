import ArgumentParser
import Foundation
import PolyphonAudio
import PolyphonBuiltInBank
import PolyphonSoundFont

/// `--soundfont` and the search for a bank when it is not given.
struct BankOption: ParsableArguments {
    @Option(name: [.customLong("soundfont"), .customShort("s")],
            help: ArgumentHelp("Bank to play: SoundFont (.sf2/.sf3), DLS, or a SoundBankPlayer .plist.",
                               discussion: "'builtin' selects the built-in General MIDI bank. Default: $POLYPHON_SOUNDFONT, $SOUNDFONT, ~/.local/share/soundfonts, ~/.soundfonts, the system's GM bank, then the built-in bank. A discovered bank that cannot be opened is skipped with a warning; half-written files (*.dpkg-new, *~, *.part …) are never considered."))
    var soundfont: String?

    /// Reads the sample files of SoundBankPlayer banks.
    static let audioLoader: SampleBankAudioLoader = { path in
        let file = try AudioFile(contentsOf: path)
        return SampleBankAudio(sampleRate: file.sampleRate, channels: file.channels)
    }

    /// Loads the bank found by the documented search and says which one (one line on stderr).
    func load(quiet: Bool = false) throws -> (bank: SoundFont, name: String) {
        if soundfont == "builtin" || soundfont == "built-in" {
            if !quiet { note("polyphon: using the built-in General MIDI bank") }
            return (SoundFont.builtInGeneralMIDI, "built-in")
        }
        let (bank, location) = try SoundBankLocator().open(
            explicitPath: soundfont,
            opening: { try SoundFont(contentsOfAnyBank: $0, audioLoader: Self.audioLoader) },
            builtIn: { SoundFont.builtInGeneralMIDI },
            skipped: { note($0) })
        switch location {
        case .file(let path, let origin):
            if !quiet { note("polyphon: using bank \(path) (from \(origin))") }
            return (bank, path)
        case .builtIn:
            if !quiet { note("polyphon: no SoundFont found; using the built-in General MIDI bank") }
            return (bank, "built-in")
        }
    }
}
