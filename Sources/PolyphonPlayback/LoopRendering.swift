import Foundation
import PolyphonAudio
import PolyphonMIDI

/// How an offline render repeats the song's marked loop (`MIDILoop`, ``Timeline/loop``).
public enum LoopRendering: Sendable, Hashable {
    /// The loop plays this many times in all (1 is the song as written), then the rest of the
    /// song and its tail.
    case passes(Int)
    /// The loop plays this many times, then goes on repeating while the sound fades to silence
    /// over `seconds`, starting where the last pass ends; the render ends with the fade.
    case fadeOut(passes: Int, seconds: Double)
    /// A file a game engine can loop for ever: the song up to the loop's start, a first pass,
    /// and a second pass that ``RenderSummary/loop`` marks; nothing after it. Playing the file
    /// to the loop's end and then its loop again and again sounds like the song played through
    /// with its loop repeating: the second pass begins with what rang on from the first (notes,
    /// reverb and chorus tails), as every later pass does.
    case loopReady

    /// Passes rendered before the ending (a fade's passes; loop-ready: two).
    var passes: Int {
        switch self {
        case .passes(let n), .fadeOut(let n, _): return n
        case .loopReady: return 2
        }
    }
}

/// Where a loop-ready render's loop lies in what was written, in frames.
public struct RenderedLoop: Sendable, Hashable {
    /// The first frame of the loop.
    public var start: Int64
    /// The frame after the loop's last (the file ends here).
    public var end: Int64
    /// The mark it came from.
    public var marked: MIDILoop?

    public var length: Int64 { end - start }
}

/// A loop render that cannot be made.
public enum LoopRenderingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The song marks no loop (or only an unusable one: the warnings say why).
    case noLoop(fileName: String?, warnings: [String])
    /// Fewer than one pass.
    case invalidPassCount(Int)
    /// The passes asked for last longer than the render may (``RenderOptions/maxDuration``).
    case tooLong(fileName: String?, passes: Int, seconds: Double, limitSeconds: Double)

    /// The same error naming the file.
    public func naming(_ fileName: String) -> LoopRenderingError {
        switch self {
        case .noLoop(_, let warnings): return .noLoop(fileName: fileName, warnings: warnings)
        case .tooLong(_, let passes, let seconds, let limit):
            return .tooLong(fileName: fileName, passes: passes, seconds: seconds, limitSeconds: limit)
        case .invalidPassCount: return self
        }
    }

    public var description: String {
        switch self {
        case .noLoop(let name, let warnings):
            let reason = warnings.isEmpty ? "" : " (" + warnings.joined(separator: "; ") + ")"
            return "\(name.map { "\($0): " } ?? "")no loop marked (controller 111, loopStart/loopEnd markers or EMIDI "
                + "controllers 116/117)\(reason)"
        case .invalidPassCount(let n):
            return "the loop must play at least once (asked: \(n))"
        case .tooLong(let name, let passes, let seconds, let limit):
            return "\(name.map { "\($0): " } ?? "")\(passes) passes of the loop last \(DurationLimitError.span(seconds)), "
                + "past the maximum duration of \(DurationLimitError.span(limit)) (raise it with --max-duration)"
        }
    }
}

extension RenderedLoop {
    /// The loop points as `OUT.loop.json` holds them: `loopStart`, `loopEnd` and `loopLength`
    /// in sample frames (the file plays to `loopEnd`, then jumps back to `loopStart`), the same
    /// in seconds, the `sampleRate`, and where the song marked the loop (`source`, `startTick`,
    /// `endTick`).
    public func json(sampleRate: Double) -> Data {
        var object: [String: Any] = [
            "loopStart": start, "loopEnd": end, "loopLength": length, "sampleRate": sampleRate,
            "loopStartSeconds": Double(start) / sampleRate, "loopEndSeconds": Double(end) / sampleRate,
        ]
        if let marked {
            object["source"] = marked.source.rawValue
            object["startTick"] = marked.startTick
            object["endTick"] = marked.endTick
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return data + Data("\n".utf8)
    }

    /// `OUT.loop.json` beside an audio file `OUT.EXT`.
    public static func jsonPath(besideAudioFileAt path: String) -> String {
        (path as NSString).deletingPathExtension + ".loop.json"
    }

    /// The loop points in the audio file's own form (`AudioLoopPoints`).
    public var audioLoopPoints: AudioLoopPoints { AudioLoopPoints(start: start, end: end) }
}
