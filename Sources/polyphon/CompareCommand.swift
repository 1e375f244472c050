import ArgumentParser
import Foundation
import PolyphonAudio

/// `polyphon compare A.wav B.wav`: the fidelity tool — how far one render is from another.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two renders (WAV, 16-bit or float): level, spectrum and envelope.",
        discussion: """
            Prints the RMS level difference (A − B, dB), the log-spectral distance of the \
            long-term spectra with the level difference removed (dB), and the correlation of the \
            50 ms loudness envelopes. Used to compare Polyphon with FluidSynth on the same song.
            """)

    @Argument(help: "First render.") var a: String
    @Argument(help: "Second render (the reference).") var b: String
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        guard let c = AudioComparison.compare(a, b) else {
            throw CLIError("\(a), \(b): cannot read both as 16-bit or float WAV at the same sample rate")
        }
        if json {
            print(String(format: #"{"levelDifference": %.3f, "spectralDistance": %.3f, "envelopeCorrelation": %.4f, "seconds": %.2f}"#,
                         c.levelDifference, c.spectralDistance, c.envelopeCorrelation, c.seconds))
        } else {
            print(String(format: "level %+.2f dB, spectral distance %.2f dB, envelope correlation %.3f (%.1f s)",
                         c.levelDifference, c.spectralDistance, c.envelopeCorrelation, c.seconds))
        }
    }
}
