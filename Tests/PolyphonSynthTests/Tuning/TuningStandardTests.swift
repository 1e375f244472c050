import Foundation
import PolyphonMIDI
import PolyphonSoundFont
import Testing
@testable import PolyphonSynth

/// MIDI Tuning Standard messages, RPN 3/4 and the tuning API, measured in hertz on renders and
/// held to the standard's arithmetic.
@Suite("Tuning: the standard's arithmetic")
struct TuningStandardTests {
    @Test(arguments: TuningScenario.all)
    func scenarioPlaysTheStandardsPitches(_ scenario: TuningScenario) throws {
        let render = try scenario.score.renderPolyphon(TestBank.sine())
        for e in scenario.expectations {
            let hz = scenario.score.frequency(from: e.from, to: e.to, in: render)
            let off = Measure.cents(hz, Measure.hertz(cents: e.cents))
            #expect(abs(off) < 0.1, "\(scenario.name): \(e.label): \(hz) Hz, \(off) cents from \(Measure.hertz(cents: e.cents)) Hz")
        }
    }

    /// Every form in its other universal area, and messages for other devices.
    @Test func deviceIDsAndBothUniversalAreas() throws {
        var score = TuningScore()
        var other = MTS.noteChange(program: 0, [(69, 6950)])
        other[2] = 0x05  // another device: ignored
        score.sysEx(other, at: 0)
        var own = MTS.noteChange(program: 1, [(69, 6930)])
        own[2] = 0x00  // this synthesizer's own ID (the default, as FluidSynth's)
        score.sysEx(own, at: 0)
        score.send(MTS.select(program: 0, channel: 0), at: 0)
        score.send(MTS.select(program: 1, channel: 1), at: 0)
        let a = score.note(69, channel: 0, at: 0.05), b = score.note(69, channel: 1, at: 0.75)
        let render = try score.renderPolyphon(TestBank.sine())
        #expect(abs(Measure.cents(score.frequency(ofNote: a, in: render), 440)) < 0.1)
        #expect(abs(Measure.cents(score.frequency(ofNote: b, in: render), Measure.hertz(cents: 6930))) < 0.1)
    }

    /// The resets of GM (on, off), GM2, GS and XG: after each, a channel that selected a tuning
    /// program and one a scale/octave message named both play in equal temperament again, and
    /// the program stays defined (selecting it again brings it back).
    @Test(arguments: [
        ("GM system on", [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7]),
        ("GM system off", [0xF0, 0x7E, 0x7F, 0x09, 0x02, 0xF7]),
        ("GM2 system on", [0xF0, 0x7E, 0x7F, 0x09, 0x03, 0xF7]),
        ("GS reset", [0xF0, 0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7]),
        ("XG system on", [0xF0, 0x43, 0x10, 0x4C, 0x00, 0x00, 0x7E, 0x00, 0xF7]),
    ] as [(String, [UInt8])])
    func everyResetRestoresEqualTemperament(_ name: String, _ reset: [UInt8]) throws {
        var score = TuningScore()
        var offsets = [Int](repeating: 0, count: 12)
        offsets[9] = 40
        score.sysEx(MTS.noteChange(program: 6, [(69, 6925)]), at: 0)
        score.send(MTS.select(program: 6, channel: 0), at: 0)
        score.sysEx(MTS.scaleOctave(channels: 0b10, offsets: offsets), at: 0)
        let before = [score.note(69, channel: 0, at: 0.05), score.note(69, channel: 1, at: 0.75)]
        score.sysEx(reset, at: 1.4)
        let after = [score.note(69, channel: 0, at: 1.5), score.note(69, channel: 1, at: 2.2)]
        score.send(MTS.select(program: 6, channel: 0), at: 2.85)
        let again = score.note(69, channel: 0, at: 2.9)
        let render = try score.renderPolyphon(TestBank.sine())
        func cents(_ note: Int) -> Double { Measure.cents(score.frequency(ofNote: note, in: render), 440) }
        #expect(abs(cents(before[0]) - 25) < 0.1, "\(name): program 6 before the reset")
        #expect(abs(cents(before[1]) - 40) < 0.1, "\(name): scale/octave before the reset")
        #expect(abs(cents(after[0])) < 0.1, "\(name): channel 1 after the reset: \(cents(after[0])) cents")
        #expect(abs(cents(after[1])) < 0.1, "\(name): channel 2 after the reset: \(cents(after[1])) cents")
        #expect(abs(cents(again) - 25) < 0.1, "\(name): program 6 selected again")
    }

