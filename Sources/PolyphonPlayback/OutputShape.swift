import Foundation
import PolyphonMIDI

/// How a render's output is cut and faded: the end of a loop render (``LoopRendering``) and an
/// exact length (``RenderOptions/length``). Gains apply in place to the rendered blocks, so a
/// render without either passes its samples through untouched.
struct OutputShape {
    /// Frames of the fade that ends a cut to length: short enough to keep the slot's sound,
    /// long enough that the cut does not click.
    static let lengthFadeSeconds = 0.02

    /// Engine frames rendered so far.
    private var frames: Int64 = 0
    /// The engine frame the output ends on (loop-ready: the loop's end; fade: the fade's end).
    private let endFrame: Int64
    /// The engine frames of a fade-out.
    private let fade: Range<Int64>?
    /// The loop a loop-ready render marks, in engine frames.
    private let readyLoop: Range<Int64>?
    private let marked: MIDILoop?
    /// The exact length in output frames, and the frames of its closing fade.
    let lengthFrames: Int64?
    private let lengthFade: Int64

    init(plan: PlaybackPlan, options: RenderOptions) {
        let rate = options.sampleRate
        var end = Int64.max
        var fade: Range<Int64>?
        var ready: Range<Int64>?
        if let loop = plan.loop, let looping = options.loop {
            switch looping {
            case .passes:
                break
            case .fadeOut(let passes, let seconds):
                let start = loop.startFrame + Int64(passes) * loop.length
                end = start + Int64((max(0, seconds) * rate).rounded())
                fade = start..<end
            case .loopReady:
                end = loop.startFrame + 2 * loop.length
                ready = (loop.startFrame + loop.length)..<end
            }
        }
        endFrame = end
        self.fade = fade
        readyLoop = ready
        marked = plan.loop?.marked
        lengthFrames = options.length.map { Int64((max(0, $0) * rate).rounded()) }
        lengthFade = Int64(Self.lengthFadeSeconds * rate)
    }

    /// Whether the output is complete.
    func isComplete(written: Int64) -> Bool {
        frames >= endFrame || (lengthFrames.map { written >= $0 } ?? false)
    }

    /// Fades the block of `count` engine frames and returns how many of them belong to the
    /// output (fewer past the loop-ready loop's end or the fade's end).
    mutating func shape(_ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, _ count: Int) -> Int {
        let first = frames
        frames += Int64(count)
        let keep = Int(max(0, min(Int64(count), endFrame - first)))
        if let fade, first + Int64(keep) > fade.lowerBound {
            let length = Double(fade.count)
            for i in 0..<keep {
                let t = Double(first + Int64(i) - fade.lowerBound) / length
                guard t > 0 else { continue }
                // Raised cosine: no corner where the fade starts or ends.
                let gain = Float(0.5 + 0.5 * cos(Double.pi * min(1, t)))
                left[i] *= gain
                right[i] *= gain
            }
        }
        return keep
    }

    /// Cuts the block to the exact length, fading its last frames; returns the frames kept.
    func cut(_ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, _ count: Int,
             written: Int64) -> Int {
        guard let lengthFrames else { return count }
        let keep = Int(max(0, min(Int64(count), lengthFrames - written)))
        let fadeStart = lengthFrames - lengthFade
        if written + Int64(keep) > fadeStart {
            for i in 0..<keep where written + Int64(i) >= fadeStart {
                let t = Double(written + Int64(i) - fadeStart + 1) / Double(lengthFade)
                let gain = Float(0.5 + 0.5 * cos(Double.pi * min(1, t)))
                left[i] *= gain
                right[i] *= gain
            }
        }
        return keep
    }

    /// The loop points of a loop-ready render in the output (after `trimmed` frames of leading
    /// silence were dropped).
    func renderedLoop(trimmed: Int64) -> RenderedLoop? {
        guard let readyLoop else { return nil }
        return RenderedLoop(start: max(0, readyLoop.lowerBound - trimmed), end: max(0, readyLoop.upperBound - trimmed),
                            marked: marked)
    }
}
