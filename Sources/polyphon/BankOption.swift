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
            help: ArgumentHelp("Bank to play: SoundFont (.sf2/.sf3), DLS, a SoundBankPlayer .plist, or an SFZ instrument; repeat to stack banks.",
                               discussion: "'builtin' selects the built-in General MIDI bank. An SFZ instrument plays on every channel but 10, or on channel 10 only when every region is one unpitched key (a kit); what it uses that Polyphon does not play yet is listed on stderr. X.sfz@B:P places it on bank B, program P (e.g. Piano.sfz@0:0, a kit on @128:0). Several --soundfont options stack: each bank and program plays from the first bank that has it, e.g. --soundfont Piano.sfz@0:0 --soundfont FluidR3_GM.sf2 (in a stack an SFZ without @ sits on 0:0, or 128:0 for a kit). Default: $POLYPHON_SOUNDFONT, $SOUNDFONT, ~/.local/share/soundfonts, ~/.soundfonts, the system's GM bank, then the built-in bank. A discovered bank that cannot be opened is skipped with a warning; half-written files (*.dpkg-new, *~, *.part …) are never considered."))
    var soundfont: [String] = []

    /// Reads the sample files of SoundBankPlayer banks.
    static let audioLoader: SampleBankAudioLoader = { path in
        let file = try AudioFile(contentsOf: path)
        return SampleBankAudio(sampleRate: file.sampleRate, channels: file.channels)
    }

    /// Loads the bank found by the documented search and says which one (one line on stderr).
    func load(quiet: Bool = false) throws -> (bank: SoundFont, name: String) {
        if soundfont.count > 1 || soundfont.contains(where: { BankStackEntry($0).placement != nil }) {
            return try loadStack(quiet: quiet)
        }
        let soundfont = soundfont.first
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

    /// The banks of every `--soundfont`, stacked in the order given.
    private func loadStack(quiet: Bool) throws -> (bank: SoundFont, name: String) {
        var banks: [SoundFont] = []
        for entry in soundfont.map(BankStackEntry.init) {
            if entry.path == "builtin" || entry.path == "built-in" {
                guard entry.placement == nil else { throw CLIError("\(entry.text): only an SFZ instrument takes @bank:program") }
                banks.append(SoundFont.builtInGeneralMIDI)
                continue
            }
            guard FileManager.default.fileExists(atPath: entry.path) else {
                throw CLIError("\(entry.path): no such sound bank (given by the --soundfont option)")
            }
            if try SoundBankKind.sniff(path: entry.path) == .sfz {
                banks.append(try Self.openSFZ(entry.path, placement: entry.placement ?? .automatic, inStack: soundfont.count > 1,
                                              quiet: quiet))
            } else {
                guard entry.placement == nil else { throw CLIError("\(entry.text): only an SFZ instrument takes @bank:program") }
                banks.append(try SoundFont(contentsOfAnyBank: entry.path, audioLoader: Self.audioLoader))
            }
        }
        let stack = try SoundFont(stacking: banks)
        if !quiet { note("polyphon: using banks \(soundfont.joined(separator: " + ")) (first bank with a program plays it)") }
        // Named by the files alone: renders and batch reports show the name, not the folders.
        return (stack, soundfont.map { ($0 as NSString).lastPathComponent }.joined(separator: " + "))
    }

    /// An SFZ instrument as the bank to play: read, its samples decoded (on every core), placed
    /// as a melodic instrument or a kit (in a stack, melodic means program 0 only); its warnings
    /// on stderr. The decoded files are let go once in the bank, so they are held once.
    static func openSFZ(_ path: String, placement: SFZPlacement = .automatic, inStack: Bool = false,
                        quiet: Bool) throws -> SoundFont {
        let instrument = try SFZInstrument(contentsOf: path)
        _ = try? instrument.preloadSamples()
        var slot = placement
        if inStack, slot == .automatic { slot = instrument.looksLikeDrumKit ? .drumKit : .preset(bank: 0, program: 0) }
        let playable = SFZSoundBank(instrument, placement: slot, releasingDecodedSamples: true)
        if !quiet {
            let warnings = instrument.warnings + playable.warnings
            for warning in warnings.prefix(sfzWarningLines) { note("polyphon: warning: \(warning)") }
            if warnings.count > sfzWarningLines {
                note("polyphon: \(warnings.count - sfzWarningLines) more warnings ('polyphon info' lists them)")
            }
            let placement = switch playable.placement {
            case .drumKit: "the drum kit (channel 10)"
            case .preset(let bank, let program): "bank \(bank), program \(program)"
            case .automatic, .melodic: "every channel but 10"
            }
            let regions = playable.regionCount == 1 ? "1 playable region" : "\(playable.regionCount) playable regions"
            note("polyphon: SFZ instrument, \(regions), on \(placement)")
        }
        return playable.soundFont
    }
}

/// One `--soundfont` value: a path, and for an SFZ instrument the `@bank:program` it is placed on.
struct BankStackEntry {
    /// The value as given.
    let text: String
    let path: String
    let placement: SFZPlacement?

    init(_ text: String) {
        let value = SoundBankPath(text)
        self.text = text
        path = value.path
        placement = value.preset.map { .preset(bank: $0.bank, program: $0.program) }
    }
}
