import Foundation
import Testing
@testable import PolyphonMIDI
@testable import PolyphonMIDICore

/// The MIDI files Debian's planetblupi-common package installs, checked against mido (the
/// python3-mido package), which is run at test time so no number is hard-coded.
@Suite("Real files against mido", .serialized)
struct RealFileTests {
    static let directory = "/usr/share/planetblupi/music"
    static let python = "/usr/bin/python3"

    static var files: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.lowercased().hasSuffix(".mid") }.sorted().map { directory + "/" + $0 }
    }

    /// mido's answers, one JSON value per line of output.
    static let midoScript = #"""
    import json, sys, mido

    def plain(msg):
        d = msg.dict()
        d.pop('time', None)
        return d

    def absolute(messages):
        now, out = 0, []
        for msg in messages:
            now += msg.time
            out.append((now, plain(msg)))
        return out

    mode = sys.argv[1]
    if mode == 'stats':
        for path in sys.argv[2:]:
            m = mido.MidiFile(path)
            notes = sum(1 for t in m.tracks for msg in t if msg.type == 'note_on' and msg.velocity > 0)
            print(json.dumps({'path': path, 'notes': notes, 'length': m.length, 'type': m.type,
                              'tracks': len(m.tracks)}))
    elif mode == 'same':
        a, b = mido.MidiFile(sys.argv[2]), mido.MidiFile(sys.argv[3])
        problems = []
        if (a.type, a.ticks_per_beat, len(a.tracks)) != (b.type, b.ticks_per_beat, len(b.tracks)):
            problems.append('header differs')
        for i, (ta, tb) in enumerate(zip(a.tracks, b.tracks)):
            la = [(msg.time, plain(msg)) for msg in ta]
            lb = [(msg.time, plain(msg)) for msg in tb]
            if la != lb:
                first = next((k for k, (x, y) in enumerate(zip(la, lb)) if x != y), min(len(la), len(lb)))
                problems.append('track %d differs at message %d' % (i, first))
        print(json.dumps({'problems': problems, 'messages': sum(len(t) for t in a.tracks)}))
    elif mode == 'merged':
        a, b = mido.MidiFile(sys.argv[2]), mido.MidiFile(sys.argv[3])
        problems = []
        if b.type != 0 or len(b.tracks) != 1:
            problems.append('converted file is type %d with %d tracks' % (b.type, len(b.tracks)))
        merged = absolute(mido.merge_tracks(a.tracks))
        single = absolute(b.tracks[0])
        for channel in range(16):
            ca = [x for x in merged if x[1].get('channel') == channel]
            cb = [x for x in single if x[1].get('channel') == channel]
            if ca != cb:
                problems.append('channel %d differs' % channel)
        others_a = [x for x in merged if 'channel' not in x[1]]
        others_b = [x for x in single if 'channel' not in x[1]]
        if others_a != others_b:
            problems.append('meta/sysex events differ')
        if abs(a.length - b.length) > 1e-9:
            problems.append('length %r != %r' % (a.length, b.length))
        print(json.dumps({'problems': problems, 'messages': len(merged)}))
    """#

    /// Runs the mido script and decodes each line of its output.
    static func mido(_ arguments: [String]) throws -> [[String: Any]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", midoScript] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "mido failed: \(errorText)")
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("polyphon-midi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test(.enabled(if: RealFiles.available(directory + "/music000.mid")))
    func noteCountsAndDurationsMatchMido() throws {
        let files = Self.files
        try #require(!files.isEmpty, "no MIDI files in \(Self.directory)")
        let answers = try Self.mido(["stats"] + files)
        try #require(answers.count == files.count)
        for (path, answer) in zip(files, answers) {
            let file = try MIDIFile(contentsOfFile: path)
            let notes = try #require(answer["notes"] as? Int)
            let length = try #require(answer["length"] as? Double)
            #expect(file.noteCount == notes, "\(path)")
            #expect(abs(file.duration - length) < 0.001, "\(path): \(file.duration) vs mido \(length)")
            #expect(Int(file.format.rawValue) == answer["type"] as? Int)
            #expect(file.tracks.count == answer["tracks"] as? Int)
        }
    }

    @Test(.enabled(if: RealFiles.available(directory + "/music000.mid")))
    func sameFormatRewriteReadsIdenticallyInMido() throws {
        let files = Self.files
        try #require(!files.isEmpty)
        let output = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        for path in files {
            let file = try MIDIFile(contentsOfFile: path)
            for runningStatus in [true, false] {
                let url = output.appendingPathComponent("\(runningStatus ? "rs" : "plain")-" + URL(fileURLWithPath: path).lastPathComponent)
                try file.write(to: url, runningStatus: runningStatus)
                let answer = try #require(try Self.mido(["same", path, url.path]).first)
                #expect((answer["problems"] as? [String]) == [], "\(path) → \(url.lastPathComponent): \(answer)")
                // Our own reading of what we wrote is identical too, and rewrites byte for byte.
                let reread = try MIDIFile(contentsOf: url)
                #expect(reread.tracks == file.tracks)
                #expect(reread.serialized(runningStatus: runningStatus) == file.serialized(runningStatus: runningStatus))
            }
        }
    }

    @Test(.enabled(if: RealFiles.available(directory + "/music000.mid")))
    func formatOneToZeroKeepsEveryChannelsEventsInMido() throws {
        let files = Self.files
        try #require(!files.isEmpty)
        let output = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        for path in files {
            let file = try MIDIFile(contentsOfFile: path)
            let url = output.appendingPathComponent("type0-" + URL(fileURLWithPath: path).lastPathComponent)
            try file.write(to: url, format: .singleTrack)
            let answer = try #require(try Self.mido(["merged", path, url.path]).first)
            #expect((answer["problems"] as? [String]) == [], "\(path): \(answer)")
            #expect((answer["messages"] as? Int ?? 0) > 1000)
            // And back to format 1: every channel's events at the same ticks, same duration.
            let single = try MIDIFile(contentsOf: url)
            let split = single.converted(to: .multipleTracks)
            let perChannel = { (file: MIDIFile) in
                Dictionary(grouping: file.timedEvents().filter { $0.message.channel != nil }, by: { $0.message.channel! })
                    .mapValues { $0.map { MIDIEvent(tick: $0.tick, message: $0.message) } }
            }
            #expect(perChannel(split) == perChannel(file))
            #expect(abs(split.duration - file.duration) < 1e-9)
        }
    }
}
