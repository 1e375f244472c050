import Foundation
import PolyphonMIDI
import PolyphonSoundFont
import Testing
@testable import PolyphonSynth

/// The tuning scenarios FluidSynth plays (bulk dumps sent to it as single-note changes, which
/// it reads), rendered by both (Polyphon with
/// ``SynthesizerConfiguration/fluidSynthCompatible``, whose whole-cent pitch is FluidSynth's),
/// each measured stretch within a cent of FluidSynth's — and of the standard's arithmetic, less
/// FluidSynth's rounding down to a whole cent.
@Suite("Tuning: against FluidSynth", .serialized, .enabled(if: RealFiles.toolAvailable("fluidsynth")))
struct TuningFluidSynthTests {
    @Test(arguments: TuningScenario.fluidSynthPlays)
    func scenarioMatchesFluidSynth(_ scenario: TuningScenario) throws {
        let bank = TestBank.sine()
        let ours = try scenario.score.renderPolyphon(bank, fluidSynthCompatible: true)
        let theirs = try (scenario.fluidSynthScore ?? scenario.score).renderFluidSynth(bank)
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

    /// Under a tuning a melodic note plays the regions of the key nearest the pitch it sounds
    /// (``Channel/regionKey(forKey:)``), as FluidSynth does; the percussion channel, and a
    /// channel in equal temperament, choose by the key itself.
    @Test func tunedNotesPlayTheRegionsOfTheKeyNearestTheirPitch() throws {
        var score = TuningScore()
        var offsets = [Int](repeating: 0, count: 12)
        offsets[9] = 50
        offsets[10] = -49
        score.sysEx(MTS.scaleOctave(channels: 0b1, offsets: offsets), at: 0)
        score.sysEx(MTS.noteChange(program: 1, [(69, 6950)]), at: 0)
        score.send(MTS.select(program: 1, channel: 9), at: 0)
        let expectations: [(key: UInt8, channel: UInt8, cents: Double, label: String)] = [
            (69, 0, 6970, "A4 +50 sounds nearest B♭4: the upper region's, +20"),
            (70, 0, 6971, "B♭4 −49 sounds nearest B♭4: the upper region's"),
            (68, 0, 6800, "G♯4 untuned: the lower region's"),
            (69, 1, 6900, "A4 in equal temperament: the lower region's"),
            (69, 9, 6950, "A4 +50 on the percussion channel: the key's own region"),
        ]
        for (i, e) in expectations.enumerated() { score.note(e.key, channel: e.channel, at: 0.05 + 0.7 * Double(i)) }
        let bank = TestBank.sineSplitAtKey70()
        let ours = try score.renderPolyphon(bank), compatible = try score.renderPolyphon(bank, fluidSynthCompatible: true)
        let theirs = try score.renderFluidSynth(bank)
        for (i, e) in expectations.enumerated() {
            let a = score.frequency(ofNote: i, in: ours), b = score.frequency(ofNote: i, in: theirs)
            let c = score.frequency(ofNote: i, in: compatible)
            #expect(abs(Measure.cents(a, Measure.hertz(cents: e.cents))) < 0.1, "\(e.label): Polyphon \(a) Hz")
            #expect(abs(Measure.cents(c, b)) < 1, "\(e.label): Polyphon \(c) Hz, FluidSynth \(b) Hz")
        }
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

/// The case as a new user meets it: a General MIDI file whose scale/octave tuning
/// message raises A by 50 cents on channel 1, played with FluidR3_GM by Polyphon and by
/// FluidSynth. Before MIDI Tuning Standard support Polyphon played that A at 440 Hz's pitch in
/// the bank, FluidSynth 50 cents higher.
@Suite("Tuning: a GM file with a scale/octave tuning, against FluidSynth and FluidR3_GM", .serialized,
       .enabled(if: RealFiles.toolAvailable("fluidsynth") && RealFiles.available(RealFiles.fluidR3)))
struct TuningFluidR3Tests {
    /// Piano, church organ and flute: A4 on channel 1 (in the message's bitmap) and on channel
    /// 2 (not), and B♭4 on channel 2. The tuned A4 sounds nearest key 70, so it plays key 70's
    /// samples (``Channel/regionKey(forKey:)``, FluidSynth's choice): it rises by 50 cents plus
    /// however much further in tune key 70's sample is than key 69's. FluidR3's piano and flute
    /// play both keys from one sample (+50 cents); its organ has a sample per three keys, and
    /// the C4 sample that keys 70–72 play is 2.8 cents flatter than the A3 sample of keys 67–69:
    /// +47.2 cents, in FluidSynth 2.3.1 and 2.6 alike.
    @Test(arguments: [0, 19, 73] as [UInt8])
    func scaleOctaveTuningRaisesAOnItsChannelsAsFluidSynthDoes(program: UInt8) throws {
        var score = TuningScore()
        for channel: UInt8 in 0...1 { score.send(.programChange(channel: channel, program: program), at: 0) }
        var offsets = [Int](repeating: 0, count: 12)
        offsets[9] = 50
        score.sysEx(MTS.scaleOctave(channels: 0b1, offsets: offsets), at: 0)
        score.note(69, channel: 0, at: 0.05, length: 0.8)
        score.note(69, channel: 1, at: 1.05, length: 0.8)
        score.note(70, channel: 1, at: 2.05, length: 0.8)
        let bank = try SoundFont(contentsOf: RealFiles.fluidR3)
        let renders = [("FluidSynth", try score.renderFluidSynth(bankFile: RealFiles.fluidR3)),
                       ("Polyphon, FluidSynth-compatible", try score.renderPolyphon(bank, fluidSynthCompatible: true)),
                       ("Polyphon, exact pitch", try score.renderPolyphon(bank))]
        var pitches: [(tuned: Double, equal: Double)] = []
        for (name, render) in renders {
            func pitch(_ note: Int, near hz: Double) -> Double {
                let n = score.notes[note]
                let a = Int((n.start + 0.15) * TuningScore.rate), b = Int((n.end - 0.05) * TuningScore.rate)
                return Measure.fundamental(render[a..<b], rate: TuningScore.rate, near: hz)
            }
            let tuned = pitch(0, near: 452.9), equal = pitch(1, near: 440), bFlat = pitch(2, near: 466.16)
            pitches.append((tuned, equal))
            let raised = Measure.cents(tuned, equal)
            // How far key 70's sample plays from key 69's, both in equal temperament.
            let samplesApart = Measure.cents(bFlat, equal) - 100
            print(String(format: "program %d, %@: A4 on channel 1 %.2f Hz, on channel 2 %.2f Hz: %+.2f cents; B♭4's sample %+.2f cents from A4's",
                         Int(program), name, tuned, equal, raised, samplesApart))
            // The standard's +50 cents (FluidSynth: whole cents, so 50 exactly here too), on
            // key 70's sample.
            #expect(abs(raised - 50 - samplesApart) < 0.5, "program \(program), \(name): A raised by \(raised) cents, samples \(samplesApart) apart")
        }
        let fluid = pitches[0], compatible = pitches[1]
        #expect(abs(Measure.cents(compatible.tuned, fluid.tuned)) < 1, "program \(program): tuned A \(compatible.tuned) Hz, FluidSynth \(fluid.tuned) Hz")
        #expect(abs(Measure.cents(compatible.equal, fluid.equal)) < 1, "program \(program): A \(compatible.equal) Hz, FluidSynth \(fluid.equal) Hz")
    }
}
