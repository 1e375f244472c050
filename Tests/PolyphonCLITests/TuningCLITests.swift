import Foundation
import PolyphonAudio
import PolyphonMIDI
import Testing

/// `--tuning` / `--tuning-key` on render, and the tuning messages `polyphon info` lists.
@Suite("CLI: tunings")
struct TuningCLITests {
    /// A song with a scale/octave tuning (A +50 on channel 1), an RPN 3 selection, a truncated
    /// tuning message, and one A4.
    static func tunedSong() throws -> String {
        let path = CLI.workDirectory + "/tuned.mid"
        var octave: [UInt8] = [0x7F, 0x7F, 0x08, 0x08, 0x00, 0x00, 0x01] + [UInt8](repeating: 64, count: 12) + [0xF7]
        octave[7 + 9] = 64 + 50
        let events: [MIDIEvent] = [
            MIDIEvent(tick: 0, message: .systemExclusive(octave)),
            MIDIEvent(tick: 0, message: .controlChange(channel: 1, controller: 101, value: 0)),
            MIDIEvent(tick: 0, message: .controlChange(channel: 1, controller: 100, value: 3)),
            MIDIEvent(tick: 0, message: .controlChange(channel: 1, controller: 6, value: 7)),
            MIDIEvent(tick: 240, message: .systemExclusive([0x7F, 0x7F, 0x08, 0x02, 0x00, 0x02, 0x45, 0x45, 0xF7])),
            MIDIEvent(tick: 480, message: .noteOn(channel: 0, note: 69, velocity: 100)),
            MIDIEvent(tick: 1440, message: .noteOff(channel: 0, note: 69, velocity: 0)),
            MIDIEvent(tick: 1440, message: .meta(.endOfTrack)),
        ]
        try MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480), tracks: [MIDITrack(events: events)])
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func infoListsTheTuningMessages() throws {
        let r = try CLI.run(["info", try Self.tunedSong()])
        #expect(r.status == 0)
        #expect(r.stdout.contains("scale/octave tuning (1-byte, real-time) for channel 1: C +0.00"), "\(r.stdout)")
        #expect(r.stdout.contains("A +50.00"))
        #expect(r.stdout.contains("RPN 3: tuning program 7 on channel 2"))
        #expect(r.stdout.contains("track 0, tick 240 (0.25 s): unreadable tuning message: tuning message (form 02): truncated"),
                "\(r.stdout)")
        let j = try CLI.run(["info", "--json", try Self.tunedSong()])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any])
        let tuning = try #require(json["tuning"] as? [[String: Any]])
        #expect(tuning.map { $0["kind"] as? String } == ["scaleOctave", "selectProgram", "malformed"])
        #expect((json["warnings"] as? [String])?.count == 1)
    }

    /// A4 at 452.9 Hz from the song's own message; with --tuning, a just major sixth above
    /// the mapping's C4 = 264 Hz; a broken scale file is a one-line error naming its line.
    @Test func renderPlaysTheSongsTuningAndAScalaFile() throws {
        let song = try Self.tunedSong(), bank = try CLI.bankFile()
        func measuredA4(_ extra: [String]) throws -> Double {
            let out = CLI.workDirectory + "/tuned\(extra.count).wav"
            let r = try CLI.run(["render", song, "-s", bank, "-q", "--bits", "32f", "--no-reverb", "--no-chorus", "-o", out] + extra)
            try #require(r.status == 0, "\(r.stderr)")
            let left = try AudioFile(contentsOf: out).channels[0]
            return Measure.frequency(left[Int(0.7 * 44_100)..<Int(1.4 * 44_100)], rate: 44_100)
        }
        // CLI.bankFile's sine is 441 Hz at its root, A4.
        let a4 = 441.0
        #expect(abs(Measure.cents(try measuredA4([]), a4 * pow(2, 50.0 / 1200))) < 0.1)

        let scl = CLI.workDirectory + "/ji.scl", kbm = CLI.workDirectory + "/c264.kbm"
        try "! ji.scl\nJust major\n 7\n9/8\n5/4\n4/3\n3/2\n5/3\n15/8\n2/1\n".write(toFile: scl, atomically: true, encoding: .utf8)
        try "! C4 at 264 Hz, white keys\n12\n0\n127\n60\n60\n264.0\n7\n0\nx\n1\nx\n2\n3\nx\n4\nx\n5\nx\n6\n"
            .write(toFile: kbm, atomically: true, encoding: .utf8)
        // The song's own scale/octave message for channel 1 still applies over the file's tuning.
        #expect(abs(Measure.cents(try measuredA4(["--tuning", scl, "--tuning-key", kbm]), a4 * pow(2, 50.0 / 1200))) < 0.1)

        let broken = CLI.workDirectory + "/broken.scl"
        try "broken\n3\n100.0\nabc\n2/1\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let r = try CLI.run(["render", song, "-s", bank, "--tuning", broken, "-o", CLI.workDirectory + "/x.wav"])
        // One line naming the file and the line, exit status 1 (a bad input, not a bad command line).
        #expect(r.status == 1)
        #expect(r.stderr.contains("broken.scl: line 4: 'abc' is neither cents nor a ratio"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        let badMapping = CLI.workDirectory + "/broken.kbm"
        try "12\n0\n127\n60\n69\n440.0\n12\n0\n1\n2\nthree\n".write(toFile: badMapping, atomically: true, encoding: .utf8)
        let m = try CLI.run(["render", song, "-s", bank, "--tuning", scl, "--tuning-key", badMapping, "-o", CLI.workDirectory + "/x.wav"])
        #expect(m.status == 1)
        #expect(m.stderr.contains("broken.kbm: line 11"), "\(m.stderr)")
        #expect(m.stderr.split(separator: "\n").count == 1, "\(m.stderr)")
        let lonely = try CLI.run(["render", song, "-s", bank, "--tuning-key", kbm, "-o", CLI.workDirectory + "/x.wav"])
        #expect(lonely.status != 0 && lonely.stderr.contains("--tuning-key needs --tuning"))
    }

    /// A song without tuning messages plays in the Scala file's tuning on its melodic channel.
    @Test func renderPlaysAScalaFileOnAPlainSong() throws {
        let song = CLI.workDirectory + "/plain-a4.mid"
        try MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480), tracks: [MIDITrack(events: [
            MIDIEvent(tick: 0, message: .noteOn(channel: 0, note: 69, velocity: 100)),
            MIDIEvent(tick: 960, message: .noteOff(channel: 0, note: 69, velocity: 0)),
            MIDIEvent(tick: 960, message: .meta(.endOfTrack)),
        ])]).write(to: URL(fileURLWithPath: song))
        let scl = CLI.workDirectory + "/ji-plain.scl", kbm = CLI.workDirectory + "/c260-plain.kbm"
        try "Just major\n 7\n9/8\n5/4\n4/3\n3/2\n5/3\n15/8\n2/1\n".write(toFile: scl, atomically: true, encoding: .utf8)
        try "12\n0\n127\n60\n60\n260.0\n7\n0\nx\n1\nx\n2\n3\nx\n4\nx\n5\nx\n6\n".write(toFile: kbm, atomically: true, encoding: .utf8)
        let out = CLI.workDirectory + "/plain-ji.wav"
        let r = try CLI.run(["render", song, "-s", try CLI.bankFile(), "-q", "--bits", "32f",
                             "--no-reverb", "--no-chorus", "--tuning", scl, "--tuning-key", kbm, "-o", out])
        try #require(r.status == 0, "\(r.stderr)")
        let left = try AudioFile(contentsOf: out).channels[0]
        let hz = Measure.frequency(left[Int(0.1 * 44_100)..<Int(0.95 * 44_100)], rate: 44_100)
        // A4 = 260 × 5/3 Hz; CLI.bankFile's sine plays 441 Hz for 440.
        #expect(abs(Measure.cents(hz, 260.0 * 5 / 3 * 441 / 440)) < 0.1, "measured \(hz)")

        // `batch` takes the same options and plays the same samples.
        let directory = try TemporaryDirectory(prefix: "batch-tuning")
        try FileManager.default.createDirectory(atPath: directory.file("in"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: song, toPath: directory.file("in/plain-a4.mid"))
        let b = try CLI.run(["batch", directory.file("in"), "-o", directory.file("out"), "-s", try CLI.bankFile(), "-q",
                             "--bits", "32f", "--no-reverb", "--no-chorus", "--tuning", scl, "--tuning-key", kbm])
        try #require(b.status == 0, "\(b.stderr)")
        #expect(try AudioFile(contentsOf: directory.file("out/plain-a4.wav")).channels[0] == left)
    }

    /// `--tuning` with a just-intonation scale and a keyboard mapping (A4 = 440 Hz, degree 0 on
    /// C4), against FluidSynth, which reads no Scala files, playing the same song with the
    /// scale's pitches sent as single-note tuning changes of program 0 selected with RPN 3.
    /// Within a cent of FluidSynth with --fluidsynth-compatible; exact pitch within 0.1 cent of
    /// the scale's arithmetic.
    @Test(.enabled(if: RealFiles.toolAvailable("fluidsynth")))
    func renderWithAScalaFileMatchesFluidSynthPlayingTheScaleAsTuningMessages() throws {
        let fluidsynth = try #require(RealFiles.tool("fluidsynth"), "fluidsynth is required under CI")
        let ratios: [Double] = [1, 16 / 15, 9 / 8, 6 / 5, 5 / 4, 4 / 3, 45 / 32, 3 / 2, 8 / 5, 5 / 3, 9 / 5, 15 / 8]
        let keys = [60, 64, 66, 67, 70, 76]
        /// Each key's pitch in cents above MIDI key 0, as the scale and mapping define it.
        func cents(_ key: Int) -> Double {
            let degree = key - 60, octave = Int((Double(degree) / 12).rounded(.down))
            return 6900 + 1200 * log2(ratios[degree - 12 * octave] * pow(2, Double(octave)) / (5.0 / 3))
        }
        let scl = CLI.workDirectory + "/ji-fluidsynth.scl", kbm = CLI.workDirectory + "/a440-fluidsynth.kbm"
        try ("! 5-limit just intonation\nJust intonation\n12\n" + "16/15 9/8 6/5 5/4 4/3 45/32 3/2 8/5 5/3 9/5 15/8 2/1"
            .split(separator: " ").joined(separator: "\n") + "\n").write(toFile: scl, atomically: true, encoding: .utf8)
        try "12\n0\n127\n60\n69\n440.0\n12\n0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n"
            .write(toFile: kbm, atomically: true, encoding: .utf8)

        // 960 ticks a second; a note every half second.
        var notes: [MIDIEvent] = []
        for (i, key) in keys.enumerated() {
            notes.append(MIDIEvent(tick: 48 + 480 * i, message: .noteOn(channel: 0, note: UInt8(key), velocity: 100)))
            notes.append(MIDIEvent(tick: 48 + 480 * i + 432, message: .noteOff(channel: 0, note: UInt8(key), velocity: 0)))
        }
        // Single-note tuning change (real-time, program 0), then RPN 3 selecting program 0.
        var change: [UInt8] = [0x7F, 0x7F, 0x08, 0x02, 0x00, UInt8(keys.count)]
        for key in keys {
            let c = cents(key), semitone = Int((c / 100).rounded(.down))
            let fraction = Int(((c - Double(semitone) * 100) * 16384 / 100).rounded())
            change += [UInt8(key), UInt8(semitone), UInt8(fraction >> 7), UInt8(fraction & 0x7F)]
        }
        let tuningMessages: [MIDIEvent] = [MIDIEvent(tick: 0, message: .systemExclusive(change + [0xF7]))] +
            [(101, 0), (100, 3), (6, 0), (101, 127), (100, 127)].map {
                MIDIEvent(tick: 0, message: .controlChange(channel: 0, controller: $0.0, value: $0.1))
            }
        func song(_ name: String, _ events: [MIDIEvent]) throws -> String {
            let path = CLI.workDirectory + "/" + name
            try MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480),
                         tracks: [MIDITrack(events: events + [MIDIEvent(tick: 480 * keys.count + 240, message: .meta(.endOfTrack))])])
                .write(to: URL(fileURLWithPath: path))
            return path
        }
        let plain = try song("ji-plain-notes.mid", notes), messages = try song("ji-as-mts.mid", tuningMessages + notes)
        let bank = try CLI.bankFile()
        func render(_ arguments: [String], _ output: String) throws -> [Float] {
            let out = CLI.workDirectory + "/" + output
            let r = try CLI.run(["render", plain, "-s", bank, "-q", "--bits", "32f", "--no-reverb", "--no-chorus",
                                 "--tuning", scl, "--tuning-key", kbm, "-o", out] + arguments)
            try #require(r.status == 0, "\(r.stderr)")
            return try AudioFile(contentsOf: out).channels[0]
        }
        let compatible = try render(["--fluidsynth-compatible"], "ji-compatible.wav"), exact = try render([], "ji-exact.wav")
        let fluidOut = CLI.workDirectory + "/ji-fluidsynth.wav"
        let f = try runProcess(fluidsynth, ["-ni", "-q", "-R", "0", "-C", "0", "-g", "0.2", "-r", "44100", "-O", "float",
                                            "-T", "wav", "-F", fluidOut, bank, messages])
        try #require(f.status == 0, "\(f.stderr)")
        let theirs = try AudioFile(contentsOf: fluidOut).channels[0]
        for (i, key) in keys.enumerated() {
            let window = Int((0.15 + 0.5 * Double(i)) * 44_100)..<Int((0.45 + 0.5 * Double(i)) * 44_100)
            let a = Measure.frequency(compatible[window], rate: 44_100), b = Measure.frequency(theirs[window], rate: 44_100)
            let e = Measure.frequency(exact[window], rate: 44_100)
            // CLI.bankFile's sine plays 441 Hz for 440.
            let scale = 440 * pow(2, (cents(key) - 6900) / 1200) * 441 / 440
            #expect(abs(Measure.cents(a, b)) < 1, "key \(key): Polyphon \(a) Hz, FluidSynth \(b) Hz")
            #expect(abs(Measure.cents(e, scale)) < 0.1, "key \(key): exact pitch \(e) Hz, the scale's \(scale) Hz")
        }
    }
}
