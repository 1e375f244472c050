import Testing
import PolyphonSoundFont
@testable import PolyphonSynth

/// The minimum note length (FluidSynth's `synth.min-note-length`, 10 ms): a release asked for
/// before a voice has played that long begins once it has, in whole 64-frame periods.
@Suite struct MinimumNoteLengthTests {
    /// A sine with a 20 ms attack and a 100 ms release, so a note's first milliseconds decide
    /// how loud it gets.
    static let bank = TestBank.sine(generators: [Generator(.attackVolEnv, -5200), Generator(.releaseVolEnv, -3986)])

    /// Renders `events` (frame, key, on/off or pedal) with `minimum` seconds of minimum note length.
    static func render(_ events: [(frame: Int, action: String, key: UInt8)], minimum: Double? = nil,
                       rate: Double = 44_100, frames: Int = 12_000) throws -> [Float] {
        var configuration = SynthesizerConfiguration.dry
        if let minimum { configuration.minimumNoteLength = minimum }
        let synth = try Synthesizer(soundBank: bank, sampleRate: rate, configuration: configuration)
        for e in events {
            switch e.action {
            case "on": synth.startNote(e.key, withVelocity: 100, onChannel: 0, atFrame: e.frame)
            case "off": synth.stopNote(e.key, onChannel: 0, atFrame: e.frame)
            case "pedal": synth.sendController(64, withValue: 127, onChannel: 0, atFrame: e.frame)
            default: synth.sendController(64, withValue: 0, onChannel: 0, atFrame: e.frame)
            }
        }
        let (l, r) = synth.render(frameCount: frames)
        return l + r
    }

    static func level(_ x: [Float]) -> Double { Measure.db(Measure.rms(x[...])) }

    @Test(arguments: [0, 1, 20, 43, 100, 447])
    func anEarlyReleaseBeginsAfter448Frames(offFrame: Int) throws {
        // 10 ms at 44.1 kHz is 441 frames: 7 periods of 64, 448 frames.
        let held = try Self.render([(0, "on", 69), (offFrame, "off", 69)])
        let reference = try Self.render([(0, "on", 69), (448, "off", 69)], minimum: 0)
        #expect(held == reference)
        let spec = try Self.render([(0, "on", 69), (offFrame, "off", 69)], minimum: 0)
        if offFrame < 100 { #expect(Self.level(spec) < Self.level(held) - 12) }
    }

    @Test func laterReleasesAreNotMoved() throws {
        for off in [448, 449, 500, 5_000] {
            #expect(try Self.render([(0, "on", 69), (off, "off", 69)])
                    == Self.render([(0, "on", 69), (off, "off", 69)], minimum: 0))
        }
    }

    @Test func otherRatesAndLengths() throws {
        // 48 kHz: 480 frames, 512 in whole periods; 30 ms at 22.05 kHz: 661.5 → 661 → 704.
        #expect(try Self.render([(0, "on", 69), (5, "off", 69)], rate: 48_000)
                == Self.render([(0, "on", 69), (512, "off", 69)], minimum: 0, rate: 48_000))
        #expect(try Self.render([(0, "on", 69), (5, "off", 69)], minimum: 0.030, rate: 22_050)
                == Self.render([(0, "on", 69), (704, "off", 69)], minimum: 0, rate: 22_050))
    }

    /// Per voice: a key struck, released and struck again on the same frame keeps its new note;
    /// only the old voice's release is held back.
    @Test func aKeyStruckAgainKeepsItsNewNote() throws {
        let again = try Self.render([(0, "on", 69), (10, "off", 69), (10, "on", 69)], frames: 20_000)
        let single = try Self.render([(10, "on", 69)], frames: 20_000)
        // Long after the old voice's release has ended, only the new note sounds, unreleased.
        let tail = Array(again[15_000..<20_000]), alone = Array(single[15_000..<20_000])
        #expect(abs(Self.level(tail) - Self.level(alone)) < 0.01)
        #expect(Self.level(tail) > -40)
    }

    /// The note-off was decided when it came: a sustain pedal pressed before the held-back
    /// release begins does not catch the note (FluidSynth 2.6 releases it unconditionally),
    /// while one pressed before the note-off does.
    @Test func aPedalPressedAfterTheNoteOffDoesNotHoldIt() throws {
        let late = try Self.render([(0, "on", 69), (20, "off", 69), (200, "pedal", 0)], frames: 20_000)
        #expect(Self.level(Array(late[15_000..<20_000])) < -80)
        let early = try Self.render([(0, "on", 69), (10, "pedal", 0), (20, "off", 69)], frames: 20_000)
        let held = try Self.render([(0, "on", 69)], frames: 20_000)
        #expect(abs(Self.level(Array(early[15_000..<20_000])) - Self.level(Array(held[15_000..<20_000]))) < 0.01)
    }
}
