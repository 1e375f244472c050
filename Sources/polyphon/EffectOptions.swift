import ArgumentParser
import PolyphonSynth

/// `--reverb`, `--chorus`, `--no-reverb`, `--no-chorus`: the effect settings shared by every
/// command that renders, with FluidSynth's meanings and defaults.
struct EffectOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Reverb: room,damp,width,level (FluidSynth's meanings; default 0.2,0,0.5,0.9).",
                               valueName: "room,damp,width,level"))
    var reverb: String?

    @Option(help: ArgumentHelp("Chorus: voices,level,speed,depth (default 3,2,0.3,8: Hz and ms).",
                               valueName: "voices,level,speed,depth"))
    var chorus: String?

    @Flag(help: "Turn the reverb off.")
    var noReverb = false

    @Flag(help: "Turn the chorus off.")
    var noChorus = false

    static func numbers(_ text: String, count: Int, name: String) throws -> [Double] {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == count, parts.allSatisfy({ $0 != nil && $0!.isFinite }) else {
            throw ValidationError("--\(name) takes \(count) comma-separated numbers")
        }
        return parts.map { $0! }
    }

    func validate() throws {
        if let reverb {
            let v = try Self.numbers(reverb, count: 4, name: "reverb")
            guard (0...1).contains(v[0]), (0...1).contains(v[1]), (0...100).contains(v[2]), (0...1).contains(v[3]) else {
                throw ValidationError("--reverb: room 0–1, damp 0–1, width 0–100, level 0–1")
            }
        }
        if let chorus {
            let v = try Self.numbers(chorus, count: 4, name: "chorus")
            guard (0...99).contains(v[0]), (0...10).contains(v[1]), (0.1...5).contains(v[2]), (0...256).contains(v[3]) else {
                throw ValidationError("--chorus: voices 0–99, level 0–10, speed 0.1–5 Hz, depth 0–256 ms")
            }
        }
        if noReverb && reverb != nil { throw ValidationError("--reverb and --no-reverb contradict each other") }
        if noChorus && chorus != nil { throw ValidationError("--chorus and --no-chorus contradict each other") }
    }

    /// Applies the options to a synthesizer configuration.
    func apply(to configuration: inout SynthesizerConfiguration) {
        configuration.reverbEnabled = !noReverb
        configuration.chorusEnabled = !noChorus
        if let reverb, let v = try? Self.numbers(reverb, count: 4, name: "reverb") {
            configuration.reverb = ReverbSettings(roomSize: v[0], damping: v[1], width: v[2], level: v[3])
        }
        if let chorus, let v = try? Self.numbers(chorus, count: 4, name: "chorus") {
            configuration.chorus = ChorusSettings(voiceCount: Int(v[0]), level: v[1], speed: v[2], depth: v[3])
        }
    }
}
