import Foundation
import PolyphonMIDI
import Testing
@testable import PolyphonSynth

/// The tuning scenarios FluidSynth plays, rendered by both (Polyphon with
/// ``SynthesizerConfiguration/fluidSynthCompatible``, whose whole-cent pitch is FluidSynth's),
/// each measured stretch within a cent of FluidSynth's — and of the standard's arithmetic, less
/// FluidSynth's rounding down to a whole cent.
@Suite("Tuning: against FluidSynth", .serialized, .enabled(if: RealFiles.toolAvailable("fluidsynth")))
struct TuningFluidSynthTests {
    @Test(arguments: TuningScenario.fluidSynthPlays)
    func scenarioMatchesFluidSynth(_ scenario: TuningScenario) throws {
        let bank = TestBank.sine()
        let ours = try scenario.score.renderPolyphon(bank, fluidSynthCompatible: true)
        let theirs = try scenario.score.renderFluidSynth(bank)
        var report: [String] = []
        for e in scenario.expectations {
            let a = scenario.score.frequency(from: e.from, to: e.to, in: ours)
            let b = scenario.score.frequency(from: e.from, to: e.to, in: theirs)
            let apart = Measure.cents(a, b)
            report.append(String(format: "%@: Polyphon %.3f Hz, FluidSynth %.3f Hz (%.3f cents apart; standard %.3f Hz)",
                                 e.label, a, b, apart, Measure.hertz(cents: e.cents)))
            #expect(abs(apart) < 1, "\(scenario.name): \(report.last!)")
            // FluidSynth plays whole cents rounded down: 0…1 cent below the standard's pitch.
            let belowStandard = Measure.cents(Measure.hertz(cents: e.cents), b)
            #expect(belowStandard > -0.1 && belowStandard < 1.1, "\(scenario.name): \(report.last!)")
        }
        print(scenario.name + "\n  " + report.joined(separator: "\n  "))
    }

    /// The same Scala tunings as ``ScalaTuningTests``, sent to FluidSynth as single-note tuning
    /// changes for all 128 keys of program 0 selected with RPN 3, against Polyphon playing
    /// the scale as its configured tuning.
    @Test(arguments: [ScalaTuningTests.thirtyOneTone, ScalaTuningTests.justIntonation])
    func scalaTuningMatchesFluidSynthPlayingItAsMessages(_ tuning: Tuning) throws {
        var score = TuningScore()
        score.sysEx(MTS.noteChange(program: 0, (0..<64).map { (UInt8($0), tuning.keyCents[$0]) }), at: 0)
        score.sysEx(MTS.noteChange(program: 0, (64..<128).map { (UInt8($0), tuning.keyCents[$0]) }), at: 0)
        score.send(MTS.select(program: 0, channel: 0), at: 0)
        let keys: [UInt8] = [48, 60, 61, 64, 67, 69, 72, 79]
        for (i, key) in keys.enumerated() { score.note(key, at: 0.05 + 0.7 * Double(i)) }
        let bank = TestBank.sine()
        let theirs = try score.renderFluidSynth(bank)
        // Polyphon: no messages, the tuning configured (as `--tuning FILE.scl` does).
        var plain = TuningScore()
        for (i, key) in keys.enumerated() { plain.note(key, at: 0.05 + 0.7 * Double(i)) }
        let ours = try plain.renderPolyphon(bank, fluidSynthCompatible: true) { $0.tuning = tuning }
        let exact = try plain.renderPolyphon(bank) { $0.tuning = tuning }
        for (i, key) in keys.enumerated() {
            let a = plain.frequency(ofNote: i, in: ours), b = score.frequency(ofNote: i, in: theirs)
            let standard = tuning.frequency(ofKey: Int(key))
            #expect(abs(Measure.cents(a, b)) < 1, "\(tuning.name) key \(key): Polyphon \(a) Hz, FluidSynth \(b) Hz")
            #expect(abs(Measure.cents(plain.frequency(ofNote: i, in: exact), standard)) < 0.1,
                    "\(tuning.name) key \(key): exact pitch \(plain.frequency(ofNote: i, in: exact)) Hz, scale \(standard) Hz")
        }
    }
}
