import Testing
import PolyphonSoundFont
@testable import PolyphonSynth

/// A key struck again while the sustain pedal holds it: the old voice keeps sounding until the
/// pedal lifts (FluidSynth since 2.2.2), instead of being released by the new note.
@Suite struct RestrikeUnderPedalTests {
    /// A decaying "piano" sine: decays to −6 dB, 0.3 s release.
    static let bank = TestBank.sine(generators: [Generator(.decayVolEnv, 2400), Generator(.sustainVolEnv, 60),
                                                 Generator(.releaseVolEnv, -2100)])

    static func render(_ actions: [(frame: Int, action: String, velocity: UInt8)], frames: Int = 44_100 * 3) throws -> [Float] {
        let synth = try Synthesizer(soundBank: bank, sampleRate: 44_100, configuration: .dry)
        for a in actions {
            switch a.action {
            case "on": synth.startNote(60, withVelocity: a.velocity, onChannel: 0, atFrame: a.frame)
            case "off": synth.stopNote(60, onChannel: 0, atFrame: a.frame)
            case "pedal": synth.sendController(64, withValue: 127, onChannel: 0, atFrame: a.frame)
            default: synth.sendController(64, withValue: 0, onChannel: 0, atFrame: a.frame)
            }
        }
        return synth.render(frameCount: frames).left
    }

    static func level(_ x: [Float], _ from: Double, _ to: Double) -> Double {
        Measure.db(Measure.rms(x[Int(from * 44_100)..<Int(to * 44_100)]))
    }

    @Test func theOldVoiceRingsOnUntilThePedalLifts() throws {
        // Pedal down, key 60 at velocity 110 (released at once, held by the pedal), struck again
        // at velocity 1 after 1 s.
        let restruck = try Self.render([(0, "pedal", 0), (0, "on", 110), (100, "off", 0), (44_100, "on", 1), (44_200, "off", 0)])
        let alone = try Self.render([(0, "pedal", 0), (0, "on", 110), (100, "off", 0)])
        // 0.6–1 s after the re-strike the loud first note still dominates, as if never re-struck.
        let difference = Self.level(restruck, 1.6, 2.0) - Self.level(alone, 1.6, 2.0)
        #expect(abs(difference) < 0.5, "\(difference) dB")
        #expect(Self.level(alone, 1.6, 2.0) > -45)

        // Lifting the pedal releases both.
        let lifted = try Self.render([(0, "pedal", 0), (0, "on", 110), (100, "off", 0), (44_100, "on", 1),
                                      (44_200, "off", 0), (66_150, "lift", 0)])
        #expect(Self.level(lifted, 2.5, 3.0) < -80)
    }

    @Test func withoutThePedalTheOldVoiceReleases() throws {
        let restruck = try Self.render([(0, "on", 110), (44_100, "on", 1)])
        let quiet = try Self.render([(44_100, "on", 1)])
        // The loud note released at 1 s (0.3 s release): 0.6 s later only the quiet one sounds.
        #expect(abs(Self.level(restruck, 1.6, 2.0) - Self.level(quiet, 1.6, 2.0)) < 0.5)
    }
}
