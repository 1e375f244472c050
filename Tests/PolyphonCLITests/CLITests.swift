import Foundation
import PolyphonAudio
import PolyphonMIDI
import PolyphonSoundFont
import Testing

@Suite("polyphon command line", .serialized)
struct CLITests {
    @Test func infoDescribesABank() throws {
        let r = try CLI.run(["info", try CLI.bankFile()])
        #expect(r.status == 0)
        #expect(r.stdout.contains("0:0 Sine Lead"))
        #expect(r.stdout.contains("128:0 Kit"))
    }

    @Test func infoJSONIsStable() throws {
        let r = try CLI.run(["info", "--json", try CLI.bankFile()])
        #expect(r.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let presets = try #require(json["presets"] as? [[String: Any]])
        #expect(presets.count == 2)
        let m = try CLI.run(["info", "--json", try CLI.songFile()])
        #expect(m.status == 0)
        let song = try #require(try JSONSerialization.jsonObject(with: Data(m.stdout.utf8)) as? [String: Any])
        #expect(song["noteCount"] as? Int == 2)
        #expect(song["format"] as? Int == 1)
    }

    @Test func infoDescribesASong() throws {
        let r = try CLI.run(["info", try CLI.songFile()])
        #expect(r.status == 0)
        #expect(r.stdout.contains("Melody"))
        #expect(r.stdout.contains("2 notes"))
    }

    @Test func badInputIsOneLineAndExitCodeOne() throws {
        let junk = CLI.workDirectory + "/junk.bin"
        try Data("hello, not a file we know".utf8).write(to: URL(fileURLWithPath: junk))
        let r = try CLI.run(["info", junk])
        #expect(r.status == 1)
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(r.stderr.contains(junk))
        // A truncated MIDI file names the track and the byte offset.
        let song = try Data(contentsOf: URL(fileURLWithPath: try CLI.songFile()))
        let cut = CLI.workDirectory + "/cut.mid"
        try song.prefix(30).write(to: URL(fileURLWithPath: cut))
        let t = try CLI.run(["info", cut])
        #expect(t.status == 0 || t.status == 1)
        if t.status == 1 {
            #expect(t.stderr.split(separator: "\n").count == 1)
            #expect(t.stderr.contains("cut.mid"))
        } else {
            #expect(t.stdout.lowercased().contains("warning"))
        }
        let missing = try CLI.run(["render", CLI.workDirectory + "/nope.mid", "-s", try CLI.bankFile()])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nope.mid"))
    }

    @Test func convertRewritesLosslessly() throws {
        let out = CLI.workDirectory + "/song0.mid"
        let r = try CLI.run(["convert", try CLI.songFile(), "-o", out, "--format", "0"])
        #expect(r.status == 0, "\(r.stderr)")
        let a = try MIDIFile(contentsOfFile: try CLI.songFile()), b = try MIDIFile(contentsOfFile: out)
        #expect(b.format == .singleTrack)
        #expect(b.noteCount == a.noteCount)
        #expect(abs(b.duration - a.duration) < 1e-9)
    }

