import ArgumentParser
import Foundation
import PolyphonAudio
import PolyphonBuiltInBank
import PolyphonSFZ
import PolyphonSoundFont
import PolyphonSynth

/// `--soundfont` and the search for a bank when it is not given.
struct BankOption: ParsableArguments {
    @Option(name: [.customLong("soundfont"), .customShort("s")],
            help: ArgumentHelp("Bank to play: SoundFont (.sf2/.sf3), DLS, a SoundBankPlayer .plist, or an SFZ instrument.",
                               discussion: "'builtin' selects the built-in General MIDI bank. An SFZ instrument plays on every channel but 10, or on channel 10 only when every region is one unpitched key (a kit); what it uses that Polyphon does not play yet is listed on stderr. Default: $POLYPHON_SOUNDFONT, $SOUNDFONT, ~/.local/share/soundfonts, ~/.soundfonts, the system's GM bank, then the built-in bank. A discovered bank that cannot be opened is skipped with a warning; half-written files (*.dpkg-new, *~, *.part …) are never considered."))
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
            opening: { path in
                if try SoundBankKind.sniff(path: path) == .sfz { return try Self.openSFZ(path, quiet: quiet) }
                return try SoundFont(contentsOfAnyBank: path, audioLoader: Self.audioLoader)
            },
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

    /// Warnings about an SFZ instrument printed before the rest are summarised.
    static let sfzWarningLines = 20

    /// An SFZ instrument as the bank to play: read, its samples decoded (on every core), placed
    /// as a melodic instrument or a kit; its warnings on stderr.
    static func openSFZ(_ path: String, quiet: Bool) throws -> SoundFont {
        let instrument = try SFZInstrument(contentsOf: path)
        _ = try? instrument.preloadSamples()
        let playable = SFZSoundBank(instrument)
        if !quiet {
            let warnings = instrument.warnings + playable.warnings
            for warning in warnings.prefix(sfzWarningLines) { note("polyphon: warning: \(warning)") }
            if warnings.count > sfzWarningLines {
                note("polyphon: \(warnings.count - sfzWarningLines) more warnings ('polyphon info' lists them)")
            }
            let placement = playable.placement == .drumKit ? "the drum kit (channel 10)" : "every channel but 10"
            let regions = playable.regionCount == 1 ? "1 playable region" : "\(playable.regionCount) playable regions"
            note("polyphon: SFZ instrument, \(regions), on \(placement)")
        }
        return playable.soundFont
    }
}
