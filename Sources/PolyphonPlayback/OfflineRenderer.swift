import Foundation
import PolyphonAudio
import PolyphonMIDI
import PolyphonSoundFont
import PolyphonSynth

/// Renders a MIDI file through a synthesizer as fast as the CPU allows ("bounce"), with every
/// event on its exact frame and an exact tail: after the last event it renders until every
/// voice has ended and the effects have rung out, capped by ``RenderOptions/maxTail``.
public final class OfflineRenderer {
    public let soundBank: SoundFont
    public let options: RenderOptions
    /// Stops the render at a block boundary when it fires (``RenderCancelledError``).
    public let cancellation: RenderCancellation?

    /// Receives rendered audio: (left, right, frameCount). The buffers are reused after return.
    public typealias Sink = (UnsafePointer<Float>, UnsafePointer<Float>, Int) throws -> Void

    /// The bank's resolved presets when they are shared with other renderers.
    private let preparedBank: PreparedSoundBank?

    public init(soundBank: SoundFont, options: RenderOptions = RenderOptions(),
                cancellation: RenderCancellation? = nil) {
        self.soundBank = soundBank
        self.options = options
        self.cancellation = cancellation
        preparedBank = nil
    }

    /// A renderer whose synthesizers use regions resolved once for many renderers (a batch
    /// renders one file per core with one copy of them).
    public init(preparedBank: PreparedSoundBank, options: RenderOptions = RenderOptions(),
                cancellation: RenderCancellation? = nil) {
        soundBank = preparedBank.soundBank
        self.options = options
        self.cancellation = cancellation
        self.preparedBank = preparedBank
    }

    /// Renders on these threads instead of a pool of ``RenderOptions/threads`` (benchmarks: a
    /// pool that runs every task on the calling thread, to time the threaded path on one).
    @_spi(Testing) public var threadPool: (any RenderThreadPool)?
    /// Called with each synthesizer before it renders (benchmarks: a ``RenderProfile``).
    @_spi(Testing) public var prepareSynthesizer: ((Synthesizer) -> Void)?

    /// A synthesizer for one render, with its own ``RenderOptions/threads``.
    func makeSynthesizer(_ configuration: SynthesizerConfiguration) throws(SynthesizerError) -> Synthesizer {
        let synthesizer = try makeBareSynthesizer(configuration)
        prepareSynthesizer?(synthesizer)
        return synthesizer
    }

    private func makeBareSynthesizer(_ configuration: SynthesizerConfiguration) throws(SynthesizerError) -> Synthesizer {
        let threads = threadPool ?? (options.threads > 1 ? RenderThreads(count: options.threads) : nil)
        if let preparedBank {
            return try Synthesizer(preparedBank: preparedBank, sampleRate: options.sampleRate, configuration: configuration,
                                   threads: threads)
        }
        return try Synthesizer(soundBank: soundBank, sampleRate: options.sampleRate, configuration: configuration,
                               threads: threads)
    }

    /// Renders `file` into `sink`; returns what was produced.
    /// - Throws: ``DurationLimitError`` before rendering anything when the song lasts longer
    ///   than ``RenderOptions/maxDuration``; ``LoopRenderingError`` when ``RenderOptions/loop``
    ///   asks for a loop the file does not mark or for more passes than the limit allows;
    ///   ``RenderCancelledError`` when ``cancellation`` fires; whatever `sink` throws.
    @discardableResult
    public func render(_ file: MIDIFile, into sink: Sink,
                       progress: ((RenderProgress) -> Void)? = nil) throws -> RenderSummary {
        try options.maxDuration.check(file, leadIn: options.leadIn)
        let timeline = Timeline(file: file, sampleRate: options.sampleRate, leadIn: options.leadIn)
        return try render(timeline, into: sink, progress: progress)
    }

    /// Renders a prepared timeline (at most ``RenderOptions/maxDuration`` of it).
    @discardableResult
    public func render(_ timeline: Timeline, into sink: Sink,
                       progress: ((RenderProgress) -> Void)? = nil) throws -> RenderSummary {
        var config = options.synthesizer
        config.channelCount = max(config.channelCount, 16 * timeline.portCount)
        // An SF3 bank's samples are decoded now, on every core, not on the render thread.
        if soundBank.sampleData.decoder != nil {
            _ = try? soundBank.preloadSamples(forPresetsAt: timeline.presetsPlayed(in: soundBank))
        }
        let plan = try loopPlan(timeline)
        let synth = try makeSynthesizer(config)
        let block = max(64, options.blockSize)
        let left = UnsafeMutablePointer<Float>.allocate(capacity: block)
        let right = UnsafeMutablePointer<Float>.allocate(capacity: block)
        defer { left.deallocate(); right.deallocate() }

        var peak: Float = 0
        var written: Int64 = 0
        var trimmed: Int64 = 0
        var leading = options.trimLeadingSilence
        var shape = OutputShape(plan: plan, options: options)
        let (maxVoices, elapsed) = try drive(plan, synth: synth, block: block, progress: progress,
                                             stop: { shape.isComplete(written: written) }) { rendered in
            synth.render(left: left, right: right, frameCount: rendered)
            let n = shape.shape(left, right, rendered)
            var start = 0
            if leading {
                while start < n && left[start] == 0 && right[start] == 0 { start += 1 }
                if start < n { leading = false }
                trimmed += Int64(start)
            }
            let count = shape.cut(left + start, right + start, n - start, written: written)
            if count > 0 {
                peak = LoudnessMeter.largestMagnitude(in: UnsafeBufferPointer(start: left + start, count: count), floor: peak)
                peak = LoudnessMeter.largestMagnitude(in: UnsafeBufferPointer(start: right + start, count: count), floor: peak)
                try sink(left + start, right + start, count)
                written += Int64(count)
            }
        }
        // An exact length: silence after a render that ended early.
        if let target = shape.lengthFrames, written < target {
            left.update(repeating: 0, count: block)
            right.update(repeating: 0, count: block)
            while written < target {
                let count = Int(min(Int64(block), target - written))
                try sink(left, right, count)
                written += Int64(count)
            }
        }
        return RenderSummary(frames: written, sampleRate: options.sampleRate, peak: peak,
                             maxVoices: maxVoices, elapsed: elapsed, loop: shape.renderedLoop(trimmed: trimmed),
                             trimmedFrames: trimmed)
    }

