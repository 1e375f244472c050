import ArgumentParser
import PolyphonAudio
import PolyphonMIDI
import PolyphonPlayback

/// The options of a render (`render`, `batch render`) that repeat the song's marked loop or
/// set its exact length, parsed into ``LoopRendering`` and ``RenderOptions/length``.
struct LoopOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Play the loop the song marks (controller 111, loopStart/loopEnd markers, EMIDI 116/117) N times in all (1 = as written), then the rest of the song.",
                               valueName: "N"))
    var loops: Int?

    @Option(help: ArgumentHelp("Instead of playing past the last pass (--loops, default 1), fade to silence over S seconds from where it ends.",
                               valueName: "seconds"))
    var fadeOut: Double?

    @Flag(help: "Write a file a game can loop for ever: the song to the loop's start, a first pass, then a second pass marked by loop points (WAV smpl/cue, AIFF MARK/INST, FLAC/Ogg/Opus LOOPSTART/LOOPLENGTH) and OUT.loop.json.")
    var loopReady = false

    @Option(help: ArgumentHelp("Make the output exactly S seconds: cut with a 20 ms fade, or padded with silence.",
                               valueName: "seconds"))
    var length: Double?

    func validate() throws {
        if let loops, loops < 1 { throw ValidationError("--loops must be ≥ 1") }
        if let fadeOut, !(fadeOut > 0 && fadeOut.isFinite) { throw ValidationError("--fade-out must be a number of seconds > 0") }
        if let length, !(length > 0 && length.isFinite) { throw ValidationError("--length must be a number of seconds > 0") }
        if loopReady && (loops != nil || fadeOut != nil || length != nil) {
            throw ValidationError("--loop-ready cannot be combined with --loops, --fade-out or --length (its file ends with the loop)")
        }
    }

    /// The loop rendering asked for, if any.
    var looping: LoopRendering? {
        if loopReady { return .loopReady }
        if let fadeOut { return .fadeOut(passes: loops ?? 1, seconds: fadeOut) }
        return loops.map { .passes($0) }
    }

    /// Whether an option needs the song's loop, and for which option's name.
    var optionNeedingLoop: String? {
        loopReady ? "--loop-ready" : fadeOut != nil ? "--fade-out" : loops != nil ? "--loops" : nil
    }

    /// Sets the loop rendering and the length.
    func apply(to options: inout RenderOptions) {
        options.loop = looping
        options.length = length
    }

    /// A usage error naming the file when the options need a loop it does not mark.
    func checkLoop(of file: MIDIFile, path: String) throws {
        guard let option = optionNeedingLoop else { return }
        let search = file.findLoop()
        guard search.loop == nil else { return }
        let reasons = search.warnings.map(\.description)
        let detail = reasons.isEmpty ? "" : " (" + reasons.joined(separator: "; ") + ")"
        throw ValidationError("\(path): \(option) needs a loop, and the file marks none (controller 111, loopStart/loopEnd markers or EMIDI controllers 116/117)\(detail)")
    }
}
