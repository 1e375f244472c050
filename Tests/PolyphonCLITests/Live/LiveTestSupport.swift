import Foundation
import Testing

@testable import PolyphonAudio
@testable import PolyphonLive
import PolyphonTestSupport

/// The live-audio suites, one after another: they start sound servers and time real-time
/// playback, so they must not compete with each other for the machine's two cores.
@Suite(.serialized) enum LiveAudioTests {}

/// The sound system pieces the end-to-end tests need: skipped locally when absent, required
/// under CI (`.ci/run` installs pulseaudio, pulseaudio-utils, alsa-utils and libasound2).
enum LiveTools {
    static let pulseaudio = "/usr/bin/pulseaudio"
    static let parec = "/usr/bin/parec"
    static var pulseAvailable: Bool {
        RealFiles.isCI || (FileManager.default.fileExists(atPath: pulseaudio) && FileManager.default.fileExists(atPath: parec)
                           && (try? Libpulse.shared()) != nil)
    }
    static var alsaAvailable: Bool { RealFiles.isCI || (try? Libasound.shared()) != nil }

    /// The `polyphon` executable built beside the tests.
    static var polyphon: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent(".build/debug/polyphon").path
    }

    /// The optimised `polyphon` (`swift build -c release --product polyphon`), or the one
    /// `POLYPHON_RELEASE_CLI` names.
    static var releasePolyphon: String {
        if let path = ProcessInfo.processInfo.environment["POLYPHON_RELEASE_CLI"], !path.isEmpty { return path }
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent(".build/release/polyphon").path
    }
}

/// A private PulseAudio server with one null sink (float32 stereo at 44.1 kHz), started for
/// one test and stopped with it, so nothing is heard and the monitor source can be recorded.
final class PulseServer {
    let directory: TemporaryDirectory
    /// The `PULSE_SERVER` address of this server.
    let address: String
    let sinkName = "polyphon_null"
    private let process: Subprocess

    init() throws {
        directory = try TemporaryDirectory()
        address = "unix:" + directory.file("native")
        process = try Subprocess(LiveTools.pulseaudio, [
            "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--disable-shm=yes",
            "--log-target=stderr", "--log-level=error",
            "-L", "module-native-protocol-unix socket=\(directory.file("native")) auth-anonymous=1",
            "-L", "module-null-sink sink_name=\(sinkName) format=float32le rate=44100 channels=2"],
            environment: ["HOME": directory.path, "XDG_RUNTIME_DIR": directory.path, "XDG_CONFIG_HOME": directory.path],
            errors: directory.file("pulseaudio.log"))
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: directory.file("native")) && Date() < deadline && process.isRunning {
            usleep(50_000)
        }
        usleep(200_000)
    }

    /// Starts recording the null sink's monitor as raw float32 stereo into `path`.
    func record(to path: String) throws -> Subprocess {
        let recorder = try Subprocess(LiveTools.parec, [
            "--server=\(address)", "-d", "\(sinkName).monitor", "--format=float32le",
            "--rate=44100", "--channels=2", "--latency-msec=20", path])
        usleep(500_000)
        return recorder
    }

    deinit { process.stop(signal: SIGTERM) }
}

/// A deterministic test signal: noise whose every sample is a hash of its frame index, so the
/// same frames come out whatever the block sizes, and any misplaced frame shows.
final class NoiseSignal: @unchecked Sendable {
    // @unchecked: rendered only on the render thread; `position` is read after stop.
    let frames: Int
    private(set) var position = 0

    init(frames: Int) { self.frames = frames }

    static func sample(_ index: Int, channel: Int) -> Float {
        var x = UInt64(2 * index + channel) &+ 0x9E37_79B9_7F4A_7C15
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        x ^= x >> 31
        return Float(Int32(truncatingIfNeeded: x >> 32)) / 2_147_483_648 * 0.5
    }

    func render(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count {
            let index = position + i
            left[i] = index < frames ? Self.sample(index, channel: 0) : 0
            right[i] = index < frames ? Self.sample(index, channel: 1) : 0
        }
        position += count
    }

    /// The whole signal, interleaved, as rendered offline.
    var offline: [Float] {
        (0..<frames).flatMap { [Self.sample($0, channel: 0), Self.sample($0, channel: 1)] }
    }
}

/// Reads raw little-endian float32 samples.
func readFloats(_ path: String) throws -> [Float] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
}

/// Where `reference` (interleaved stereo) starts inside `captured`: a coarse estimate from the
/// first sound in each, refined by the cross-correlation of the left channels over ±`search`
/// frames. Returns the lag in frames, or nil when `captured` has no sound.
func alignmentLag(captured: [Float], reference: [Float], search: Int = 1024, window: Int = 4096) -> Int? {
    func onset(_ x: [Float]) -> Int? {
        var i = 0
        while 2 * i < x.count { if abs(x[2 * i]) > 1e-3 { return i }; i += 1 }
        return nil
    }
    guard let capturedOnset = onset(captured), let referenceOnset = onset(reference) else { return nil }
    let coarse = capturedOnset - referenceOnset
    var best = coarse
    var bestScore = -Double.infinity
    let length = min(window, reference.count / 2 - referenceOnset)
    for lag in (coarse - search)...(coarse + search) {
        var score = 0.0
        for i in referenceOnset..<(referenceOnset + length) {
            let j = i + lag
            guard j >= 0, 2 * j < captured.count else { continue }
            score += Double(captured[2 * j]) * Double(reference[2 * i])
        }
        if score > bestScore { bestScore = score; best = lag }
    }
    return best
}

/// The largest difference between `reference` and `captured` shifted by `lag` frames, from
/// reference frame `start` to the reference's end (frames missing from the end of the capture
/// count as the full sample).
func largestDifference(captured: [Float], reference: [Float], lag: Int, from start: Int = 0) -> Float {
    var worst: Float = 0
    for i in start..<(reference.count / 2) {
        for c in 0..<2 {
            let j = 2 * (i + lag) + c
            let value: Float = j >= 0 && j < captured.count ? captured[j] : 0
            worst = max(worst, abs(value - reference[2 * i + c]))
        }
    }
    return worst
}
