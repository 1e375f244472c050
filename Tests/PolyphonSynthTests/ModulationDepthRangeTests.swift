import Testing
import PolyphonSoundFont
@testable import PolyphonSynth

/// RPN 5 (GM2 modulation depth range): how far the mod wheel's vibrato swings.
@Suite struct ModulationDepthRangeTests {
    /// The widest pitch swing, in cents either side of 440 Hz, of a 440 Hz sine with the mod
    /// wheel at `wheel` after RPN 5 = (`msb`, `lsb`) (none when nil), over one second.
    static func swing(wheel: UInt8, depth: (msb: UInt8, lsb: UInt8)?) throws -> Double {
        let synth = try Synthesizer(soundBank: TestBank.sine(), sampleRate: 44_100, configuration: .dry)
        if let depth {
            synth.sendController(101, withValue: 0, onChannel: 0)
            synth.sendController(100, withValue: 5, onChannel: 0)
            synth.sendController(6, withValue: depth.msb, onChannel: 0)
            synth.sendController(38, withValue: depth.lsb, onChannel: 0)
        }
        synth.sendController(1, withValue: wheel, onChannel: 0)
        synth.startNote(69, withVelocity: 100, onChannel: 0)
        let (left, _) = synth.render(frameCount: 44_100)
        // Frequency over each 10 ms window (well inside the 8.2 Hz vibrato's period).
        var widest = 0.0
        for start in stride(from: 4_410, to: 44_100 - 441, by: 220) {
            let f = Measure.frequency(left[start..<(start + 441)], rate: 44_100)
            widest = max(widest, abs(Measure.cents(f, 440)))
        }
        return widest
    }

    @Test func theWheelsVibratoFollowsTheRange() throws {
        let standard = try Self.swing(wheel: 127, depth: nil)
        let twoSemitones = try Self.swing(wheel: 127, depth: (2, 0))
        let quarter = try Self.swing(wheel: 127, depth: (0, 32))  // 25 cents
        // Windows average the swing a little, so the peaks read slightly under the depth.
        #expect(standard > 40 && standard < 52, "\(standard)")
        #expect(twoSemitones > 160 && twoSemitones < 205, "\(twoSemitones)")
        #expect(twoSemitones / standard > 3.8 && twoSemitones / standard < 4.2)
        #expect(abs(quarter / standard - 0.5) < 0.05)
        // The wheel at rest: no vibrato whatever the range.
        #expect(try Self.swing(wheel: 0, depth: (2, 0)) < 0.5)
        // Setting 50 cents explicitly changes nothing.
        #expect(try Self.swing(wheel: 127, depth: (0, 64)) == standard)
    }
}
