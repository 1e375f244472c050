import Foundation
import PolyphonAudio
import PolyphonSoundFont
import PolyphonTestSupport
import Testing

/// `polyphon info X.sfz`: the instrument described by the built executable; `render` playing
/// an SFZ instrument given as `--soundfont`.
@Suite("polyphon info with SFZ instruments", .serialized)
struct SFZInfoTests {
    /// An instrument with two regions on a sine sample (one missing, one unknown opcode).
    static func instrument() throws -> String {
        let directory = CLI.workDirectory + "/sfz"
        try FileManager.default.createDirectory(atPath: directory + "/Samples", withIntermediateDirectories: true)
        let writer = try makeAudioFileWriter(path: directory + "/Samples/sine.wav", channelCount: 1, sampleRate: 44_100)
        try writer.write(planar: [(0..<4410).map { Float(0.5 * sin(2 * Double.pi * 441 * Double($0) / 44_100)) }])
        try writer.close()
        let path = directory + "/piano.sfz"
        try Data("""
            // A test instrument
            <control> default_path=samples\\ set_cc20=100 set_hdcc21=0.5
            <group> seq_length=2 wobble=1
            <region> sample=Sine.wav lokey=c4 hikey=e4 seq_position=1
            <region> sample=Sine.wav lokey=c4 hikey=e4 seq_position=2
            <region> sample=gone.wav key=f4
            """.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func infoDescribesTheInstrument() throws {
        let r = try CLI.run(["info", try Self.instrument()])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Kind: SFZ instrument"))
        #expect(r.stdout.contains("c4 (60) – e4 (64): 2 regions"))
        #expect(r.stdout.contains("Controller defaults: CC 20 = 100, CC 21 = 63.5"))
        #expect(r.stdout.contains("samples/Sine.wav: 4410 frames, 44100 Hz, mono"))
        #expect(r.stdout.contains("unknown opcode 'wobble'"))
        #expect(r.stdout.contains("sample 'samples/gone.wav' not found"))
    }

    @Test func infoJSONListsRegionsSamplesAndWarnings() throws {
        let r = try CLI.run(["info", "--json", try Self.instrument()])
        #expect(r.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["regionCount"] as? Int == 2)
        let defaults = try #require(json["controllerDefaults"] as? [[String: Any]])
        #expect(defaults.map { $0["controller"] as? Int } == [20, 21] && defaults.map { $0["value"] as? Double } == [100, 63.5])
        #expect((json["samples"] as? [[String: Any]])?.first?["frames"] as? Int == 4410)
        #expect((json["warnings"] as? [String])?.count == 2)
        #expect((json["regions"] as? [[String: Any]])?.first?["conditions"] as? [String] == ["seq 1/2"])
    }

    @Test func anSfzThatIsNotTextIsOneLineAndExitCodeOne() throws {
        let path = CLI.workDirectory + "/binary.sfz"
        try Data([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0]).write(to: URL(fileURLWithPath: path))
        let r = try CLI.run(["info", path])
        #expect(r.status == 1)
        #expect(r.stderr.split(separator: "\n").count == 1)
    }

    @Test func renderPlaysTheInstrumentAndListsItsWarnings() throws {
        // 44 whole cycles of 441 Hz, looped.
        let directory = CLI.workDirectory + "/sfz-render"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let writer = try makeAudioFileWriter(path: directory + "/Cycles.wav", channelCount: 1, sampleRate: 44_100)
        try writer.write(planar: [(0..<4400).map { Float(0.5 * sin(2 * Double.pi * 441 * Double($0) / 44_100)) }])
        try writer.close()
        let path = directory + "/everywhere.sfz"
        try Data("""
            <region> sample=cycles.wav loop_mode=loop_continuous
            <region> key=70 trigger=release sample=cycles.wav count=2 cutoff=1000 cutoff_chanaft=1200
            """.utf8).write(to: URL(fileURLWithPath: path))
        let out = CLI.workDirectory + "/sfz.wav"
        let r = try CLI.run(["render", try CLI.songFile(), "-s", path, "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("not played yet: cutoff_chanaft, cutoff_polyaft"))
        #expect(r.stderr.contains("SFZ instrument, 2 playable regions, on every channel but 10"))
        func pitch(_ file: String) throws -> Double {
            let audio = try AudioFile(contentsOf: file)
            let window = Array(audio.channels[0][2205..<10_000])
            var crossings: [Double] = []
            for i in 1..<window.count where window[i - 1] < 0 && window[i] >= 0 {
                crossings.append(Double(i - 1) + Double(-window[i - 1] / (window[i] - window[i - 1])))
            }
            return Double(crossings.count - 1) / (crossings.last! - crossings.first!) * audio.sampleRate
        }
        // The song's A4 (key 69) on the 441 Hz sine recorded for key 60: 441 · 2^(9/12) Hz.
        let sfzPitch = 441 * pow(2, 0.75)
        #expect(abs(1200 * log2(try pitch(out) / sfzPitch)) < 1)

        // Stacked over a SoundFont whose every program sounds 441 Hz at A4: the first bank with
        // program 0 plays it.
        let soundFont = directory + "/Sines.sf2"
        try Data(SineBank.everyProgram().serialized()).write(to: URL(fileURLWithPath: soundFont))
        let stacked = try CLI.run(["render", try CLI.songFile(), "-s", path + "@0:0", "-s", soundFont, "-o", out])
        #expect(stacked.status == 0, "\(stacked.stderr)")
        #expect(stacked.stderr.contains("SFZ instrument, 2 playable regions, on bank 0, program 0"))
        #expect(abs(1200 * log2(try pitch(out) / sfzPitch)) < 1)
        let soundFontFirst = try CLI.run(["render", try CLI.songFile(), "-s", soundFont, "-s", path + "@0:0", "-o", out])
        #expect(soundFontFirst.status == 0, "\(soundFontFirst.stderr)")
        #expect(abs(1200 * log2(try pitch(out) / 441)) < 1)
        let misplaced = try CLI.run(["render", try CLI.songFile(), "-s", soundFont + "@0:0", "-o", out])
        #expect(misplaced.status == 1 && misplaced.stderr.contains("only an SFZ instrument takes @bank:program"), "\(misplaced.stderr)")
    }
}