    /// `render --threads N` writes the same bytes for every N: a 48-note chord (48 voices, so
    /// rounds are spread over the threads), in 32-bit float so no dither hides a difference.
    /// Out-of-range thread and voice counts are refused in one line.
    @Test func renderWritesTheSameBytesOnAnyNumberOfThreads() throws {
        let path = CLI.workDirectory + "/chord.mid"
        var events: [MIDIEvent] = []
        for key in UInt8(36)..<UInt8(84) { events.append(MIDIEvent(tick: 0, message: .noteOn(channel: 0, note: key, velocity: 90))) }
        for key in UInt8(36)..<UInt8(84) { events.append(MIDIEvent(tick: 960, message: .noteOff(channel: 0, note: key, velocity: 0))) }
        events.append(MIDIEvent(tick: 960, message: .meta(.endOfTrack)))
        try MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480), tracks: [MIDITrack(events: events)])
            .write(to: URL(fileURLWithPath: path))
        var renders: [Data] = []
        for threads in [1, 2, 3] {
            let out = CLI.workDirectory + "/chord-\(threads).wav"
            let r = try CLI.run(["render", path, "-s", try CLI.bankFile(), "-o", out, "--bits", "32f", "-q",
                                 "--threads", "\(threads)"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("48 voices"), "\(r.stdout)")
            renders.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        #expect(renders[0].count > 44_100 * 8)
        #expect(renders[1] == renders[0] && renders[2] == renders[0])
        for bad in [["--threads", "0"], ["--polyphony", "0"]] {
            let r = try CLI.run(["render", path, "-s", try CLI.bankFile(), "-o", CLI.workDirectory + "/bad.wav", "-q"] + bad)
            #expect(r.status != 0)
            #expect(r.stderr.contains(bad[0]), "\(r.stderr)")
        }
    }

    @Test func renderWritesAWAVThatPythonAndSoxRead() throws {
        let out = CLI.workDirectory + "/song.wav"
        let r = try CLI.run(["render", try CLI.songFile(), "-s", try CLI.bankFile(), "-o", out, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("using bank"))
        #expect(r.stdout.contains("LUFS"))
        let file = try AudioFile(contentsOf: out)
        #expect(file.sampleRate == 44100 && file.channelCount == 2)
        // 1 s of note, then a release of 96 dB per 0.5 s from about −32 dBFS: the voice ends
        // at the −90 dB noise floor after ≈ 0.3 s.
        #expect(file.duration > 1.25 && file.duration < 1.45, "duration \(file.duration)")
        if let python = RealFiles.tool("python3") {
            let script = "import wave,sys; w=wave.open(sys.argv[1]); print(w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes())"
            let p = try runProcess(python, ["-c", script, out])
            #expect(p.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2 2 44100 \(file.frameCount)")
        }
    }

    @Test(.enabled(if: RealFiles.toolAvailable("sox")), arguments: ["aiff", "caf", "wav"])
    func soxReadsEveryNativeFormat(format: String) throws {
        let sox = try #require(RealFiles.tool("sox"))
        for bits in ["16", "24", "32f"] where !(format == "aiff" && bits == "32f") {
            let out = CLI.workDirectory + "/fmt-\(bits).\(format)"
            let r = try CLI.run(["render", try CLI.songFile(), "-s", try CLI.bankFile(), "-o", out, "--bits", bits, "-q"])
            #expect(r.status == 0, "\(r.stderr)")
            let info = try runProcess(sox, ["--i", out])
            #expect(info.stdout.contains("Channels       : 2"))
            #expect(info.stdout.contains("Sample Rate    : 44100"))
            let precision = bits == "16" ? "16-bit" : bits == "24" ? "24-bit" : "25-bit"
            #expect(info.stdout.contains(precision), "\(format) \(bits): \(info.stdout)")
        }
    }

    @Test func floatAndTwentyFourBitRoundTrip() throws {
        let f32 = CLI.workDirectory + "/rt.caf", i24 = CLI.workDirectory + "/rt24.wav"
        #expect(try CLI.run(["render", try CLI.songFile(), "-s", try CLI.bankFile(), "-o", f32, "--bits", "32f", "-q"]).status == 0)
        #expect(try CLI.run(["render", try CLI.songFile(), "-s", try CLI.bankFile(), "-o", i24, "--bits", "24", "-q"]).status == 0)
        let a = try AudioFile(contentsOf: f32), b = try AudioFile(contentsOf: i24)
        #expect(a.frameCount == b.frameCount)
        var worst: Float = 0
        for c in 0..<2 { for i in 0..<a.frameCount { worst = max(worst, abs(a.channels[c][i] - b.channels[c][i])) } }
        #expect(worst <= 1.0 / 8_388_608 * 1.01, "24-bit differs from float by \(worst)")
    }

    @Test func alignToFluidSynthStartsTheFirstNoteOnFluidSynthsBlock() throws {
        // The song's first note is on tick 0: FluidSynth's player sends it before its first
        // 64-frame block is rendered and it sounds from frame 64.
        func firstSound(_ extra: [String]) throws -> Int {
            let out = CLI.workDirectory + "/align\(extra.count).wav"
            let r = try CLI.run(["render", try CLI.songFile(), "-s", try CLI.bankFile(), "-o", out, "--bits", "32f", "-q",
                                 "--no-reverb", "--no-chorus"] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            return try #require(try AudioFile(contentsOf: out).channels[0].firstIndex { $0 != 0 })
        }
        #expect(try firstSound(["--align-to-fluidsynth"]) - firstSound([]) == 64)
        let fractional = try CLI.run(["render", try CLI.songFile(), "-s", try CLI.bankFile(), "--rate", "44100.5",
                                      "--align-to-fluidsynth", "-o", CLI.workDirectory + "/x.wav"])
        #expect(fractional.status == 64)
    }

    @Test func normalizeHitsItsTarget() throws {
        let out = CLI.workDirectory + "/norm.wav"
        let r = try CLI.run(["render", try CLI.songFile(), "-s", try CLI.bankFile(), "-o", out, "--bits", "32f",
                             "--normalize", "peak=-3dBFS", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let file = try AudioFile(contentsOf: out)
        let peak = file.channels.flatMap { $0 }.map { abs($0) }.max() ?? 0
        #expect(abs(20 * log10(Double(peak)) - (-3)) < 0.01)
    }

    @Test func stemsAreWrittenBesideTheMix() throws {
        let out = CLI.workDirectory + "/stems.wav"
        let r = try CLI.run(["render", try CLI.songFile(), "-s", try CLI.bankFile(), "-o", out, "--stems", "channel", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: CLI.workDirectory + "/stems-ch01.wav"))
        #expect(FileManager.default.fileExists(atPath: CLI.workDirectory + "/stems-ch10.wav"))
    }

    @Test func aSongCutShortRendersWithWarningsAndTrimKeepsThePicture() throws {
        // The song's bytes cut inside its last track: it renders what it holds, saying so.
        let whole = try Data(contentsOf: URL(fileURLWithPath: try CLI.songFile()))
        let cut = CLI.workDirectory + "/cut.mid", out = CLI.workDirectory + "/cut.wav"
        try whole.prefix(whole.count - 6).write(to: URL(fileURLWithPath: cut))
        let r = try CLI.run(["render", cut, "-s", try CLI.bankFile(), "-o", out, "--lead-in", "0.5", "--trim",
                             "--picture", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("\(cut): warning: track 2, byte"), "\(r.stderr)")
        #expect(r.stderr.contains("file ends inside the track"), "\(r.stderr)")
        // --trim drops the lead-in (the sine's first point is 0: one frame more); the picture is
        // drawn (it follows the trimmed audio).
        let untrimmed = CLI.workDirectory + "/cut-untrimmed.wav"
        #expect(try CLI.run(["render", cut, "-s", try CLI.bankFile(), "-o", untrimmed, "--lead-in", "0.5", "-q"]).status == 0)
        #expect(try AudioFile(contentsOf: untrimmed).frameCount - AudioFile(contentsOf: out).frameCount == 22_051)
        #expect(FileManager.default.fileExists(atPath: CLI.workDirectory + "/cut.png"))
    }

    @Test func missingLibsndfileGivesTheInstallHint() throws {
        let out = CLI.workDirectory + "/x.flac"
        let r = try CLI.run(["render", try CLI.songFile(), "-s", try CLI.bankFile(), "-o", out, "-q"],
                            environment: ["POLYPHON_LIBSNDFILE": "/nonexistent/libsndfile.so.1"])
        #expect(r.status == 1)
        #expect(r.stderr.split(separator: "\n").last?.contains("libsndfile1") == true, "\(r.stderr)")
    }

    @Test(.enabled(if: CLI.isCI || FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libsndfile.so.1")))
    func flacThroughLibsndfile() throws {
        let out = CLI.workDirectory + "/song.flac"
        let r = try CLI.run(["render", try CLI.songFile(), "-s", try CLI.bankFile(), "-o", out, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let file = try AudioFile(contentsOf: out)
        #expect(file.channelCount == 2 && file.frameCount > 44100)
    }

    /// `--version` prints the version CHANGELOG.md's latest release describes.
    @Test func theVersionIsTheChangelogsLatestRelease() throws {
        let r = try CLI.run(["--version"])
        #expect(r.status == 0)
        let version = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(version.split(separator: ".").count == 3 && version.allSatisfy { $0.isNumber || $0 == "." }, "\(version)")
        let changelog = try String(contentsOfFile: CLI.repository + "/CHANGELOG.md", encoding: .utf8)
        let released = changelog.split(separator: "\n").first { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        #expect(released?.hasPrefix("## [\(version)]") == true, "\(released ?? "no release in CHANGELOG.md")")
    }

    /// The synthesis options are one group: every command that makes sound takes all of them,
    /// and those with a sample rate and a tail take them with the same spelling.
    @Test func everyCommandThatMakesSoundTakesTheSynthesisOptions() throws {
        let shared = ["--soundfont", "--gain", "--interpolation", "--reverb", "--chorus", "--no-reverb", "--no-chorus",
                      "--min-note-length", "--fluidsynth-compatible", "--tuning", "--tuning-key"]
        for command in [["render"], ["batch", "render"], ["play"], ["synth"]] {
            let help = try CLI.run(command + ["--help"])
            #expect(help.status == 0)
            for option in shared { #expect(help.stdout.contains(option), "\(command) --help lacks \(option)") }
            if command != ["play"] {
                #expect(help.stdout.contains("--rate") && help.stdout.contains("--max-tail, --tail"), "\(command)")
            }
        }
        #expect(try CLI.run(["render", try CLI.songFile(), "--gain", "11"]).stderr.contains("--gain must be 0–10"))
        #expect(try CLI.run(["synth", "--stdin", "--interpolation", "quintic"]).status == 64)
        // --fluidsynth-compatible's former name is still accepted, no longer listed.
        let old = try CLI.run(["render", try CLI.songFile(), "-q", "--fluidsynth-blocks", "-o", CLI.workDirectory + "/blocks.wav"])
        #expect(old.status == 0, "\(old.stderr)")
        #expect(try !CLI.run(["render", "--help"]).stdout.contains("--fluidsynth-blocks"))
    }

    @Test func usageErrorsAreRejected() throws {
        let r = try CLI.run(["render", try CLI.songFile(), "--interpolation", "quintic"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("interpolation"))
    }
}

@Suite("Long renders")
struct LongRenderTests {
    /// A note every second for `seconds` seconds.
    static func file(seconds: Int) throws -> String {
        let path = CLI.workDirectory + "/long-\(seconds).mid"
        var events: [MIDIEvent] = []
        for s in 0..<seconds {
            events.append(MIDIEvent(tick: s * 960, message: .noteOn(channel: 0, note: 60 + UInt8(s % 12), velocity: 90)))
            events.append(MIDIEvent(tick: s * 960 + 480, message: .noteOff(channel: 0, note: 60 + UInt8(s % 12), velocity: 0)))
        }
        events.append(MIDIEvent(tick: seconds * 960, message: .meta(.endOfTrack)))
        try MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480), tracks: [MIDITrack(events: events)])
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Renders through GNU time and returns the render's own peak resident memory, KiB.
    static func peakKiB(_ args: [String]) throws -> (CLI.Result, Int) {
        let stats = CLI.workDirectory + "/time-\(UUID().uuidString).txt"
        let r = try runProcess("/usr/bin/time", ["-f", "%M", "-o", stats, CLI.binary] + args)
        let text = (try? String(contentsOfFile: stats, encoding: .utf8)) ?? ""
        let kib = Int(text.split(separator: "\n").last.map { String($0).trimmingCharacters(in: .whitespaces) } ?? "") ?? -1
        return (r, kib)
    }

    @Test(.enabled(if: CLI.isCI || FileManager.default.isExecutableFile(atPath: "/usr/bin/time")))
    func aTwoHourSongRendersWithFlatMemory() throws {
        let bank = try CLI.bankFile()
        let (short, shortPeak) = try Self.peakKiB(["render", try Self.file(seconds: 60), "-s", bank, "--rate", "8000",
                                                   "-o", CLI.workDirectory + "/short.wav", "-q"])
        #expect(short.status == 0, "\(short.stderr)")
        let (long, longPeak) = try Self.peakKiB(["render", try Self.file(seconds: 7200), "-s", bank, "--rate", "8000",
                                                 "-o", CLI.workDirectory + "/long.wav", "-q"])
        #expect(long.status == 0, "\(long.stderr)")
        #expect(long.stdout.contains("7200."), "\(long.stdout)")
        #expect(shortPeak > 0 && longPeak > 0)
        // Two hours (57.6 M frames) must peak within 8 MB of one minute's render.
        #expect(longPeak - shortPeak < 8192, "peak RSS \(shortPeak) KiB for 1 min, \(longPeak) KiB for 2 h")
        try? FileManager.default.removeItem(atPath: CLI.workDirectory + "/long.wav")
    }
}

@Suite("Sample-bank plists from the command line")
struct PlistBankCLITests {
    @Test func renderWithASoundBankPlayerPlist() throws {
        // The seed's layout: sample rate, then name / last note / root note, CAF files beside it.
        let dir = CLI.workDirectory + "/plist-bank"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, root) in [("Low", 45.0), ("High", 69.0)] {
            let f = 440 * pow(2, (root - 69) / 12)
            let pcm = (0..<32000).map { Float(0.5 * sin(2 * Double.pi * f * Double($0) / 32000)) }
            let w = try makeAudioFileWriter(path: "\(dir)/\(name).caf", format: .caf, sampleFormat: .int16,
                                            channelCount: 1, sampleRate: 32000, dither: .none)
            try w.write(planar: [pcm])
            try w.close()
        }
        let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><array><string>32000</string>
        <string>Low</string><string>57</string><string>45</string>
        <string>High</string><string>127</string><string>69</string>
        </array></plist>
        """
        try plist.write(toFile: "\(dir)/Piano.plist", atomically: true, encoding: .utf8)
        let song = dir + "/a4.mid"
        try MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480), tracks: [MIDITrack(events: [
            MIDIEvent(tick: 0, message: .noteOn(channel: 0, note: 69, velocity: 100)),
            MIDIEvent(tick: 960, message: .noteOff(channel: 0, note: 69, velocity: 0)),
            MIDIEvent(tick: 960, message: .meta(.endOfTrack)),
        ])]).write(to: URL(fileURLWithPath: song))
        let out = dir + "/song.wav"
        let r = try CLI.run(["render", song, "--soundfont", "\(dir)/Piano.plist", "-o", out,
                             "--bits", "32f", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("Piano.plist"))
        // Key 69 plays the "High" sample at its root: 440 Hz.
        let file = try AudioFile(contentsOf: out)
        let x = file.channels[0][4410..<26460]
        var crossings = 0
        var previous = x.first ?? 0
        for v in x.dropFirst() { if previous < 0 && v >= 0 { crossings += 1 }; previous = v }
        #expect(abs(Double(crossings) / 0.5 - 440) < 6, "\(Double(crossings) / 0.5) Hz")
    }
}
