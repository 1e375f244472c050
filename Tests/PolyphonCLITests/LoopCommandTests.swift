import Foundation
import PolyphonAudio
import PolyphonMIDI
import Testing

/// `info`, `render` and `batch` on songs that mark a loop, built in code: at 120 BPM and 480
/// PPQN a beat is 22 050 frames; an intro of two beats, the loop over beats 2–6 (1 s – 3 s,
/// ticks 960 – 2880), an outro of two beats.
@Suite("polyphon loops", .serialized)
struct LoopCommandTests {
    static let beat = 22_050
    static var libsndfileAvailable: Bool {
        CLI.isCI || FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libsndfile.so.1")
    }
    static let loopStart = 2 * beat, loopLength = 4 * beat

    enum Marks: String, CaseIterable {
        case markers, cc111, emidi, contradictory, none
    }

    /// The song with its loop marked one way. In the loop, a note that rings past its end
    /// (released half a beat before it, the sine bank's release carries on) and one held across
    /// it.
    static func song(_ marks: Marks) throws -> String {
        let path = CLI.workDirectory + "/loop-\(marks.rawValue).mid"
        if FileManager.default.fileExists(atPath: path) { return path }
        var events: [MIDIEvent] = [
            MIDIEvent(tick: 0, message: .meta(.tempo(microsecondsPerQuarterNote: 500_000))),
            MIDIEvent(tick: 0, message: .programChange(channel: 0, program: 0)),
        ]
        func note(_ key: UInt8, _ from: Int, _ to: Int) {
            events.append(MIDIEvent(tick: from, message: .noteOn(channel: 0, note: key, velocity: 100)))
            events.append(MIDIEvent(tick: to, message: .noteOff(channel: 0, note: key, velocity: 0)))
        }
        note(57, 0, 960)
        note(64, 960, 1440)
        note(67, 1440, 1920)
        note(72, 1920, 2640)
        note(76, 2640, 3120)  // held across the loop's end
        note(48, 2880, 3840)  // the outro
        func marker(_ text: String, _ tick: Int) {
            events.append(MIDIEvent(tick: tick, message: .meta(.text(.marker, MIDIText(text)))))
        }
        func controller(_ number: UInt8, _ value: UInt8, _ tick: Int) {
            events.append(MIDIEvent(tick: tick, message: .controlChange(channel: 0, controller: number, value: value)))
        }
        switch marks {
        case .markers: marker("LoopStart", 960); marker("loop_end", 2880)
        case .cc111: controller(111, 0, 960)
        case .emidi: controller(116, 0, 960); controller(117, 0, 2880)
        case .contradictory: marker("loopStart", 960); marker("loopStart", 1440); marker("loopEnd", 2880)
        case .none: break
        }
        events.sort { $0.tick < $1.tick }
        events.append(MIDIEvent(tick: 3840, message: .meta(.endOfTrack)))
        try MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480), tracks: [MIDITrack(events: events)])
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    static func render(_ marks: Marks, _ options: [String], to name: String) throws -> (CLI.Result, String) {
        let out = CLI.workDirectory + "/" + name
        let r = try CLI.run(["render", try song(marks), "-s", try CLI.bankFile(), "-o", out, "-q",
                             "--no-reverb", "--no-chorus", "--bits", "32f"] + options)
        return (r, out)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The energy of `a − b` against `b`'s over both channels, in dB.
    static func decibels(_ a: AudioFile, _ aRange: Range<Int>, from b: AudioFile, _ bRange: Range<Int>) -> Double {
        var error = 0.0, signal = 0.0
        for channel in 0..<2 {
            for (i, j) in zip(aRange, bRange) {
                let x = Double(a.channels[channel][i]), y = Double(b.channels[channel][j])
                error += (x - y) * (x - y)
                signal += y * y
            }
        }
        return 10 * log10(max(error, 1e-300) / max(signal, 1e-300))
    }

    @Test func infoFindsTheLoopOfEachConventionToTheTick() throws {
        // 4/4: tick 960 is bar 1 beat 3, 2880 bar 2 beat 3, 3840 bar 3 beat 1.
        let expected: [(Marks, Int, Int, String, String)] = [(.markers, 960, 2880, "markers", "bars 1:3 – 2:3"),
                                                             (.cc111, 960, 3840, "cc111", "bars 1:3 – 3:1"),
                                                             (.emidi, 960, 2880, "emidi", "bars 1:3 – 2:3")]
        for (marks, start, end, source, bars) in expected {
            let r = try CLI.run(["info", "--json", try Self.song(marks)])
            #expect(r.status == 0, "\(r.stderr)")
            let loop = try #require(try Self.json(r.stdout)["loop"] as? [String: Any], "\(marks)")
            #expect(loop["startTick"] as? Int == start)
            #expect(loop["endTick"] as? Int == end)
            #expect(loop["source"] as? String == source)
            #expect(loop["startSeconds"] as? Double == Double(start) / 960)
            #expect(loop["endSeconds"] as? Double == Double(end) / 960)
            let text = try CLI.run(["info", try Self.song(marks)])
            #expect(text.stdout.contains("loop: 1.000 s – \(String(format: "%.3f", Double(end) / 960)) s"), "\(text.stdout)")
            #expect(text.stdout.contains("\(bars), ticks \(start) – \(end)"), "\(text.stdout)")
        }
        for marks in [Marks.none, .contradictory] {
            let r = try CLI.run(["info", "--json", try Self.song(marks)])
            #expect(r.status == 0)
            let object = try Self.json(r.stdout)
            #expect(object["loop"] == nil)
            let warnings = object["warnings"] as? [String] ?? []
            #expect(warnings.contains { $0.lowercased().contains("loop") } == (marks == .contradictory), "\(warnings)")
        }
    }

    @Test func loopsRepeatTheSectionAndTheOutroFollows() throws {
        let (plain, plainPath) = try Self.render(.markers, [], to: "loop-plain.wav")
        #expect(plain.status == 0, "\(plain.stderr)")
        let (looped, loopedPath) = try Self.render(.markers, ["--loops", "3"], to: "loop-3.wav")
        #expect(looped.status == 0, "\(looped.stderr)")
        let a = try AudioFile(contentsOf: plainPath), b = try AudioFile(contentsOf: loopedPath)
        #expect(b.frameCount == a.frameCount + 2 * Self.loopLength)
        let s = Self.loopStart, l = Self.loopLength
        let difference = Self.decibels(b, s + 2 * l..<s + 3 * l, from: b, s + l..<s + 2 * l)
        #expect(difference <= -100, "pass 3 against pass 2: \(difference) dB")
        // The intro and the first pass are the song as written.
        #expect(Self.decibels(b, 0..<s + l, from: a, 0..<s + l) <= -100)
    }

    @Test func aFadeOutEndsTheRenderAfterItsPasses() throws {
        let (r, path) = try Self.render(.markers, ["--loops", "2", "--fade-out", "1.5"], to: "loop-fade.wav")
        #expect(r.status == 0, "\(r.stderr)")
        let file = try AudioFile(contentsOf: path)
        #expect(file.frameCount == Self.loopStart + 2 * Self.loopLength + 66_150)
        let last = file.channels[0].suffix(100).map(abs).max() ?? 1
        #expect(last < 1e-3)
    }

    @Test func lengthIsExactToTheFrame() throws {
        for seconds in ["1.5", "20"] {
            let (r, path) = try Self.render(.none, ["--length", seconds], to: "length-\(seconds).wav")
            #expect(r.status == 0, "\(r.stderr)")
            #expect(try AudioFile(contentsOf: path).frameCount == Int((Double(seconds)! * 44_100).rounded()))
        }
    }

    /// The file played as a game engine plays it — to the loop's end, then its loop again and
    /// again — against the song rendered with its loop repeating: every frame of passes 2–4.
    @Test(.enabled(if: RealFiles.toolAvailable("python3")))
    func aLoopReadyWAVPlayedAsAGameWouldIsTheSongPlayedThrough() throws {
        let (r, path) = try Self.render(.markers, ["--loop-ready"], to: "ready.wav")
        #expect(r.status == 0, "\(r.stderr)")
        let s = Self.loopStart, l = Self.loopLength
        // The loop points, read back by a reader that shares no code with the writer.
        let read = try LoopPointReader.read(path, "wav")
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.lines.contains("smpl=0,\(s + l),\(s + 2 * l - 1)"), "\(read.lines)")
        #expect(read.lines.contains("cue=\(s + l)") && read.lines.contains("cue=\(s + 2 * l)"))
        let json = try Self.json(String(decoding: try Data(contentsOf: URL(fileURLWithPath:
            CLI.workDirectory + "/ready.loop.json")), as: UTF8.self))
        #expect(json["loopStart"] as? Int == s + l)
        #expect(json["loopEnd"] as? Int == s + 2 * l)
        #expect(json["loopLength"] as? Int == l)
        #expect(json["source"] as? String == "markers")
        #expect(r.stdout.contains("ready.loop.json"))

        let file = try AudioFile(contentsOf: path)
        #expect(file.frameCount == s + 2 * l)  // no outro
        let (through, throughPath) = try Self.render(.markers, ["--loops", "5"], to: "ready-reference.wav")
        #expect(through.status == 0)
        let reference = try AudioFile(contentsOf: throughPath)
        // Up to the loop's end the file is the song; after each jump its loop is the next pass.
        #expect(Self.decibels(file, 0..<s + 2 * l, from: reference, 0..<s + 2 * l) <= -100)
        for pass in 3...4 {
            let difference = Self.decibels(file, s + l..<s + 2 * l, from: reference, s + (pass - 1) * l..<s + pass * l)
            #expect(difference <= -50, "pass \(pass): \(difference) dB")
        }
        // The seam itself: the last frames before the loop's end, then the first after the jump.
        let seam = Self.decibels(file, s + 2 * l - 512..<s + 2 * l, from: reference, s + 2 * l - 512..<s + 2 * l)
        let afterJump = Self.decibels(file, s + l..<s + l + 512, from: reference, s + 2 * l..<s + 2 * l + 512)
        #expect(seam <= -50 && afterJump <= -50, "seam \(seam) dB, after the jump \(afterJump) dB")
    }

    @Test(.enabled(if: RealFiles.toolAvailable("python3")))
    func aLoopReadyAIFFCarriesItsMarkers() throws {
        let out = CLI.workDirectory + "/ready.aiff"
        let r = try CLI.run(["render", try Self.song(.cc111), "-s", try CLI.bankFile(), "-o", out, "-q", "--loop-ready"])
        #expect(r.status == 0, "\(r.stderr)")
        // Controller 111: the loop runs to the song's end (tick 3840, 4 s).
        let start = Self.loopStart + 3 * Self.beat * 2, end = start + 3 * Self.beat * 2
        let read = try LoopPointReader.read(out, "aiff")
        #expect(read.lines.contains("mark1=\(start)"), "\(read.lines)")
        #expect(read.lines.contains("mark2=\(end)"))
        #expect(read.lines.contains("sustain=1,1,2"))
        #expect(try AudioFile(contentsOf: out).frameCount == end)
    }

    @Test(.enabled(if: Self.libsndfileAvailable && RealFiles.toolAvailable("vorbiscomment")))
    func aLoopReadyOggCarriesLOOPSTARTAndLOOPLENGTH() throws {
        let out = CLI.workDirectory + "/ready.ogg"
        let r = try CLI.run(["render", try Self.song(.emidi), "-s", try CLI.bankFile(), "-o", out, "-q", "--loop-ready"])
        #expect(r.status == 0, "\(r.stderr)")
        let tags = try runProcess(RealFiles.tool("vorbiscomment") ?? "vorbiscomment", ["-l", out]).stdout
        #expect(tags.contains("LOOPSTART=\(Self.loopStart + Self.loopLength)\n"), "\(tags)")
        #expect(tags.contains("LOOPLENGTH=\(Self.loopLength)\n"))
        #expect(try AudioFile(contentsOf: out).frameCount == Self.loopStart + 2 * Self.loopLength)
    }

    @Test(.enabled(if: Self.libsndfileAvailable && RealFiles.toolAvailable("metaflac")))
    func aLoopReadyFLACCarriesLOOPSTARTAndLOOPLENGTH() throws {
        let out = CLI.workDirectory + "/ready.flac"
        let r = try CLI.run(["render", try Self.song(.markers), "-s", try CLI.bankFile(), "-o", out, "-q", "--loop-ready"])
        #expect(r.status == 0, "\(r.stderr)")
        let tags = try runProcess(RealFiles.tool("metaflac") ?? "metaflac", ["--export-tags-to=-", out]).stdout
        #expect(tags.contains("LOOPSTART=\(Self.loopStart + Self.loopLength)\n"), "\(tags)")
        #expect(tags.contains("LOOPLENGTH=\(Self.loopLength)\n"))
    }

    @Test func batchWritesLoopReadyFilesAndTheirPoints() throws {
        let directory = try TemporaryDirectory(prefix: "batch-loops")
        let input = directory.file("in")
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Self.song(.markers), toPath: input + "/song.mid")
        let out = directory.file("out")
        let r = try CLI.run(["batch", input, "-o", out, "-s", try CLI.bankFile(), "-q", "--loop-ready", "--labels"])
        #expect(r.status == 0, "\(r.stderr)")
        let read = try LoopPointReader.read(out + "/song.wav", "wav")
        let s = Self.loopStart, l = Self.loopLength
        #expect(read.lines.contains("smpl=0,\(s + l),\(s + 2 * l - 1)"), "\(read.lines)")
        let json = try Self.json(String(decoding: try Data(contentsOf: URL(fileURLWithPath: out + "/song.loop.json")),
                                        as: UTF8.self))
        #expect(json["loopStart"] as? Int == s + l)
        // The labels are the file's: the intro, both passes (the loop's first note twice), no
        // outro, nothing past the file's end.
        let rows = try String(contentsOfFile: out + "/song.labels.csv", encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
        let onsets = rows.map { Int($0[2])! }, offsets = rows.map { Int($0[3])! }, pitches = rows.map { Int($0[4])! }
        #expect(rows.count == 9, "\(rows)")
        #expect(zip(pitches, onsets).filter { $0.0 == 64 }.map(\.1) == [s, s + l])
        #expect(!pitches.contains(48) && offsets.max() == s + 2 * l)
    }

    @Test func loopOptionsNeedALoopAndBoundedWork() throws {
        for option in [["--loops", "2"], ["--fade-out", "3"], ["--loop-ready"]] {
            let (r, _) = try Self.render(.none, option, to: "no-loop.wav")
            #expect(r.status == 64, "\(option): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("loop-none.mid"))
            #expect(r.stderr.contains(option[0]))
        }
        // Contradictory marks: the same usage error, saying why.
        let (c, _) = try Self.render(.contradictory, ["--loops", "2"], to: "no-loop.wav")
        #expect(c.status == 64)
        #expect(c.stderr.contains("loop-contradictory.mid"))
        // A billion passes: refused before rendering, naming the limit.
        let (huge, hugePath) = try Self.render(.markers, ["--loops", "1000000000"], to: "huge.wav")
        #expect(huge.status != 0)
        #expect(huge.stderr.contains("loop-markers.mid") && huge.stderr.contains("--max-duration"), "\(huge.stderr)")
        #expect(!FileManager.default.fileExists(atPath: hugePath))
        // Options that contradict each other.
        let (both, _) = try Self.render(.markers, ["--loop-ready", "--length", "3"], to: "both.wav")
        #expect(both.status == 64)
    }
}
