import Foundation
import PolyphonMIDI
@testable import PolyphonSynth

/// Short pieces that exercise the MIDI Tuning Standard, each with the pitch the standard's
/// arithmetic gives every measured stretch (in cents above 8.176 Hz). Rendered by Polyphon and
/// compared with that arithmetic (``TuningStandardTests``) and with FluidSynth where it plays
/// the messages (``TuningFluidSynthTests``).
struct TuningScenario: CustomStringConvertible {
    var name: String
    var score = TuningScore()
    /// Stretches to measure: from, to (seconds), the expected pitch in cents, and what it shows.
    var expectations: [(from: Double, to: Double, cents: Double, label: String)] = []
    /// The same piece with its tunings in messages FluidSynth reads, where it ignores the
    /// scenario's own (nil: FluidSynth plays ``score`` as it is).
    var fluidSynthScore: TuningScore?
    var description: String { name }

    init(_ name: String) { self.name = name }

    /// Plays `key` on `channel` at `start` and expects it at `cents`.
    mutating func expect(_ key: UInt8, channel: UInt8 = 0, at start: Double, cents: Double, _ label: String) {
        let i = score.note(key, channel: channel, at: start)
        let n = score.notes[i]
        expectations.append((n.start + 0.1, n.end - 0.05, cents, label))
    }

    /// Scale/octave tuning (one-byte form) for channels 1 and 3 only: A +50, C −30 cents there,
    /// equal temperament on channel 2 — the A at 452.9 Hz.
    static var scaleOctaveOneByte: TuningScenario {
        var s = TuningScenario("scale/octave 1-byte, channels 1 and 3")
        var offsets = [Int](repeating: 0, count: 12)
        offsets[9] = 50
        offsets[0] = -30
        s.score.sysEx(MTS.scaleOctave(channels: 0b101, offsets: offsets), at: 0)
        s.expect(69, channel: 0, at: 0.05, cents: 6950, "A4 +50 on channel 1")
        s.expect(60, channel: 0, at: 0.75, cents: 5970, "C4 −30 on channel 1")
        s.expect(69, channel: 1, at: 1.45, cents: 6900, "A4 on channel 2, outside the bitmap")
        s.expect(81, channel: 2, at: 2.15, cents: 8150, "A5 +50 on channel 3")
        s.expect(64, channel: 2, at: 2.85, cents: 6400, "E4 untouched on channel 3")
        return s
    }

    /// Scale/octave tuning, two-byte form, for channel 2 only: fractions of a cent.
    static var scaleOctaveTwoByte: TuningScenario {
        var s = TuningScenario("scale/octave 2-byte, channel 2")
        var offsets = [Double](repeating: 0, count: 12)
        offsets[9] = -13.5
        offsets[4] = 41.25
        s.score.sysEx(MTS.scaleOctave(channels: 0b10, preciseOffsets: offsets), at: 0)
        s.expect(69, channel: 1, at: 0.05, cents: 6886.5, "A4 −13.5 on channel 2")
        s.expect(52, channel: 1, at: 0.75, cents: 5241.25, "E3 +41.25 on channel 2")
        s.expect(69, channel: 0, at: 1.45, cents: 6900, "A4 on channel 1, outside the bitmap")
        return s
    }

    /// Single-note tuning changes to programs selected with RPN 3 (and RPN 4 for a bank): a key
    /// retuned to another key's pitch, a key retuned by a fraction of a semitone.
    static var singleNoteWithRPN3: TuningScenario {
        var s = TuningScenario("single-note tuning, program selected with RPN 3")
        s.score.sysEx(MTS.noteChange(program: 5, [(69, 7100), (60, 6037.5)]), at: 0)
        s.score.send(MTS.select(program: 5, channel: 0), at: 0)
        s.score.sysEx(MTS.noteChange(program: 2, bank: 1, realTime: false, [(62, 6233.33)]), at: 0)
        s.score.send(MTS.select(program: 2, bank: 1, channel: 2), at: 0)
        s.expect(69, channel: 0, at: 0.05, cents: 7100, "A4 retuned to B4's pitch")
        s.expect(60, channel: 0, at: 0.75, cents: 6037.5, "C4 up by 37.5 cents")
        s.expect(64, channel: 0, at: 1.45, cents: 6400, "E4 left alone")
        s.expect(69, channel: 1, at: 2.15, cents: 6900, "A4 on a channel that selected nothing")
        s.expect(62, channel: 2, at: 2.85, cents: 6233.33, "D4 of bank 1 program 2, +33.33 cents")
        return s
    }