    /// scaleTuning 50 (quarter tones per key) under a tuning: the tuned distance to the root
    /// is halved, the root keeps its tuned pitch (FluidSynth 2.6's rule).
    @Test func scaleTuningScalesTheTunedDistanceToTheRoot() throws {
        let bank = TestBank.sine(generators: [Generator(.scaleTuning, 50)])
        var score = TuningScore()
        score.sysEx(MTS.noteChange(program: 0, [(69, 6910), (81, 8140)]), at: 0)
        score.send(MTS.select(program: 0, channel: 0), at: 0)
        let root = score.note(69, at: 0.05), octave = score.note(81, at: 0.75)
        let render = try score.renderPolyphon(bank)
        #expect(abs(Measure.cents(score.frequency(ofNote: root, in: render), Measure.hertz(cents: 6910))) < 0.1)
        // 6910 + 0.5 × (8140 − 6910) = 7525.
        #expect(abs(Measure.cents(score.frequency(ofNote: octave, in: render), Measure.hertz(cents: 7525))) < 0.1)
    }

    @Test func portamentoGlidesBetweenTunedPitches() throws {
        var score = TuningScore()
        score.sysEx(MTS.noteChange(program: 0, [(60, 6050), (62, 6150)]), at: 0)
        score.send(MTS.select(program: 0, channel: 0), at: 0)
        score.send([.controlChange(channel: 0, controller: 65, value: 127), .controlChange(channel: 0, controller: 5, value: 0),
                    .controlChange(channel: 0, controller: 37, value: 100)], at: 0)
        score.note(60, at: 0.05, length: 0.5)
        let glide = score.note(62, at: 0.6, length: 0.8)
        let render = try score.renderPolyphon(TestBank.sine())
        // 100 ms glide: settled on the tuned pitch afterwards.
        #expect(abs(Measure.cents(score.frequency(ofNote: glide, in: render), Measure.hertz(cents: 6150))) < 0.1)
    }

    // MARK: - The API

    @Test func setTuningAndSelectTuningOnAChannel() throws {
        let synth = try Synthesizer(soundBank: TestBank.sine(), configuration: .dry)
        var tuning = Tuning.equalTemperament
        try tuning.setCents(6913.7, forKey: 69)
        tuning.name = "A up"
        try synth.setTuning(tuning, program: 9, bank: 3)
        #expect(synth.tuning(program: 9, bank: 3)?.name == "A up")
        #expect(abs((synth.tuning(program: 9, bank: 3)?.cents(ofKey: 69) ?? 0) - 6913.7) < 0.001)
        synth.selectTuning(program: 9, bank: 3, onChannel: 0)
        synth.startNote(69, withVelocity: 100, onChannel: 0)
        let out = synth.renderSeconds(0.6)
        let hz = Measure.frequency(out.left[out.frame(0.1)..<out.frame(0.6)], rate: out.rate)
        #expect(abs(Measure.cents(hz, Measure.hertz(cents: 6913.7))) < 0.1, "\(hz)")
        #expect(abs(synth.tuning(onChannel: 0).cents(ofKey: 69) - 6913.7) < 0.001)
        #expect(synth.tuning(onChannel: 1).isEqualTemperament)
    }

