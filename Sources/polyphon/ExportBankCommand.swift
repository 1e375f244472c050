import ArgumentParser
import Foundation
import PolyphonBuiltInBank
import PolyphonSoundFont

/// `polyphon export-bank builtin -o gm.sf2`: writes a bank Polyphon carries in code as a
/// regular SoundFont 2 file that any SF2 player can load.
struct ExportBankCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-bank",
        abstract: "Write a built-in bank as a SoundFont 2 (.sf2) file.",
        discussion: """
            The only built-in bank is "builtin": Polyphon's General MIDI bank, synthesized in \
            code (128 GM programs and the standard drum kit). The file is byte-for-byte the same \
            on every run and platform.
            """)

    @Argument(help: "The bank to export: builtin.")
    var bank: String

    @Option(name: [.short, .customLong("output")], help: "Where to write the .sf2 file.")
    var output: String

    func validate() throws {
        guard bank == "builtin" else {
            throw ValidationError("Unknown bank '\(bank)'; the built-in banks are: builtin.")
        }
    }

    func run() throws {
        // The bank is synthesized on first use; timing it tells users what startup costs.
        let clock = ContinuousClock()
        var soundFont: SoundFont?
        let cpuStart = Foundation.clock()
        let elapsed = clock.measure { soundFont = SoundFont.builtInGeneralMIDI }
        let cpuMilliseconds = Double(Foundation.clock() - cpuStart) * 1000 / Double(CLOCKS_PER_SEC)
        guard let soundFont else { return }
        let bytes = soundFont.serialized()
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw ExportBankError(message: "\(output): cannot write: \(error.localizedDescription)")
        }
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        print("Wrote \(output): \(soundFont.presets.count) presets, \(soundFont.samples.count) samples, "
              + "\(bytes.count) bytes (\(soundFont.sampleData.words.count * 2) bytes of sample data); "
              + "bank synthesized in \(String(format: "%.0f", milliseconds)) ms "
              + "(\(String(format: "%.0f", cpuMilliseconds)) ms of CPU time on all cores).")
    }
}

/// A one-line failure of `polyphon export-bank`.
struct ExportBankError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
