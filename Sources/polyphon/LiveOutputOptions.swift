import ArgumentParser
import PolyphonAudio
import PolyphonLive

/// `--backend`, `--device`, `--latency`: where the live commands (`play`, `synth`) send sound.
struct LiveOutputOptions: ParsableArguments {
    @Option(help: "Audio backend: pulse or alsa (default: the first that works).")
    var backend: String?

    @Option(help: "Device: an ALSA PCM name (default, hw:0, file:'out.raw',raw) or a PulseAudio sink.")
    var device: String?

    @Option(help: "Output latency in milliseconds (one device period).")
    var latency: Double = 10

    func validate() throws {
        if let backend, AudioBackend(rawValue: backend.lowercased()) == nil {
            throw ValidationError("--backend must be pulse or alsa")
        }
        if !(1...500).contains(latency) { throw ValidationError("--latency must be 1–500 ms") }
    }

    /// Opens the output at `sampleRate` (the device may choose another), or fails with the
    /// backend's one-line reason.
    func open(sampleRate: Double) throws -> LiveOutput {
        let settings = AudioOutputSettings(sampleRate: sampleRate, latency: latency / 1000)
        do {
            return try LiveOutput(backend: backend.flatMap { AudioBackend(rawValue: $0.lowercased()) },
                                  device: device, settings: settings)
        } catch {
            throw CLIError(error.description)
        }
    }
}
