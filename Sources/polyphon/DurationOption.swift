import ArgumentParser
import PolyphonMIDI
import PolyphonPlayback

/// `--max-duration`: the most audio a file may ask for, so a hostile or broken file that spans
/// years is refused up front instead of rendering for hours and filling the disk.
struct DurationOption: ParsableArguments {
    @Option(name: .customLong("max-duration"),
            help: ArgumentHelp("Longest song accepted, in seconds, or 'none' (default 14400 = 4 h).",
                               discussion: "A file whose events reach past it is refused before anything is rendered, naming the track and time of the first such event.",
                               valueName: "seconds"))
    var maxDuration: String?

    func validate() throws {
        if let maxDuration, limitSeconds(maxDuration) == nil {
            throw ValidationError("--max-duration takes a number of seconds > 0, or 'none'")
        }
    }

    private func limitSeconds(_ text: String) -> Double?? {
        if text.lowercased() == "none" { return .some(nil) }
        guard let value = Double(text), value > 0, value.isFinite else { return nil }
        return .some(value)
    }

    /// The limit chosen (the default when the option is absent).
    var limit: DurationLimit {
        guard let maxDuration, let seconds = limitSeconds(maxDuration) else { return DurationLimit() }
        return DurationLimit(seconds: seconds)
    }

    /// Checks `file` (read from `path`) against the limit; the error names the file.
    func check(_ file: MIDIFile, path: String, leadIn: Double = 0) throws {
        do {
            try limit.check(file, leadIn: leadIn)
        } catch var error {
            error.fileName = path
            throw error
        }
    }
}