    @Test func setTuningRetunesSoundingNotesOnlyWhenAsked() throws {
        let synth = try Synthesizer(soundBank: TestBank.sine(), configuration: .dry)
        try synth.setTuning(.equalTemperament, program: 0)
        synth.selectTuning(program: 0, onChannel: 0)
        synth.startNote(69, withVelocity: 100, onChannel: 0)
        _ = synth.renderSeconds(0.2)
        try synth.setTuning(Tuning(pitchClassOffsets: [0, 0, 0, 0, 0, 0, 0, 0, 0, 30, 0, 0]), program: 0)
        var out = synth.renderSeconds(0.4)
        #expect(abs(Measure.cents(Measure.frequency(out.left[...], rate: out.rate), 440)) < 0.1)
        try synth.setTuning(Tuning(pitchClassOffsets: [0, 0, 0, 0, 0, 0, 0, 0, 0, 30, 0, 0]), program: 0,
                            retuningSoundingNotes: true)
        out = synth.renderSeconds(0.4)
        #expect(abs(Measure.cents(Measure.frequency(out.left[out.frame(0.01)...], rate: out.rate),
                                  Measure.hertz(cents: 6930))) < 0.1)
    }

    /// The configured tuning plays on melodic channels, survives a GM reset, and leaves
    /// percussion alone; selecting equal temperament overrides it.
    @Test func configuredTuningPlaysOnMelodicChannels() throws {
        let tuning = try Tuning(pitchClassOffsets: [0, 0, 0, 0, 0, 0, 0, 0, 0, -15.5, 0, 0])
        func pitch(channel: UInt8, reset: Bool = false, equal: Bool = false) throws -> Double {
            var configuration = SynthesizerConfiguration.dry
            configuration.tuning = tuning
            let synth = try Synthesizer(soundBank: TestBank.sine(bank: 128), configuration: configuration)
            let melodic = try Synthesizer(soundBank: TestBank.sine(), configuration: configuration)
            let s = channel == 9 ? synth : melodic
            if reset { s.sendMIDISysExEvent(MTS.gmSystemOn) }
            if equal { s.selectEqualTemperament(onChannel: channel) }
            s.startNote(69, withVelocity: 100, onChannel: channel)
            let out = s.renderSeconds(0.6)
            return Measure.cents(Measure.frequency(out.left[out.frame(0.1)...], rate: out.rate), 440)
        }
        #expect(abs(try pitch(channel: 0) + 15.5) < 0.1)
        #expect(abs(try pitch(channel: 0, reset: true) + 15.5) < 0.1)
        #expect(abs(try pitch(channel: 0, equal: true)) < 0.1)
        #expect(abs(try pitch(channel: 9)) < 0.1)
    }

    @Test func tuningProgramsAreBounded() throws {
        var configuration = SynthesizerConfiguration.dry
        configuration.tuningProgramCapacity = 2
        let synth = try Synthesizer(soundBank: TestBank.sine(), configuration: configuration)
        try synth.setTuning(.equalTemperament, program: 0)
        try synth.setTuning(.equalTemperament, program: 1)
        #expect(throws: SynthesizerError.tuningProgramsExhausted(capacity: 2)) {
            try synth.setTuning(.equalTemperament, program: 2)
        }
        // Messages beyond the capacity are dropped, never allocate, never crash.
        for program in 0..<128 { synth.sendMIDISysExEvent(MTS.noteChange(program: UInt8(program), [(69, 6950)])) }
        _ = synth.renderSeconds(0.05)
        #expect(synth.tuning(program: 100) == nil)
    }

    // MARK: - Dump requests

    @Test func aDumpRequestIsAnsweredWithABulkDump() throws {
        let synth = try Synthesizer(soundBank: TestBank.sine(), configuration: .dry)
        let cents: [Double] = (0..<128).map { (key: Int) -> Double in 100 * Double(key) + Double(key % 7) * 3.3 }
        let tuning = try Tuning(keyCents: cents, name: "sevens")
        try synth.setTuning(tuning, program: 3)
        try synth.setTuning(tuning, program: 4, bank: 2)
        synth.sendMIDISysExEvent([0xF0, 0x7E, 0x7F, 0x08, 0x00, 0x03, 0xF7])
        synth.sendMIDISysExEvent([0xF0, 0x7E, 0x00, 0x08, 0x03, 0x02, 0x04, 0xF7])
        synth.sendMIDISysExEvent([0xF0, 0x7E, 0x7F, 0x08, 0x00, 0x05, 0xF7])  // not defined: no answer
        _ = synth.renderSeconds(0.01)
        var replies: [[UInt8]] = []
        synth.takeSystemExclusiveReplies { replies.append(Array($0)) }
        #expect(replies.map(\.count) == [408, 409])
        let forms: [MIDITuningMessage.Form] = [.keyDump(bank: nil, program: 3), .keyDump(bank: 2, program: 4)]
        for (reply, expected) in zip(replies, forms) {
            let message = try #require(try MIDITuningMessage(Array(reply.dropFirst())))
            #expect(message.form == expected)
            #expect(message.checksumMatches == true)
            #expect(message.name == "sevens")
            for key in 0..<128 { #expect(abs((message.cents(forKey: key) ?? -1) - tuning.keyCents[key]) < 0.01) }
        }
        synth.takeSystemExclusiveReplies { _ in Issue.record("replies are taken once") }
    }

    @Test func theDumpWriterRoundTrips() throws {
        let cents: [Double] = (0..<128).map { (key: Int) -> Double in 100 * Double(key) + 49.99 - Double(key % 5) * 20 }
        let tuning = try Tuning(keyCents: cents, name: "round trip")
        let dump = MIDITuningDump.keyDump(tuning, program: 12, bank: 1)
        let message = try #require(try MIDITuningMessage(Array(dump.dropFirst())))
        #expect(message.form == .keyDump(bank: 1, program: 12))
        #expect(message.checksumMatches == true)
        for key in 0..<128 { #expect(abs((message.cents(forKey: key) ?? -1) - tuning.keyCents[key]) < 0.007) }
        let change = MIDITuningDump.noteChange(tuning, keys: [60, 69], program: 1)
        let read = try #require(try MIDITuningMessage(Array(change.dropFirst())))
        #expect(read.form == MIDITuningMessage.Form.noteChange(bank: nil, program: 1))
        #expect(read.isRealTime && read.changedKeyCount == 2)
    }
}
