import Foundation
import Testing

@testable import PolyphonAudio
@testable import PolyphonLive
import PolyphonTestSupport

/// `polyphon play` end to end: a MIDI file played through a device matches the offline render
/// of the same file, and the terminal transport (pause, seek, quit) works when driven through
/// tmux.
extension LiveAudioTests {
@Suite("polyphon play", .serialized)
struct PlayCommandTests {
    static let bank = "/usr/share/sounds/sf2/TimGM6mb.sf2"
    static var ready: Bool { RealFiles.available(bank) && FileManager.default.fileExists(atPath: LiveTools.polyphon) || RealFiles.isCI }

    /// A one-track MIDI file (480 PPQN, 120 BPM): a piano chord of `seconds` then silence.
    static func chord(seconds: Int) -> [UInt8] {
        let ticks = seconds * 960
        let delta: [UInt8] = [UInt8(0x80 | (ticks >> 14) & 0x7F), UInt8(0x80 | (ticks >> 7) & 0x7F), UInt8(ticks & 0x7F)]
        let events: [UInt8] = [0x00, 0xC0, 0x00, 0x00, 0x90, 60, 100, 0x00, 0x90, 64, 100, 0x00, 0x90, 67, 100]
            + delta + [0x80, 60, 0, 0x00, 0x80, 64, 0, 0x00, 0x80, 67, 0, 0x00, 0xFF, 0x2F, 0x00]
        let length = UInt32(events.count)
        return Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0] + Array("MTrk".utf8)
            + [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + events
    }

    @Test(.enabled(if: ready && LiveTools.alsaAvailable))
    func playedThroughALSAMatchesTheOfflineRender() throws {
        let directory = try TemporaryDirectory()
        try Data(Self.chord(seconds: 1)).write(to: URL(fileURLWithPath: directory.file("chord.mid")))
        let render = try Subprocess(LiveTools.polyphon, [
            "render", directory.file("chord.mid"), "-o", directory.file("offline.wav"), "--bits", "32f",
            "--soundfont", Self.bank], errors: directory.file("render.log"))
        #expect(render.wait(timeout: 120) == 0)
        let play = try Subprocess(LiveTools.polyphon, [
            "play", directory.file("chord.mid"), "-q", "--backend", "alsa",
            "--device", "file:'\(directory.file("live.raw"))',raw", "--soundfont", Self.bank],
            errors: directory.file("play.log"))
        let status = play.wait(timeout: 120)
        let log = (try? String(contentsOfFile: directory.file("play.log"), encoding: .utf8)) ?? ""
        #expect(status == 0, "\(log)")
        let offline = try AudioFile(contentsOf: directory.file("offline.wav"))
        let reference = zip(offline.channels[0], offline.channels[1]).flatMap { [$0, $1] }
        let captured = try readFloats(directory.file("live.raw"))
        let lag = try #require(alignmentLag(captured: captured, reference: reference))
        let frames = min(44_100, reference.count / 2)
        let head = Array(reference[0..<(2 * frames)])
        let difference = largestDifference(captured: captured, reference: head, lag: lag)
        var peak: Float = 0
        for value in head { peak = max(peak, abs(value)) }
        #expect(peak > 0.01)
        #expect(difference <= peak * 1e-4, "live and offline agree to −80 dB of the peak (lag \(lag), difference \(difference))")
    }

    /// `play --loops 3` through a device: the marked loop three times, then the rest, the same
    /// samples as `render --loops 3` (the jumps on the same frames).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: LiveTools.polyphon) && LiveTools.alsaAvailable))
    func playLoopsTheMarkedSectionAsRenderDoes() throws {
        let directory = try TemporaryDirectory()
        let song = try LoopCommandTests.song(.markers), bank = try CLI.bankFile()
        let render = try Subprocess(LiveTools.polyphon, [
            "render", song, "-o", directory.file("offline.wav"), "--bits", "32f", "--loops", "3", "--soundfont", bank],
            errors: directory.file("render.log"))
        #expect(render.wait(timeout: 120) == 0)
        let play = try Subprocess(LiveTools.polyphon, [
            "play", song, "-q", "--loops", "3", "--backend", "alsa",
            "--device", "file:'\(directory.file("live.raw"))',raw", "--soundfont", bank],
            errors: directory.file("play.log"))
        let status = play.wait(timeout: 120)
        let log = (try? String(contentsOfFile: directory.file("play.log"), encoding: .utf8)) ?? ""
        #expect(status == 0, "\(log)")
        let offline = try AudioFile(contentsOf: directory.file("offline.wav"))
        let reference = zip(offline.channels[0], offline.channels[1]).flatMap { [$0, $1] }
        let captured = try readFloats(directory.file("live.raw"))
        // Sample-exact output starts its sound on the same frame: the first sample above
        // −60 dBFS aligns them (a correlation over a pure sine could pick another period).
        func onset(_ x: [Float]) -> Int? { stride(from: 0, to: x.count, by: 2).first { abs(x[$0]) > 1e-3 }.map { $0 / 2 } }
        let lag = try #require(onset(captured)) - (try #require(onset(reference)))
        // Through the third pass and into the outro: 1 s + 3 × 2 s + 0.5 s.
        let frames = min(330_750, reference.count / 2)
        #expect(captured.count / 2 - lag >= frames, "captured \(captured.count / 2) frames")
        let head = Array(reference[0..<(2 * frames)])
        let difference = largestDifference(captured: captured, reference: head, lag: lag)
        #expect(difference <= 1e-4, "live and offline loops agree (lag \(lag), difference \(difference))")
    }

