import ArgumentParser
import Foundation
import PolyphonMIDI

/// `polyphon convert IN.mid -o OUT.mid [--format 0|1] [--no-running-status]`: rewrites a
/// Standard MIDI File, optionally in another format.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Rewrite a Standard MIDI File, optionally converting between formats 0 and 1.",
        discussion: """
            Without --format the file keeps its format and its events: a lossless rewrite that \
            also repairs the defects the reader tolerates (wrong chunk lengths, missing end of \
            track, junk). Format 1 → 0 merges all tracks into one; 0 → 1 splits by channel into \
            a conductor track (tempo, meta and sysex events) and one track per channel used.
            """)

    @Argument(help: "The MIDI file to read (.mid, .midi, or a RIFF .rmi).")
    var input: String

    @Option(name: [.short, .customLong("output")], help: "Where to write the converted file.")
    var output: String

    @Option(name: .long, help: "The format to write: 0 (one track) or 1 (a track per part). Default: the input's format.")
    var format: Int?

    @Flag(name: .customLong("no-running-status"),
          help: "Write every status byte instead of omitting repeated ones.")
    var noRunningStatus = false

    func validate() throws {
        if let format, format != 0, format != 1 {
            throw ValidationError("--format must be 0 or 1, not \(format).")
        }
    }

    func run() throws {
        let file = try MIDIFile(contentsOfFile: input)
        let targetFormat = format.flatMap { MIDIFileFormat(rawValue: UInt16($0)) } ?? file.format
        for warning in file.warnings {
            FileHandle.standardError.write(Data("warning: \(input): \(warning)\n".utf8))
        }
        do {
            try file.write(to: URL(fileURLWithPath: output), format: targetFormat, runningStatus: !noRunningStatus)
        } catch {
            throw ConvertError(message: "\(output): cannot write: \(error.localizedDescription)")
        }
    }
}

/// A one-line failure of `polyphon convert` that is not a ``MIDIFileError``.
struct ConvertError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
