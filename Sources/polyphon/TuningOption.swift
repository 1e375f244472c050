import ArgumentParser
import Foundation
import PolyphonSynth

/// `--tuning FILE.scl [--tuning-key FILE.kbm]`: play every melodic channel in a Scala scale
/// (``SynthesizerConfiguration/tuning``), for `render`, `batch`, `play` and `synth`.
struct TuningOption: ParsableArguments {
    @Option(name: .customLong("tuning"), help: ArgumentHelp(
        "Play melodic channels in this Scala scale (.scl) instead of equal temperament; MIDI tuning messages in the song still apply.",
        valueName: "file.scl"))
    var scale: String?

    @Option(name: .customLong("tuning-key"), help: ArgumentHelp(
        "Scala keyboard mapping (.kbm) for --tuning: which key plays which degree, and the reference pitch (default: key 60 at 261.63 Hz, one degree per key).",
        valueName: "file.kbm"))
    var keyboardMapping: String?

    /// Scala files are a few kilobytes; anything larger is not one.
    static let maximumFileSize = 4 << 20

    func validate() throws {
        if keyboardMapping != nil && scale == nil { throw ValidationError("--tuning-key needs --tuning") }
        _ = try load(reportingWarnings: true)
    }

    /// The tuning the options name, or nil for equal temperament. Errors name the file and line.
    func load(reportingWarnings: Bool = false) throws -> Tuning? {
        guard let scale else { return nil }
        do {
            let scl = try ScalaScale(bytes: Self.read(scale))
            if reportingWarnings { for warning in scl.warnings { note("polyphon: \(scale): \(warning)") } }
            guard let keyboardMapping else { return try Tuning(scale: scl) }
            do {
                let kbm = try KeyboardMapping(bytes: Self.read(keyboardMapping))
                if reportingWarnings { for warning in kbm.warnings { note("polyphon: \(keyboardMapping): \(warning)") } }
                return try Tuning(scale: scl, keyboardMapping: kbm)
            } catch let error as ScalaFileError {
                throw CLIError("\(keyboardMapping): \(error)")
            }
        } catch let error as ScalaFileError {
            throw CLIError("\(scale): \(error)")
        }
    }

    /// The tuning, for options already validated.
    var tuning: Tuning? { (try? load()) ?? nil }

    private static func read(_ path: String) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CLIError("\(path): cannot open: \(FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file")")
        }
        defer { try? handle.close() }
        let data = handle.readData(ofLength: maximumFileSize + 1)
        guard data.count <= maximumFileSize else { throw CLIError("\(path): larger than 4 MiB: not a Scala file") }
        return [UInt8](data)
    }
}
