import ArgumentParser
import Foundation
import PolyphonBuiltInBank
import PolyphonSoundFont

/// `polyphon export-bank BANK [--preset B:P …] -o OUT.sf2`: writes a bank, or some of its
/// presets, as a SoundFont 2 file any SF2 player can load — the built-in bank Polyphon carries
/// in code, or a file's presets with SF3 samples decoded (what a browser is sent one
/// instrument at a time).
struct ExportBankCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-bank",
        abstract: "Write a bank, or some of its presets, as a SoundFont 2 (.sf2) file.",
        discussion: """
            BANK is "builtin" (Polyphon's General MIDI bank, synthesized in code: the same \
            bytes on every run and platform) or a bank file (SF2, SF3, DLS, SoundBankPlayer \
            plist, or an SFZ instrument: its SF2 twin, the zones Polyphon plays it with). With --preset, only those presets, the instruments they use and the samples \
            they play are written, SF3 samples decoded to 16-bit PCM; the result plays them \
            exactly as the whole bank does.
            """)

    @Argument(help: "The bank to export: builtin, a bank file, or an SFZ instrument.")
    var bank: String

    @Option(name: .customLong("preset"), help: ArgumentHelp("A preset to keep, as BANK:PROGRAM (e.g. 0:48, 128:0); repeatable. Default: all.", valueName: "bank:program"))
    var presets: [String] = []

    @Option(name: [.short, .customLong("output")], help: "Where to write the .sf2 file.")
    var output: String

    func validate() throws {
        for p in presets where Self.parse(p) == nil {
            throw ValidationError("--preset takes BANK:PROGRAM (0–16383:0–127), not '\(p)'")
        }
    }

    static func parse(_ text: String) -> (bank: UInt16, program: UInt16)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let b = UInt16(parts[0]), let p = UInt16(parts[1]), b <= 16_383, p <= 127 else { return nil }
        return (b, p)
    }

    func run() throws {
        // The built-in bank is synthesized on first use; timing it tells users what startup costs.
        let clock = ContinuousClock()
        var loaded: SoundFont?
        let cpuStart = Foundation.clock()
        let elapsed = try clock.measure {
            loaded = bank == "builtin" || bank == "built-in"
                ? SoundFont.builtInGeneralMIDI
                : try SoundBankKind.sniff(path: bank) == .sfz
                    ? BankOption.openSFZ(bank, quiet: true)
                    : SoundFont(contentsOfAnyBank: bank, audioLoader: BankOption.audioLoader)
        }
        let cpuMilliseconds = Double(Foundation.clock() - cpuStart) * 1000 / Double(CLOCKS_PER_SEC)
        guard var soundFont = loaded else { return }
        let isBuiltIn = bank == "builtin" || bank == "built-in"
        if !presets.isEmpty || !isBuiltIn {
            var indexes: [Int] = []
            for text in presets {
                guard let (b, p) = Self.parse(text) else { continue }
                guard let index = soundFont.presets.firstIndex(where: { $0.bank == b && $0.program == p }) else {
                    throw ExportBankError(message: "\(bank): no preset \(b):\(p)")
                }
                indexes.append(index)
            }
            soundFont = try soundFont.subset(presetIndexes: presets.isEmpty ? Array(soundFont.presets.indices) : indexes)
        }
        let bytes = soundFont.serialized()
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw ExportBankError(message: "\(output): cannot write: \(error.localizedDescription)")
        }
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        print("Wrote \(output): \(soundFont.presets.count) presets, \(soundFont.samples.count) samples, "
              + "\(bytes.count) bytes (\(soundFont.sampleData.pointCount * 2) bytes of sample data)"
              + (isBuiltIn ? "; bank synthesized in \(String(format: "%.0f", milliseconds)) ms "
                  + "(\(String(format: "%.0f", cpuMilliseconds)) ms of CPU time on all cores)." : "."))
    }
}

/// A one-line failure of `polyphon export-bank`.
struct ExportBankError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
