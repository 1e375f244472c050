import PolyphonAudio
import PolyphonLive
import PolyphonSynth

/// The synthesizer as the render thread drives it: MIDI from a ``LiveMIDIQueue`` applied at
/// the start of each block, then the block rendered.
///
/// Only the render thread touches the synthesizer once playing starts; other threads talk to
/// it through the lock-free queue.
final class LiveSynthesizer: @unchecked Sendable {
    // @unchecked: the synthesizer is confined to the render thread after start; the queue is
    // a single-producer single-consumer ring.

    let synthesizer: Synthesizer
    let queue: LiveMIDIQueue
    /// Decodes SF3 presets on the input thread (used there only).
    let preloader: LivePresetPreloader?

    init(synthesizer: Synthesizer, queue: LiveMIDIQueue = LiveMIDIQueue()) {
        self.synthesizer = synthesizer
        self.queue = queue
        preloader = LivePresetPreloader(soundBank: synthesizer.soundBank)
    }

    /// The render callback: applies queued MIDI, then renders. Allocates nothing except for a
    /// SysEx message, which the synthesizer's API takes as an array.
    func render(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frameCount: Int) {
        queue.drain { message, sysEx in
            if let channelMessage = message.channelMessage {
                synthesizer.send(channelMessage)
            } else {
                synthesizer.sendMIDISysExEvent(Array(sysEx))
            }
        }
        synthesizer.render(left: left, right: right, frameCount: frameCount)
    }
}
