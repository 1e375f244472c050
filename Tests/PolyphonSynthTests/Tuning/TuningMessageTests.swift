import Foundation
import Testing
@testable import PolyphonSynth

/// Reading MIDI Tuning Standard messages, bad ones included: each is an error naming what is
/// wrong and where, and the synthesizer ignores it without a crash or a change of pitch.
@Suite("Tuning: messages and bad input")
struct TuningMessageTests {
    func read(_ message: [UInt8]) throws(MIDITuningError) -> MIDITuningMessage? {
        try MIDITuningMessage(Array(message.dropFirst()))
    }

    @Test func everyFormIsRead() throws {
        let change = try #require(try read(MTS.noteChange(program: 3, bank: 2, realTime: false, [(60, 6012.5), (61, 6100)])))
        #expect(change.form == .noteChange(bank: 2, program: 3) && !change.isRealTime && change.deviceID == 0x7F)
        #expect(change.cents(forKey: 60) == 6012.5 && change.cents(forKey: 61) == 6100 && change.cents(forKey: 62) == nil)
        let octave = try #require(try read(MTS.scaleOctave(channels: 0b1100_0000_0000_0001, offsets: [-64] + [Int](repeating: 63, count: 11))))
        #expect(octave.form == .scaleOctave(channels: 0b1100_0000_0000_0001) && octave.channels == [0, 14, 15])
        #expect(octave.pitchClassOffsets[0] == -64 && octave.pitchClassOffsets[11] == 63 && !octave.isTwoByteForm)
        let precise = try #require(try read(MTS.scaleOctave(channels: 1, preciseOffsets: [-100, 99.98] + [Double](repeating: 0, count: 10))))
        #expect(precise.isTwoByteForm && precise.pitchClassOffsets[0] == -100 && abs(precise.pitchClassOffsets[1] - 99.98) < 0.007)
        let dump = try #require(try read(MTS.bulkDump(program: 1) { $0 == 5 ? nil : Double($0) * 100 + 1 }))
        #expect(dump.form == .keyDump(bank: nil, program: 1) && dump.changedKeyCount == 127 && dump.checksumMatches == true)
        let octaveDump: [UInt8] = [0x7E, 0x7F, 0x08, 0x05, 0x01, 0x02] + [UInt8](repeating: 0x41, count: 16)
            + [UInt8](repeating: 0x40, count: 12)
        let withChecksum = [0xF0] + octaveDump + [octaveDump.reduce(0, ^) & 0x7F, 0xF7]
        let scaleDump = try #require(try read(withChecksum))
        #expect(scaleDump.form == .scaleOctaveDump(bank: 1, program: 2) && scaleDump.name == "AAAAAAAAAAAAAAAA")
        #expect(try read([0xF0, 0x7E, 0x7F, 0x08, 0x03, 0x01, 0x02, 0xF7])?.form == .dumpRequest(bank: 1, program: 2))
        // Not tuning messages at all.
        #expect(try read(MTS.gmSystemOn) == nil)
        #expect(try read([0xF0, 0x41, 0x10, 0x42, 0x12, 0xF7]) == nil)
    }

