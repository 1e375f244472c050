import ArgumentParser
import Foundation
import PolyphonMIDI
import PolyphonSoundFont

/// `polyphon info FILE [--json]`: what is inside a SoundFont or a MIDI file.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show what a bank (SF2, SF3, DLS, sample-bank plist) or a MIDI file (.mid/.rmi) holds.",
        discussion: "The kind of file is recognised from its content, not its name. --json prints a stable JSON object (fields: Documentation/cli.md).")

    @Argument(help: "The file to describe.")
    var file: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    enum Kind { case midi, soundFont }

    /// Sniffs the first 12 bytes: MThd or RIFF…RMID is MIDI, RIFF…sfbk is a SoundFont.
    static func kind(of path: String) throws -> Kind {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CLIError("\(path): cannot open: \(FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file")")
        }
        defer { try? handle.close() }
        let head = [UInt8](handle.readData(ofLength: 12))
        if head.count >= 4 && head[0..<4] == [0x4D, 0x54, 0x68, 0x64] { return .midi }
        if head.count >= 12 && head[0..<4] == [0x52, 0x49, 0x46, 0x46],
           String(decoding: head[8..<12], as: UTF8.self) == "RMID" {
            return .midi
        }
        if SoundBankKind.sniff(head: head) != nil { return .soundFont }
        // Property lists are recognised further in than 12 bytes.
        if (try? SoundBankKind.sniff(path: path)) ?? nil != nil { return .soundFont }
        throw CLIError("\(path): not a SoundFont, DLS, sample bank or MIDI file (unrecognised header)")
    }

    func run() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        switch try Self.kind(of: file) {
        case .midi:
            let report = MIDIFileReport(file: try MIDIFile(contentsOfFile: file), path: file)
            if json { print(String(decoding: try encoder.encode(report), as: UTF8.self)) } else { print(report.text) }
        case .soundFont:
            let bank = try SoundFont(contentsOfAnyBank: file, audioLoader: BankOption.audioLoader)
            let report = SoundFontReport(soundFont: bank, path: file)
            if json { print(String(decoding: try encoder.encode(report), as: UTF8.self)) } else { print(report.text) }
        }
    }
}