    static var tmuxReady: Bool {
        ready && LiveTools.pulseAvailable && (RealFiles.isCI || FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"))
    }

    func tmux(_ args: [String], output: String? = nil) throws {
        let p = try Subprocess("/usr/bin/tmux", args, output: output)
        _ = p.wait(timeout: 10)
    }

    func screen(_ session: String, _ directory: TemporaryDirectory) throws -> String {
        try tmux(["capture-pane", "-p", "-t", session], output: directory.file("screen"))
        return (try? String(contentsOfFile: directory.file("screen"), encoding: .utf8)) ?? ""
    }

    /// The position shown on the status line, in seconds ("▶ 0:07.3 / 0:30.0").
    func position(_ text: String) -> Double? {
        guard let line = text.split(separator: "\n").last(where: { $0.contains(" / ") }),
              let clock = line.split(separator: " ").first(where: { $0.contains(":") }) else { return nil }
        let parts = clock.split(separator: ":")
        guard parts.count == 2, let m = Double(parts[0]), let s = Double(parts[1]) else { return nil }
        return m * 60 + s
    }

    @Test(.enabled(if: tmuxReady))
    func pauseSeekAndQuitThroughTmux() throws {
        let server = try PulseServer()
        let directory = try TemporaryDirectory()
        try Data(Self.chord(seconds: 30)).write(to: URL(fileURLWithPath: directory.file("long.mid")))
        let session = "polyphon-play-\(getpid())"
        let command = "env PULSE_SERVER=\(server.address) \(LiveTools.polyphon) play \(directory.file("long.mid")) "
            + "--backend pulse --soundfont \(Self.bank); echo EXITED:$?; sleep 60"
        try tmux(["new-session", "-d", "-s", session, "-x", "160", "-y", "12", command])
        defer { try? tmux(["kill-session", "-t", session]) }
        func waitFor(_ timeout: Double, _ condition: (String) -> Bool) throws -> String {
            let deadline = Date().addingTimeInterval(timeout)
            var text = ""
            while Date() < deadline {
                text = try screen(session, directory)
                if condition(text) { return text }
                usleep(100_000)
            }
            return text
        }
        let playing = try waitFor(20) { ($0.contains("▶ 0:0") && (position($0) ?? 0) > 0.5) }
        #expect(playing.contains("/ 0:3"), "status line: \(playing)")
        // Pause: the symbol changes and the position stops moving.
        try tmux(["send-keys", "-t", session, "Space"])
        let paused = try waitFor(5) { $0.contains("⏸") }
        #expect(paused.contains("⏸"), "\(paused)")
        let p1 = position(paused) ?? -1
        usleep(700_000)
        let p2 = position(try screen(session, directory)) ?? -2
        #expect(abs(p2 - p1) < 0.2, "paused at \(p1), then \(p2)")
        // Resume and seek 5 s forward.
        try tmux(["send-keys", "-t", session, "Space"])
        try tmux(["send-keys", "-t", session, "Right"])
        let seeked = try waitFor(5) { (position($0) ?? 0) >= p1 + 4.5 && $0.contains("▶") }
        #expect((position(seeked) ?? 0) >= p1 + 4.5, "after seeking: \(seeked)")
        // Quit: the program ends cleanly (exit status 0) long before the song would.
        try tmux(["send-keys", "-t", session, "q"])
        let quit = try waitFor(10) { $0.contains("EXITED:") }
        #expect(quit.contains("EXITED:0"), "\(quit)")
    }
}
}