    /// A reset (GM system on) after a tuning: back to equal temperament.
    static var resetToEqualTemperament: TuningScenario {
        var s = TuningScenario("GM reset restores equal temperament")
        s.score.sysEx(MTS.noteChange(program: 0, [(69, 6950)]), at: 0)
        s.score.send(MTS.select(program: 0, channel: 0), at: 0)
        s.expect(69, at: 0.05, cents: 6950, "A4 +50 before the reset")
        s.score.sysEx(MTS.gmSystemOn, at: 0.8)
        s.expect(69, at: 1.0, cents: 6900, "A4 in equal temperament after it")
        return s
    }

    /// A real-time change retunes a sounding note; a non-real-time one waits for the next note.
    static var realTimeAndNonRealTime: TuningScenario {
        var s = TuningScenario("real-time retunes sounding notes, non-real-time only new ones")
        s.score.send(MTS.select(program: 4, channel: 0), at: 0)
        s.score.note(69, at: 0.05, length: 1.4)
        s.expectations.append((0.15, 0.75, 6900, "held A4 before the change"))
        s.score.sysEx(MTS.noteChange(program: 4, [(69, 6925)]), at: 0.8)
        s.expectations.append((0.9, 1.4, 6925, "held A4 after a real-time change"))
        s.score.note(69, at: 1.55, length: 1.2)
        s.score.sysEx(MTS.noteChange(program: 4, bank: 0, realTime: false, [(69, 6960)]), at: 1.9)
        s.expectations.append((2.0, 2.7, 6925, "held A4 after a non-real-time change"))
        s.expect(69, at: 2.85, cents: 6960, "the next A4")
        return s
    }

    /// A bulk dump (no bank: program 3 of bank 0) then RPN 3: a 19-tone equal temperament
    /// around A4. FluidSynth does not read bulk dumps; it gets the same tunings as single-note
    /// tuning changes.
    static var bulkDumpThenSelect: TuningScenario {
        var s = TuningScenario("bulk dump, then select")
        let step = 1200.0 / 19
        let nineteenTone = { (key: Int) in 6900 + Double(key - 69) * step }
        s.score.sysEx(MTS.bulkDump(program: 3, name: "19-TET", nineteenTone), at: 0)
        s.score.sysEx(MTS.bulkDump(program: 7, bank: 2) { $0 == 60 ? 6100 : nil }, at: 0)
        var noteChanges = TuningScore()
        for keys in [0..<64, 64..<128] {
            noteChanges.sysEx(MTS.noteChange(program: 3, keys.map { (UInt8($0), nineteenTone($0)) }), at: 0)
        }
        noteChanges.sysEx(MTS.noteChange(program: 7, bank: 2, [(60, 6100)]), at: 0)
        s.score.send(MTS.select(program: 3, channel: 0), at: 0)
        s.score.send(MTS.select(program: 7, bank: 2, channel: 1), at: 0)
        s.expect(69, at: 0.05, cents: 6900, "A4 stays")
        s.expect(70, at: 0.75, cents: 6900 + step, "one 19-TET step up")
        s.expect(60, at: 1.45, cents: 6900 - 9 * step, "nine steps down")
        s.expect(60, channel: 1, at: 2.15, cents: 6100, "bank 2 program 7: C4 at C♯4's pitch")
        s.expect(62, channel: 1, at: 2.85, cents: 6200, "bank 2 program 7: D4 marked no change")
        s.fluidSynthScore = s.score.replacingSystemExclusive(with: noteChanges)
        return s
    }

    /// Two scale/octave messages for different channels: each channel keeps its own (the
    /// standard's reading; FluidSynth keeps one shared table and retunes both to the last).
    static var scaleOctavePerChannel: TuningScenario {
        var s = TuningScenario("scale/octave tunings stay with their channels")
        var first = [Int](repeating: 0, count: 12), second = first
        first[9] = 20
        second[9] = -20
        s.score.sysEx(MTS.scaleOctave(channels: 0b01, offsets: first), at: 0)
        s.score.sysEx(MTS.scaleOctave(channels: 0b10, offsets: second), at: 0)
        s.expect(69, channel: 0, at: 0.05, cents: 6920, "channel 1's own tuning")
        s.expect(69, channel: 1, at: 0.75, cents: 6880, "channel 2's own tuning")
        return s
    }

    /// The scenarios FluidSynth plays (the bulk dumps as single-note changes; it shares one
    /// table among scale/octave tunings).
    static var fluidSynthPlays: [TuningScenario] {
        [scaleOctaveOneByte, scaleOctaveTwoByte, singleNoteWithRPN3, resetToEqualTemperament, realTimeAndNonRealTime,
         bulkDumpThenSelect]
    }

    static var all: [TuningScenario] { fluidSynthPlays + [scaleOctavePerChannel] }
}
