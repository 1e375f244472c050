// The code of PolyphonLive's overview page: a synthesizer played live from an app.
import Foundation
import Testing
import PolyphonSoundFont
import PolyphonSynth
// snippet: live-synthesizer
import PolyphonLive

/// An on-screen keyboard: notes sound as the user presses keys, at the output's latency.
final class Keyboard {
    let output: LiveOutput
    let live: LiveSynthesizer

    /// Plays `bank` through `output` (`try LiveOutput()`: the first backend that works).
    init(bank: SoundFont, output: LiveOutput) throws {
        self.output = output
        let synthesizer = try Synthesizer(soundBank: bank, sampleRate: output.sampleRate)
        live = LiveSynthesizer(synthesizer: synthesizer)
        try output.start { [live] left, right, frameCount in  // the render thread
            live.render(left: left, right: right, frameCount: frameCount)
        }
    }

    // Called on the main thread; each message reaches the render thread's next block.
    func keyDown(_ note: UInt8) throws { try live.send(.noteOn(channel: 0, note: note, velocity: 100)) }
    func keyUp(_ note: UInt8) throws { try live.send(.noteOff(channel: 0, note: note, velocity: 0)) }
    func setMasterVolume(_ level: UInt8) throws {             // a SysEx, applied without allocating
        try live.send(.systemExclusive([0x7F, 0x7F, 0x04, 0x01, 0x00, level & 0x7F, 0xF7]))
    }

    func stop() { output.stop() }
}
// end snippet

/// A sound card in memory: takes periods at the pace of a real one and keeps what it is given.
private final class RecordingOutput: AudioOutput, @unchecked Sendable {
    // @unchecked: `recorded` is touched only under `lock`.
    let backendName = "memory"
    let deviceName = "recording"
    let sampleRate = 44_100.0
    let periodFrames = 441
    let bufferFrames = 882
    private let lock = NSLock()
    private var recorded: [Float] = []

    /// Interleaved stereo samples taken so far.
    var samples: [Float] { lock.withLock { recorded } }

    /// Frames taken so far.
    var frameCount: Int { lock.withLock { recorded.count / 2 } }

    /// The interleaved samples of frames `frames`, once the device has taken them; nil if it
    /// has not after ten minutes (a hang, not a slow machine).
    func samples(ofFrames frames: Range<Int>) -> ArraySlice<Float>? {
        let deadline = Date().addingTimeInterval(600)
        while frameCount < frames.upperBound {
            if Date() > deadline { return nil }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return samples[(2 * frames.lowerBound)..<(2 * frames.upperBound)]
    }

    func write(_ samples: UnsafePointer<Float>, frameCount: Int) throws(AudioOutputError) -> Bool {
        lock.withLock { recorded.append(contentsOf: UnsafeBufferPointer(start: samples, count: 2 * frameCount)) }
        Thread.sleep(forTimeInterval: Double(frameCount) / sampleRate)
        return false
    }
    func drain() {}
    func close() {}
}

@Suite struct LiveSynthesizerSnippets {
    /// The keyboard from the main thread, the render and writer threads behind it: a note
    /// sounds, the master volume SysEx lowers it, and the key's release ends it.
    @Test func aKeyPlaysAndTheMasterVolumeLowersIt() throws {
        let device = RecordingOutput()
        let keyboard = try Keyboard(bank: SnippetFixtures.sineBank(), output: LiveOutput(output: device))
        /// The peak of the `measured` frames the device takes after `action` and `settling`
        /// more, which let what was rendered before it (the ring, one period, one block) drain.
        /// Frames are counted, not seconds, so a busy machine makes this slower, not wrong.
        func level(settling: Int = 8_820, measured: Int = 8_820, _ action: () throws -> Void) throws -> Float {
            try action()
            let start = device.frameCount + settling
            let taken = try #require(device.samples(ofFrames: start..<(start + measured)))
            return taken.map(abs).max() ?? 0
        }
        let loud = try level { try keyboard.keyDown(69) }
        let soft = try level { try keyboard.setMasterVolume(32) }
        let released = try level(settling: 44_100, measured: 44_100) { try keyboard.keyUp(69) }
        keyboard.stop()
        #expect(loud > 0.01, "the note sounds")
        #expect(soft < loud / 2, "a quarter of the master volume: \(soft) against \(loud)")
        #expect(released < soft / 10, "the key's release ends the note: \(released)")
        #expect(keyboard.live.droppedMessageCount == 0 && !keyboard.live.hasPendingMessages)
    }
}