    @Test func truncatedAndOversizedMessagesAreErrorsNamingTheirLength() {
        var truncated = MTS.noteChange(program: 0, [(60, 6050), (61, 6150)])
        truncated.removeSubrange(truncated.count - 3..<truncated.count - 1)
        #expect(throws: MIDITuningError.wrongLength(form: 0x02, expected: 14, found: 12)) { try read(truncated) }
        var oversized = MTS.bulkDump(program: 0) { _ in 6000 }
        oversized.insert(0x00, at: 30)
        #expect(throws: MIDITuningError.wrongLength(form: 0x01, expected: 406, found: 407)) { try read(oversized) }
        #expect(throws: MIDITuningError.wrongLength(form: 0x08, expected: 19, found: 9)) {
            try read([0xF0, 0x7F, 0x7F, 0x08, 0x08, 0, 0, 1, 64, 64, 0xF7])
        }
        #expect(throws: MIDITuningError.wrongLength(form: 0x07, expected: 7, found: 5)) {
            try read([0xF0, 0x7E, 0x7F, 0x08, 0x07, 0x00, 0xF7])
        }
        #expect(throws: MIDITuningError.unknownForm(0x0A)) { try read([0xF0, 0x7E, 0x7F, 0x08, 0x0A, 0x00, 0xF7]) }
    }

    @Test func outOfRangeKeysAndFractionsAreErrorsNamingTheirByte() {
        var key = MTS.noteChange(program: 0, [(60, 6050)])
        key[7] = 0x85
        #expect(throws: MIDITuningError.dataByteOutOfRange(form: 0x02, offset: 6, value: 0x85)) { try read(key) }
        var fraction = MTS.noteChange(program: 0, [(60, 6050)])
        fraction[9] = 0xFF
        #expect(throws: MIDITuningError.dataByteOutOfRange(form: 0x02, offset: 8, value: 0xFF)) { try read(fraction) }
        #expect(String(describing: MIDITuningError.dataByteOutOfRange(form: 2, offset: 8, value: 0xFF))
                == "tuning message (form 02): byte 8 is FF, above 7F")
    }

    @Test func aChecksumMismatchIsReportedButTheDumpApplies() throws {
        var dump = MTS.bulkDump(program: 0) { _ in 6000 }
        dump[dump.count - 2] ^= 0x01
        let message = try #require(try read(dump))
        #expect(message.checksumMatches == false)
    }

    /// Bad messages in a stream: ignored, the note keeps its pitch, nothing crashes.
    @Test func theSynthesizerIgnoresBadMessages() throws {
        let synth = try Synthesizer(soundBank: TestBank.sine(), configuration: .dry)
        var bad: [[UInt8]] = []
        let good = MTS.noteChange(program: 0, [(69, 6950)])
        for cut in 1..<good.count - 1 { bad.append(Array(good.prefix(cut)) + [0xF7]) }
        bad.append(Array(good.dropLast()) + [0x00, 0x00, 0xF7])
        var high = good
        high[9] = 0x90
        bad.append(high)
        bad.append([0xF0, 0x7F, 0x7F, 0x08, 0x02, 0x00, 0x7F, 0x45, 0x45, 0x45, 0xF7])
        bad.append([0xF0, 0x7F])
        bad.append([0xF0, 0x7E, 0x7F, 0x08, 0x01] + [UInt8](repeating: 0x7F, count: 5000) + [0xF7])
        for message in bad { synth.sendMIDISysExEvent(message) }
        for m in MTS.select(program: 0, channel: 0) { synth.send(m) }
        synth.startNote(69, withVelocity: 100, onChannel: 0)
        let out = synth.renderSeconds(0.6)
        let hz = Measure.frequency(out.left[out.frame(0.1)...], rate: out.rate)
        #expect(abs(Measure.cents(hz, 440)) < 0.1, "\(hz)")
    }

    /// Random bytes after a tuning header, thousands of them: never a crash or a hang.
    @Test func randomTuningMessagesNeverCrash() throws {
        let synth = try Synthesizer(soundBank: TestBank.sine(), configuration: .dry)
        var random = SplitMix64(seed: 31)
        for round in 0..<20 {
            for _ in 0..<200 {
                let n = Int(random.next() % 420)
                let body = [random.next() % 2 == 0 ? 0x7E : 0x7F, 0x7F, 0x08, UInt8(random.next() % 12)]
                    + (0..<n).map { _ in UInt8(truncatingIfNeeded: random.next() % 3 == 0 ? random.next() : random.next() & 0x7F) }
                _ = try? MIDITuningMessage(body)
                synth.sendMIDISysExEvent(body + [0xF7])
            }
            for m in MTS.select(program: UInt8(round), channel: 0) { synth.send(m) }
            synth.startNote(UInt8(40 + round), withVelocity: 100, onChannel: 0)
            _ = synth.renderSeconds(0.02)
        }
        synth.takeSystemExclusiveReplies { reply in #expect(reply.first == 0xF0 && reply.last == 0xF7) }
    }

    @Test func badTuningValuesAreTypedErrors() {
        #expect(throws: TuningError.wrongKeyCount(12)) { try Tuning(keyCents: [Double](repeating: 0, count: 12)) }
        #expect(throws: TuningError.wrongPitchClassCount(128)) { try Tuning(pitchClassOffsets: [Double](repeating: 0, count: 128)) }
        var tuning = Tuning.equalTemperament
        #expect(throws: TuningError.keyOutOfRange(128)) { try tuning.setCents(100, forKey: 128) }
        #expect(throws: TuningError.keyOutOfRange(-1)) { try tuning.setCents(100, forKey: -1) }
        #expect(throws: (any Error).self) { try tuning.setCents(.nan, forKey: 3) }
        #expect(throws: (any Error).self) { try tuning.setCents(1e9, forKey: 3) }
        #expect(throws: (any Error).self) { try Tuning(keyCents: [Double](repeating: .infinity, count: 128)) }
    }
}
