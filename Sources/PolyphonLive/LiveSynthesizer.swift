import PolyphonMIDI
import PolyphonSoundFont
import PolyphonSynth

/// A `Synthesizer` played live: MIDI sent from an input thread (a sequencer port, a byte
/// stream, an app's keyboard) is applied at the start of the render thread's next block.
///
/// Hand ``render(left:right:frameCount:)`` to a ``LiveOutput`` (or any real-time callback) and
/// send MIDI from one other thread at a time:
/// ```swift
/// let output = try LiveOutput()
/// let synthesizer = try Synthesizer(soundBank: bank, sampleRate: output.sampleRate)
/// let live = LiveSynthesizer(synthesizer: synthesizer)
/// try output.start { left, right, frames in live.render(left: left, right: right, frameCount: frames) }
/// try live.send(.noteOn(channel: 0, note: 60, velocity: 100))
/// ```
///
/// The render thread never waits, allocates or decodes: messages, SysEx included, cross in a
/// lock-free queue whose memory is reserved up front, and on an SF3 bank the samples a program
/// change may select are decoded by `send` on the sending thread before the message is
/// queued (a note right after a program change waits there instead of the audio).
public final class LiveSynthesizer: @unchecked Sendable {
    // @unchecked: the synthesizer is the render thread's once playing starts; the queue is a
    // single-producer single-consumer ring; the preloader is the sending thread's.

    /// The synthesizer. Once rendering has started, only the render thread may use it.
    public let synthesizer: Synthesizer
    let queue: LiveMIDIQueue
    /// Decodes SF3 presets on the sending thread; nil for banks without compressed samples.
    let preloader: LivePresetPreloader?

    /// Plays `synthesizer` live.
    ///
    /// - Parameters:
    ///   - synthesizer: the synthesizer to play; from now on only the render thread uses it.
    ///   - messageCapacity: messages that may wait for the render thread; more are dropped
    ///     (``droppedMessageCount``). At most the synthesizer's
    ///     `SynthesizerConfiguration.eventQueueCapacity`, which one block takes without
    ///     allocating.
    ///   - sysExCapacity: bytes of SysEx that may wait; also the longest SysEx that is played.
    ///     At most 65,536, the synthesizer's own room for SysEx in one block.
    public init(synthesizer: Synthesizer, messageCapacity: Int = 4096, sysExCapacity: Int = 65_536) {
        self.synthesizer = synthesizer
        queue = LiveMIDIQueue(capacity: min(messageCapacity, synthesizer.configuration.eventQueueCapacity),
                              sysExCapacity: min(sysExCapacity, Synthesizer.sysExBytesPerRenderCall))
        preloader = LivePresetPreloader(soundBank: synthesizer.soundBank)
    }

    /// Queues `messages` for the next render block, together; real-time and system common
    /// messages are skipped. Call from one thread at a time (not the render thread).
    ///
    /// - Throws: a `SampleDecodingError` when the SF3 samples a program change selects cannot
    ///   be decoded ahead. The messages are queued all the same; the notes that need those
    ///   samples stay silent, as they would without preloading.
    public func send(_ messages: [MIDIStreamMessage]) throws(SampleDecodingError) {
        let failure = preloader?.prepare(messages)
        queue.push(messages)
        if let failure { throw failure }
    }

    /// Queues one message for the next render block: a channel voice message or a SysEx; meta
    /// events and SysEx continuation packets play no part live and are skipped.
    public func send(_ message: MIDIMessage) throws(SampleDecodingError) {
        switch message {
        case .systemExclusive(let body):
            try send([.systemExclusive(body.last == 0xF7 ? Array(body.dropLast()) : body)])
        case .sysExContinuation, .meta:
            return
        default:
            try send([.channelVoice(message)])
        }
    }

    /// Whether messages sent are still waiting for the render thread.
    public var hasPendingMessages: Bool { !queue.isEmpty }

    /// Messages dropped because the queue was full (the render thread had fallen far behind).
    public var droppedMessageCount: Int { queue.droppedCount }

    /// The render callback: applies the queued MIDI at the start of the block, then renders
    /// `frameCount` frames into `left` and `right`. Real-time safe: no allocation, lock or wait.
    public func render(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frameCount: Int) {
        queue.drain { message, sysEx in
            if let channelMessage = message.channelMessage {
                synthesizer.send(channelMessage)
            } else {
                synthesizer.sendMIDISysExEvent(sysEx)
            }
        }
        synthesizer.render(left: left, right: right, frameCount: frameCount)
    }
}
