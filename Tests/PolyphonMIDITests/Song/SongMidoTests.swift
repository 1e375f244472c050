import Foundation
import Testing
@testable import PolyphonMIDI

/// Third-party tools installed by Debian packages: skipped when absent here, required under CI.
enum SongRealTools {
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"
    static let python = "/usr/bin/python3"
    static let mido = "/usr/lib/python3/dist-packages/mido"
    static var midoAvailable: Bool { isCI || FileManager.default.fileExists(atPath: mido) }
}

/// The seed's song built in code, written as a Standard MIDI File and read by mido.
@Suite struct SongMidoTests {
    @Test(.enabled(if: SongRealTools.midoAvailable))
    func midoReadsTheSeedSongBack() throws {
        try #require(FileManager.default.fileExists(atPath: SongRealTools.mido), "python3-mido is not installed")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("polyphon-song-\(UUID().uuidString).mid")
        defer { try? FileManager.default.removeItem(at: url) }
        try seedSong().write(to: url)

        // mido pairs note_on/note_off itself here: FIFO per (channel, key), as a DAW does.
        let script = """
        import json, sys, mido
        f = mido.MidiFile(sys.argv[1])
        out = {"ticks": f.ticks_per_beat, "type": f.type, "length": f.length, "tempos": [], "programs": [], "notes": []}
        open_notes = {}
        for track in f.tracks:
            t = 0
            for m in track:
                t += m.time
                if m.type == "set_tempo": out["tempos"].append([t, m.tempo])
                elif m.type == "program_change": out["programs"].append([t, m.channel, m.program])
                elif m.type == "note_on" and m.velocity > 0:
                    open_notes.setdefault((m.channel, m.note), []).append((t, m.velocity))
                elif m.type in ("note_off", "note_on"):
                    start, vel = open_notes[(m.channel, m.note)].pop(0)
                    out["notes"].append([start, t - start, m.channel, m.note, vel])
        out["notes"].sort()
        print(json.dumps(out))
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: SongRealTools.python)
        process.arguments = ["-c", script, url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["ticks"] as? Int == 480)
        #expect(json["type"] as? Int == 1)
        #expect((json["tempos"] as? [[Int]]) == [[0, 250_000]])
        #expect((json["programs"] as? [[Int]]) == [[0, 0, 48]])
        let notes = try #require(json["notes"] as? [[Int]])
        let expected: [[Int]] = [64, 63, 64, 63, 64, 59, 62, 60].enumerated().map { [$0.offset * 480, 480, 0, $0.element, 64] }
            + [[3840, 1440, 0, 45, 64], [3840, 1440, 0, 57, 64]]
        #expect(notes == expected)
        let length = try #require(json["length"] as? Double)
        #expect(abs(length - 2.75) < 1e-9)  // 11 beats at 240 BPM
    }
}