    /// The plan for a render: the timeline and, when ``RenderOptions/loop`` asks for it, its
    /// loop. Checks the loop render against the duration limit before anything renders.
    func loopPlan(_ timeline: Timeline) throws(LoopRenderingError) -> PlaybackPlan {
        guard let looping = options.loop else { return PlaybackPlan(timeline: timeline, loop: nil) }
        guard let loop = timeline.loop else { throw .noLoop(fileName: nil, warnings: []) }
        let passes = looping.passes
        guard passes >= 1 else { throw .invalidPassCount(passes) }
        let rate = options.sampleRate
        // Lead-in, intro and passes (the rest of the song is under the file's own check).
        var seconds = (Double(loop.startFrame) + Double(passes) * Double(loop.length)) / rate
        if case .fadeOut(_, let fade) = looping { seconds += max(0, fade) }
        if let limit = options.maxDuration.seconds, seconds > limit {
            throw .tooLong(fileName: nil, passes: passes, seconds: seconds, limitSeconds: limit)
        }
        return PlaybackPlan(timeline: timeline, loop: loop)
    }

    /// The render loop every output form shares: a loop over the engine (``PlaybackEngine``)
    /// that plays the plan's timeline: each step sends the events due to the synthesizer on
    /// their frames (on the output bus `outputBuses` names for each event, when given), lets
    /// `renderBlock(n)` render and deliver the block, checks ``cancellation`` before each block,
    /// stops at ``RenderOptions/maxDuration`` or when `stop` says so, and reports progress at
    /// most every 100 ms. Returns the most voices heard at once and the time taken.
    func drive(_ plan: PlaybackPlan, synth: Synthesizer, block: Int,
               outputBuses: [Int] = [], progress: ((RenderProgress) -> Void)?,
               stop: () -> Bool = { false },
               renderBlock: (Int) throws -> Void) throws -> (maxVoices: Int, elapsed: Double) {
        let started = DispatchTime.now().uptimeNanoseconds
        let timeline = plan.timeline
        let lastFrame = timeline.lastEventFrame
        let limit = options.maxDuration.frames(sampleRate: options.sampleRate)
        let engine = PlaybackEngine(synthesizer: synth, plan: plan, noteCapacity: max(256, synth.configuration.polyphony * 2))
        engine.maximumTail = options.maxTail
        engine.liftsPedalsAtEnd = options.liftPedalsAtEnd
        engine.outputBuses = outputBuses
        engine.start(jumps: options.loop.map { looping in
            if case .fadeOut = looping { return -1 }
            return looping.passes - 1
        } ?? 0)
        var maxVoices = 0
        var lastProgress = started
        let expected = Double(plan.loop.map { $0.startFrame + Int64(options.loop?.passes ?? 1) * $0.length } ?? 0)
        while true {
            if options.endAtLastEvent && engine.position >= Double(lastFrame) { break }
            let frame = engine.outputFrame
            if engine.completionFrame >= 0 || frame >= limit || stop() { break }
            try cancellation?.check(framesRendered: frame, sampleRate: options.sampleRate)
            let n = try engine.step(maximumFrames: Int(min(Int64(block), limit - frame)), render: renderBlock)
            if n == 0 { break }
            maxVoices = max(maxVoices, synth.activeVoiceCount)
            if let progress {
                let now = DispatchTime.now().uptimeNanoseconds
                if now - lastProgress > 100_000_000 {
                    lastProgress = now
                    let secs = Double(now - started) / 1e9
                    let done = Double(engine.outputFrame)
                    let fraction = min(1, done / max(1, max(Double(lastFrame), expected)))
                    progress(RenderProgress(fraction: fraction, framesRendered: engine.outputFrame,
                                            speed: secs > 0 ? done / options.sampleRate / secs : 0))
                }
            }
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        progress?(RenderProgress(fraction: 1, framesRendered: engine.outputFrame,
                                 speed: elapsed > 0 ? Double(engine.outputFrame) / options.sampleRate / elapsed : 0))
        return (maxVoices, elapsed)
    }
}
