import PolyphonSynth

/// How the offline renderer turns a song into audio.
public struct RenderOptions: Sendable {
    public var sampleRate: Double = 44100
    /// The engine's settings (gain with FluidSynth's meaning, interpolation, polyphony, effects).
    public var synthesizer = SynthesizerConfiguration()
    /// Silence before the first event, in seconds.
    public var leadIn: Double = 0
    /// After the last event, render until every voice has ended, but at most this long (s).
    public var maxTail: Double = 10
    /// The most audio a render may produce (lead-in, song and tail): a longer song is refused
    /// before rendering (``DurationLimitError``), and no tail runs past it. Four hours by default.
    public var maxDuration = DurationLimit()
    /// Drop silence before the first audible sample.
    public var trimLeadingSilence = false
    /// When the song is over, lift the sustain and sostenuto pedals still down and release notes
    /// whose note-off never came, so they ring out and stop, as FluidSynth's player does (sustain
    /// off, sostenuto off, all notes off); else they ring until they die, up to ``maxTail``.
    public var liftPedalsAtEnd = true
    /// Stop at the last event instead of letting notes ring out.
    public var endAtLastEvent = false
    /// Frames rendered per call into the synthesizer (events still land on their exact frame).
    public var blockSize = 1024
    /// Repeat the song's marked loop (``LoopRendering``); `nil` plays the song as written.
    public var loop: LoopRendering?
    /// Make the output exactly this many seconds: a longer render is cut with a short fade
    /// (20 ms), a shorter one padded with silence.
    public var length: Double?
    /// Threads the synthesizer spreads its voices over, the rendering thread included
    /// (``RenderThreads``): the output is the same bytes for every count.
    public var threads = 1

    public init() {}
}

/// What a render produced, for the summary line.
public struct RenderSummary: Sendable {
    public var frames: Int64
    public var sampleRate: Double
    public var peak: Float
    public var maxVoices: Int
    /// Wall-clock seconds spent rendering.
    public var elapsed: Double

    /// Frames of leading silence ``RenderOptions/trimLeadingSilence`` dropped: the output's
    /// first frame is the song's frame `trimmedFrames` (0 without trimming).
    public var trimmedFrames: Int64

    public init(frames: Int64, sampleRate: Double, peak: Float, maxVoices: Int, elapsed: Double, loop: RenderedLoop? = nil,
                trimmedFrames: Int64 = 0) {
        self.frames = frames
        self.sampleRate = sampleRate
        self.peak = peak
        self.maxVoices = maxVoices
        self.elapsed = elapsed
        self.loop = loop
        self.trimmedFrames = trimmedFrames
    }
    public var duration: Double { Double(frames) / sampleRate }
    public var peakDecibels: Double { peak > 0 ? 20 * log10(Double(peak)) : -.infinity }
    /// Audio seconds per wall-clock second.
    public var speed: Double { elapsed > 0 ? duration / elapsed : .infinity }
    /// A loop-ready render's loop points (``LoopRendering/loopReady``).
    public var loop: RenderedLoop?
}

/// Reported while rendering: how far along, and how fast.
public struct RenderProgress: Sendable {
    /// 0…1 of the song's events (the tail counts as the last stretch).
    public var fraction: Double
    public var framesRendered: Int64
    /// Audio seconds rendered per wall-clock second so far.
    public var speed: Double
}

import Foundation
