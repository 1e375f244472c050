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

    /// A synthesizer for one render, with its own ``RenderOptions/threads``.
    func makeSynthesizer(_ configuration: SynthesizerConfiguration) throws(SynthesizerError) -> Synthesizer {
        let threads = options.threads > 1 ? RenderThreads(count: options.threads) : nil
        if let preparedBank {
            return try Synthesizer(preparedBank: preparedBank, sampleRate: options.sampleRate, configuration: configuration,
                                   threads: threads)
        }
        return try Synthesizer(soundBank: soundBank, sampleRate: options.sampleRate, configuration: configuration,
                               threads: threads)
    }

    /// Renders `file` into `sink`; returns what was produced.
    /// - Throws: ``DurationLimitError`` before rendering anything when the song lasts longer
    ///   than ``RenderOptions/maxDuration``; ``RenderCancelledError`` when ``cancellation``
    ///   fires; whatever `sink` throws.
    @discardableResult
    public func render(_ file: MIDIFile, into sink: Sink,
                       progress: ((RenderProgress) -> Void)? = nil) throws -> RenderSummary {
        try options.maxDuration.check(file, leadIn: options.leadIn)
        let schedule = MIDISchedule(file: file, sampleRate: options.sampleRate, leadIn: options.leadIn)
        return try render(schedule, into: sink, progress: progress)
    }

    /// Renders a prepared schedule (at most ``RenderOptions/maxDuration`` of it).
    @discardableResult
    public func render(_ schedule: MIDISchedule, into sink: Sink,
                       progress: ((RenderProgress) -> Void)? = nil) throws -> RenderSummary {
        var config = options.synthesizer
        config.channelCount = max(config.channelCount, 16 * schedule.portCount)
        // An SF3 bank's samples are decoded now, on every core, not on the render thread.
        if soundBank.sampleData.decoder != nil {
            _ = try? soundBank.preloadSamples(forPresetsAt: schedule.presetsPlayed(in: soundBank))
        }
        let synth = try makeSynthesizer(config)
        let block = max(64, options.blockSize)
        let left = UnsafeMutablePointer<Float>.allocate(capacity: block)
        let right = UnsafeMutablePointer<Float>.allocate(capacity: block)
        defer { left.deallocate(); right.deallocate() }

        var peak: Float = 0
        var written: Int64 = 0
        var leading = options.trimLeadingSilence
        let (maxVoices, elapsed) = try drive(schedule, synth: synth, block: block, progress: progress) { n in
            synth.render(left: left, right: right, frameCount: n)
            var start = 0
            if leading {
                while start < n && left[start] == 0 && right[start] == 0 { start += 1 }
                if start < n { leading = false }
            }
            let count = n - start
            if count > 0 {
                peak = LoudnessMeter.largestMagnitude(in: UnsafeBufferPointer(start: left + start, count: count), floor: peak)
                peak = LoudnessMeter.largestMagnitude(in: UnsafeBufferPointer(start: right + start, count: count), floor: peak)
                try sink(left + start, right + start, count)
                written += Int64(count)
            }
        }
        return RenderSummary(frames: written, sampleRate: options.sampleRate, peak: peak,
                             maxVoices: maxVoices, elapsed: elapsed)
    }

    /// The render loop every output form shares: steps to the next block (or tail step), hands
    /// the events before its end to the synthesizer at their frames (on the output bus
    /// `outputBus(i)` names for `schedule.events[i]`), lets `renderBlock(n)` render and deliver
    /// the block, checks ``cancellation`` before each block, and reports progress at most every
    /// 100 ms. Returns the most voices heard at once and the time taken.
    func drive(_ schedule: MIDISchedule, synth: Synthesizer, block: Int,
               outputBus: (Int) -> Int = { _ in 0 }, progress: ((RenderProgress) -> Void)?,
               renderBlock: (Int) throws -> Void) throws -> (maxVoices: Int, elapsed: Double) {
        let started = DispatchTime.now().uptimeNanoseconds
        let lastFrame = schedule.lastEventFrame
        let tail = RenderTail(maximumSeconds: options.maxTail, sampleRate: options.sampleRate)
        let limit = options.maxDuration.frames(sampleRate: options.sampleRate)
        var tailStart: Int64?
        var frame: Int64 = 0
        var next = 0
        var maxVoices = 0
        var lastProgress = started
        let events = schedule.events
        while true {
            // Up to the last event: blocks; the events at the last frame get a one-frame step of
            // their own. Then the tail (``RenderTail``).
            var n: Int
            if frame >= lastFrame && options.endAtLastEvent { break }
            if frame >= limit { break }
            if frame < lastFrame || next < events.count {
                n = Int(min(Int64(block), max(1, lastFrame - frame)))
            } else {
                if tailStart == nil {
                    tailStart = frame
                    // Pedals still down and keys never let go release their notes, as FluidSynth's
                    // player does (sustain off, sostenuto off, all notes off); with nothing
                    // sounding there is nothing to release, and the render ends as before.
                    if options.liftPedalsAtEnd && !synth.isIdle {
                        synth.liftPedals()
                        synth.allNotesOff()
                    }
                }
                let start = tailStart ?? frame
                let elapsed = frame - start, lead = start - lastFrame
                if tail.isOver(elapsed: elapsed, lead: lead, silent: { synth.isIdle && synth.effectsAreSilent }) { break }
                n = tail.nextStep(elapsed: elapsed, lead: lead, limit: block)
            }
            n = Int(min(Int64(n), limit - frame))
            try cancellation?.check(framesRendered: frame, sampleRate: options.sampleRate)
            let end = frame + Int64(n)
            while next < events.count && events[next].frame < end {
                let e = events[next]
                MIDISchedule.send(e, to: synth, atFrame: Int(max(0, e.frame - frame)), outputBus: outputBus(next))
                next += 1
            }
            try renderBlock(n)
            maxVoices = max(maxVoices, synth.activeVoiceCount)
            frame = end
            if let progress {
                let now = DispatchTime.now().uptimeNanoseconds
                if now - lastProgress > 100_000_000 {
                    lastProgress = now
                    let secs = Double(now - started) / 1e9
                    let fraction = lastFrame > 0 ? min(1, Double(frame) / Double(lastFrame)) : 1
                    progress(RenderProgress(fraction: fraction, framesRendered: frame,
                                            speed: secs > 0 ? Double(frame) / options.sampleRate / secs : 0))
                }
            }
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        progress?(RenderProgress(fraction: 1, framesRendered: frame,
                                 speed: elapsed > 0 ? Double(frame) / options.sampleRate / elapsed : 0))
        return (maxVoices, elapsed)
    }
}
