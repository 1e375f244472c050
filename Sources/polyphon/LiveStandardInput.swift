import Foundation
import PolyphonMIDI
import PolyphonAudio
import PolyphonLive

/// `polyphon synth --stdin`: raw MIDI bytes from standard input, parsed as they arrive.
enum LiveStandardInput {
    /// Reads standard input to its end, queuing what each read completes as one batch (so bytes
    /// that arrive together sound together), then waits until the sound has died away or
    /// `tail` seconds have passed.
    static func play(into live: LiveSynthesizer, output: LiveOutput, tail: Double) {
        var parser = MIDIByteStreamParser()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            let messages = parser.parse(buffer[0..<count])
            if !messages.isEmpty { live.sendNotingFailures(messages) }
        }
        // The end of input: wait for the render thread to take every message, for what it
        // rendered from them to reach the device, and then for a quarter second of silence.
        let deadline = Date().addingTimeInterval(tail)
        while live.hasPendingMessages && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        let consumedAt = output.statistics.framesRendered
        let quiet = Int(output.sampleRate / 4)
        while Date() < deadline {
            let statistics = output.statistics
            if statistics.framesWritten >= consumedAt + 2 * output.blockFrames && output.trailingSilentFrames >= quiet { break }
            if output.writeError != nil { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}

extension LiveSynthesizer {
    /// Queues messages from an input thread; samples that cannot be decoded ahead are reported
    /// on stderr and the messages played all the same.
    func sendNotingFailures(_ messages: [MIDIStreamMessage]) {
        do {
            try send(messages)
        } catch {
            note("polyphon: \(error)")
        }
    }
}
