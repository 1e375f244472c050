import Foundation
import Testing

@testable import PolyphonAudio
@testable import PolyphonLive
import PolyphonTestSupport

/// The live output end to end, with no sound card: ALSA's `file` PCM writes what is played
/// to a file; a private PulseAudio server's null sink is recorded with `parec`. Either capture
/// must equal the offline rendering of the same callback, after alignment.
extension LiveAudioTests {
@Suite("Live output to devices", .serialized)
struct LiveOutputTests {
    /// Plays `signal` through `output` and waits until all of it (and a little silence) has
    /// been rendered, then drains.
    func play(_ signal: NoiseSignal, through output: any AudioOutput) throws -> LiveOutputStatistics {
        let live = LiveOutput(output: output)
        try live.start { left, right, count in signal.render(left: left, right: right, count: count) }
        let deadline = Date().addingTimeInterval(30)
        while live.statistics.framesRendered < signal.frames + Int(output.sampleRate / 4) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        live.stop(drain: true)
        output.close()
        #expect(live.writeError == nil)
        return live.statistics
    }

    @Test(.enabled(if: LiveTools.alsaAvailable))
    func alsaFilePCMCapturesExactlyWhatWasRendered() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("played.raw")
        let output = try ALSAOutput(device: "file:'\(path)',raw", settings: AudioOutputSettings(sampleRate: 44_100))
        #expect(output.sampleRate == 44_100)
        #expect(output.usesFloatSamples)
        #expect(abs(output.periodFrames - 441) <= 64, "10 ms asked, \(output.periodFrames) frames given")
        let signal = NoiseSignal(frames: 44_100)
        let statistics = try play(signal, through: output)
        let captured = try readFloats(path)
        let reference = signal.offline
        let lag = try #require(alignmentLag(captured: captured, reference: reference))
        #expect(lag == 0, "the file PCM starts with the first frame rendered")
        #expect(largestDifference(captured: captured, reference: reference, lag: lag) == 0)
        #expect(captured.count / 2 >= statistics.framesWritten)
        #expect(statistics.framesWritten >= signal.frames)
        // A file is not paced by a clock, so the writer is never behind it.
        #expect(statistics.underruns == 0)
    }

    /// The rate and the period are negotiated with the device: what it grants is what the
    /// output reports, and the latency setting sets the period.
    @Test(.enabled(if: LiveTools.alsaAvailable), arguments: [(48_000.0, 0.010), (22_050.0, 0.020), (96_000.0, 0.005)])
    func alsaNegotiatesRateAndPeriod(rate: Double, latency: Double) throws {
        let directory = try TemporaryDirectory()
        let output = try ALSAOutput(device: "file:'\(directory.file("x.raw"))',raw",
                                    settings: AudioOutputSettings(sampleRate: rate, latency: latency))
        defer { output.close() }
        #expect(output.sampleRate == rate)
        let asked = Int(rate * latency)
        #expect(abs(output.periodFrames - asked) <= asked / 4, "asked \(asked) frames, got \(output.periodFrames)")
        #expect(output.bufferFrames >= 2 * output.periodFrames)
        let live = LiveOutput(output: output)
        #expect(live.blockFrames == output.periodFrames)
        #expect(live.sampleRate == rate)
    }

    @Test(.enabled(if: LiveTools.alsaAvailable))
    func alsaNamesTheDeviceItCannotOpen() throws {
        #expect(throws: AudioOutputError.self) { try ALSAOutput(device: "polyphon_no_such_pcm") }
        do {
            _ = try ALSAOutput(device: "polyphon_no_such_pcm")
        } catch {
            #expect(error.description.contains("polyphon_no_such_pcm"))
        }
    }

    @Test(.enabled(if: LiveTools.pulseAvailable))
    func pulseNullSinkRecordingMatchesTheOfflineRender() throws {
        let server = try PulseServer()
        let path = server.directory.file("recorded.raw")
        let recorder = try server.record(to: path)
        let output = try PulseAudioOutput(server: server.address, settings: AudioOutputSettings(sampleRate: 44_100))
        #expect(output.periodFrames == 441)
        let signal = NoiseSignal(frames: 2 * 44_100)
        let statistics = try play(signal, through: output)
        Thread.sleep(forTimeInterval: 0.5)
        recorder.stop(signal: SIGINT)
        let captured = try readFloats(path)
        let reference = signal.offline
        let lag = try #require(alignmentLag(captured: captured, reference: reference))
        // The null sink is suspended while idle and its monitor records nothing until it wakes,
        // so the recording may begin a few milliseconds into the signal (a negative lag).
        let missing = max(0, -lag)
        #expect(missing < 2048, "at most the sink's wake-up is missing")
        let difference = largestDifference(captured: captured, reference: reference, lag: lag, from: missing)
        print("pulse null sink: \(captured.count / 2) frames recorded, signal at lag \(lag), largest difference \(difference), underruns \(statistics.underruns), peak load \(statistics.peakLoad)")
        #expect(difference < 1e-6, "float32 end to end at the sink's own rate: no conversion")
        #expect(statistics.underruns == 0)
    }

    @Test(.enabled(if: LiveTools.pulseAvailable))
    func pulseSaysWhichServerItCannotReach() throws {
        let directory = try TemporaryDirectory()
        do {
            _ = try PulseAudioOutput(server: "unix:" + directory.file("none"))
            Issue.record("opened a server that does not exist")
        } catch {
            #expect(error.description.hasPrefix("pulse: cannot open"))
        }
    }

    /// A render thread that is too slow for the device: underruns must be counted, not hidden.
    @Test(.enabled(if: LiveTools.pulseAvailable))
    func aRenderSlowerThanRealTimeIsCountedAsUnderruns() throws {
        let server = try PulseServer()
        let output = try PulseAudioOutput(server: server.address, settings: AudioOutputSettings(sampleRate: 44_100))
        let live = LiveOutput(output: output)
        // After 2.5 s of normal play (the null sink's start-up is slow), every fifth block
        // takes 150 ms: five blocks of 10 ms take 150 ms, and the ring and the device buffer
        // together hold 70 ms, so each stall leaves an audible gap. Ten stalls are played.
        let counter = BlockCounter()
        try live.start { left, right, count in
            left.update(repeating: 0.1, count: count)
            right.update(repeating: 0.1, count: count)
            let block = counter.next()
            if block >= 250 && block % 5 == 4 { usleep(150_000) }
        }
        let deadline = Date().addingTimeInterval(20)
        while counter.value < 300 && Date() < deadline { usleep(10_000) }
        live.stop(drain: false)
        output.close()
        let statistics = live.statistics
        print("slow render: \(statistics.underruns) underruns over \(counter.value) blocks, peak load \(statistics.peakLoad)")
        #expect(statistics.underruns >= 8 && statistics.underruns <= 12)
        #expect(statistics.peakLoad > 10)
    }
}
}

final class BlockCounter: @unchecked Sendable {
    // Written by the render thread only; the test reads a possibly stale value while polling.
    private var count = 0
    func next() -> Int { defer { count += 1 }; return count }
    var value: Int { count }
}
