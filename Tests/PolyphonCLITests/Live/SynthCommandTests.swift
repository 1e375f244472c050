import Foundation
import Testing

@testable import PolyphonAudio
@testable import PolyphonLive
import PolyphonTestSupport

/// `polyphon synth` end to end: raw MIDI bytes in, audio out through a device, compared with
/// `polyphon render` of the same events; and a busy passage checked for underruns and for
/// allocations on the render thread.
extension LiveAudioTests {
@Suite("polyphon synth", .serialized)
struct SynthCommandTests {
    static let bank = "/usr/share/sounds/sf2/TimGM6mb.sf2"

    /// Whether the built CLI has the `synth` command (it is registered when the branch is
    /// merged); under CI it must.
    static var synthCommandBuilt: Bool {
        guard FileManager.default.fileExists(atPath: LiveTools.polyphon) else { return RealFiles.isCI }
        let directory = try? TemporaryDirectory()
        // Not `synth --help`: the root command answers --help with success for any word.
        guard let directory, let process = try? Subprocess(LiveTools.polyphon, ["synth", "--list"],
                                                           output: directory.file("help")) else { return RealFiles.isCI }
        return process.wait(timeout: 30) == 0 || RealFiles.isCI
    }

    static var ready: Bool {
        RealFiles.available(bank) && LiveTools.alsaAvailable && synthCommandBuilt
    }

    /// GM on (SysEx), a piano chord held by the sustain pedal, its note-offs: as raw bytes with
    /// running status, real-time bytes in between, and as a one-track MIDI file at tick 0 (the
    /// offline render keeps the pedal down at the song's end, as the live synthesizer does).
    static let liveBytes: [UInt8] = [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7,
                                     0xC0, 0x00, 0x90, 60, 100, 0xF8, 64, 100, 67, 100,
                                     0xB0, 64, 127, 0x80, 60, 0, 0xFE, 64, 0, 67, 0]
    static var midiFile: [UInt8] {
        let events: [UInt8] = [0x00, 0xF0, 0x05, 0x7E, 0x7F, 0x09, 0x01, 0xF7,
                               0x00, 0xC0, 0x00, 0x00, 0x90, 60, 100, 0x00, 0x90, 64, 100, 0x00, 0x90, 67, 100,
                               0x00, 0xB0, 64, 127, 0x00, 0x80, 60, 0, 0x00, 0x80, 64, 0, 0x00, 0x80, 67, 0,
                               0x00, 0xFF, 0x2F, 0x00]
        let length = UInt32(events.count)
        return Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0] + Array("MTrk".utf8)
            + [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + events
    }

    @Test(.enabled(if: ready))
    func stdinMIDIPlayedThroughALSAMatchesTheOfflineRender() throws {
        _ = try #require(FileManager.default.fileExists(atPath: Self.bank) ? Self.bank : nil)
        let directory = try TemporaryDirectory()
        try Data(Self.liveBytes).write(to: URL(fileURLWithPath: directory.file("input.bin")))
        try Data(Self.midiFile).write(to: URL(fileURLWithPath: directory.file("chord.mid")))

        let render = try Subprocess(LiveTools.polyphon, [
            "render", directory.file("chord.mid"), "-o", directory.file("offline.wav"), "--bits", "32f",
            "--soundfont", Self.bank, "--max-tail", "3", "--keep-pedals"], errors: directory.file("render.log"))
        #expect(render.wait(timeout: 120) == 0)
        let live = try Subprocess(LiveTools.polyphon, [
            "synth", "--stdin", "--backend", "alsa", "--device", "file:'\(directory.file("live.raw"))',raw",
            "--soundfont", Self.bank, "--tail", "3"],
            input: directory.file("input.bin"), errors: directory.file("synth.log"))
        let status = live.wait(timeout: 120)
        let log = (try? String(contentsOfFile: directory.file("synth.log"), encoding: .utf8)) ?? ""
        #expect(status == 0, "\(log)")

        let offline = try AudioFile(contentsOf: directory.file("offline.wav"))
        let reference = zip(offline.channels[0], offline.channels[1]).flatMap { [$0, $1] }
        let captured = try readFloats(directory.file("live.raw"))
        let lag = try #require(alignmentLag(captured: captured, reference: reference))
        // Compare the first second: the chord's attack and sustained body, reverb included.
        let frames = min(44_100, reference.count / 2)
        let head = Array(reference[0..<(2 * frames)])
        let difference = largestDifference(captured: captured, reference: head, lag: lag)
        var peak: Float = 0
        for value in head { peak = max(peak, abs(value)) }
        print("synth --stdin: lag \(lag) frames, largest difference \(difference) against peak \(peak)")
        #expect(lag >= 0 && lag % 441 == 0, "events land on the boundary of a 10 ms (441-frame) block")
        #expect(peak > 0.01)
        #expect(difference <= peak * 1e-3, "live and offline agree to −60 dB of the peak")
    }

    /// Where there is no sequencer device (CI machines, containers) the command says so in
    /// one line and points to --stdin, before loading any bank.
    @Test(.enabled(if: !ALSASequencerInput.isAvailable && synthCommandBuilt))
    func withoutASequencerDeviceItSaysSoInOneLine() throws {
        let directory = try TemporaryDirectory()
        let synth = try Subprocess(LiveTools.polyphon, ["synth", "--soundfont", "/nonexistent.sf2"],
                                   output: directory.file("out"), errors: directory.file("err"))
        #expect(synth.wait(timeout: 60) == 1)
        let message = try String(contentsOfFile: directory.file("err"), encoding: .utf8)
        #expect(message.split(separator: "\n").count == 1)
        #expect(message.contains("no ALSA sequencer device") && message.contains("--stdin"))
        let list = try Subprocess(LiveTools.polyphon, ["synth", "--list"], output: directory.file("list"))
        #expect(list.wait(timeout: 60) == 0)
        let listing = try String(contentsOfFile: directory.file("list"), encoding: .utf8)
        #expect(listing.contains("no ALSA sequencer device"))
        #expect(listing.contains("alsa    null"), "ALSA's configured PCMs are listed")
    }
}
}
