import ArgumentParser
import Foundation
import PolyphonAudio
import PolyphonBatch
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth

@main
struct Polyphon: AsyncParsableCommand {
    /// This release's version (SemVer), which `--version` prints and CHANGELOG.md describes.
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "polyphon",
        abstract: "SoundFont synthesizer, MIDI toolkit and renderer.",
        discussion: """
            Renders MIDI files to audio far faster than real time, inspects SoundFonts and MIDI \
            files, and rewrites MIDI files losslessly. Every command says which bank it used.
            """,
        version: version,
        subcommands: [RenderCommand.self, BatchCommand.self, InfoCommand.self, ConvertCommand.self, CompareCommand.self, ExportBankCommand.self, ExportWebCommand.self, JamCommand.self, DemoCommand.self, PlayCommand.self, SynthCommand.self])

    /// Bad input ends with exit code 1 and one line naming the file, the place and the reason —
    /// never a stack trace.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let error as CLIError {
            fail(error.description)
        } catch let error as MIDIFileError {
            fail(error.description)
        } catch let error as SoundFontError {
            fail(error.description)
        } catch let error as AudioFileError {
            fail(error.description)
        } catch let error as SynthesizerError {
            fail(error.description)
        } catch let error as SoundBankError {
            fail(error.description)
        } catch let error as DLSError {
            fail(error.description)
        } catch let error as SampleBankError {
            fail(error.description)
        } catch let error as SampleDecodingError {
            fail(error.description)
        } catch let error as ExportBankError {
            fail(error.description)
        } catch let error as DurationLimitError {
            fail(error.description)
        } catch let error as ConvertError {
            fail(error.description)
        } catch let error as BatchError {
            fail(error.description)
        } catch {
            exit(withError: error)
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("polyphon: \(message)\n".utf8))
        Foundation.exit(1)
    }
}

/// A one-line error for the user.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}

/// Writes a line to standard error (status, "using bank …").
func note(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
