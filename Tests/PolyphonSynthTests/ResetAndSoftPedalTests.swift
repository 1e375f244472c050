import Foundation
import Testing
import PolyphonSoundFont
@testable import PolyphonSynth

/// The soft pedal, GS Reset, GM System On and XG System On, measured in dB and Hz.
@Suite struct ResetAndSoftPedalTests {
    /// Three sines telling the presets apart by pitch at key 69: bank 0 program 0 at 440 Hz,
    /// bank 0 program 40 at 220 Hz, the drum kit (bank 128 program 0) at 880 Hz.
    static let bank: SoundFont = SoundFont.merging([
        TestBank.sine(generators: [Generator(.releaseVolEnv, -1200)]),
        TestBank.sine(generators: [Generator(.releaseVolEnv, -1200)], rootKey: 81, program: 40),
        TestBank.sine(generators: [Generator(.releaseVolEnv, -1200)], rootKey: 57, bank: 128),
    ])!

    /// Plays key 69 on `channel` after `setup`, returning its pitch (Hz) and level (dB RMS)
    /// over 0.1–0.4 s.
    static func play(channel: UInt8 = 0, _ setup: (Synthesizer) -> Void = { _ in }) throws -> (hz: Double, db: Double) {
        let synth = try Synthesizer(soundBank: bank, sampleRate: 44_100)
        setup(synth)
        _ = synth.render(frameCount: 64)
        synth.startNote(69, withVelocity: 100, onChannel: channel)
        let (left, _) = synth.render(frameCount: 22_050)
        let window = left[4_410..<17_640]
        return (Measure.frequency(window, rate: 44_100), Measure.db(Measure.rms(window)))
    }

    static let gsReset: [UInt8] = [0xF0, 0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7]
    static let gmOn: [UInt8] = [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7]
    static let xgOn: [UInt8] = [0xF0, 0x43, 0x10, 0x4C, 0x00, 0x00, 0x7E, 0x00, 0xF7]

    @Test func theSoftPedalPlaysNotesStruckWhileItIsDown3dBSofter() throws {
        let open = try Self.play()
        let soft = try Self.play { $0.sendMIDIEvent(0xB0, data1: 67, data2: 127) }
        let lifted = try Self.play { $0.sendMIDIEvent(0xB0, data1: 67, data2: 127); $0.sendMIDIEvent(0xB0, data1: 67, data2: 0) }
        #expect(abs(soft.db - open.db + 3) < 0.02, "\(soft.db - open.db) dB")
        #expect(abs(lifted.db - open.db) < 0.001)
        #expect(abs(Measure.cents(soft.hz, 440)) < 1)
    }

    @Test func gsResetReturnsEveryChannelToItsDefaults() throws {
        let fresh = try Self.play()
        let changed = try Self.play {
            $0.sendProgramChange(40, onChannel: 0)
            $0.sendMIDIEvent(0xB0, data1: 7, data2: 30)
            $0.sendMIDIEvent(0xE0, data1: 0, data2: 0x60)
        }
        #expect(abs(Measure.cents(changed.hz, 220 * pow(2, 1.0 / 12))) < 2, "program 40, bent up a semitone: \(changed.hz) Hz")
        #expect(changed.db < fresh.db - 10)
        for reset in [Self.gsReset, Self.gmOn, Self.xgOn] {
            let after = try Self.play {
                $0.sendProgramChange(40, onChannel: 0)
                $0.sendMIDIEvent(0xB0, data1: 7, data2: 30)
                $0.sendMIDIEvent(0xE0, data1: 0, data2: 0x60)
                $0.sendMIDISysExEvent(reset)
            }
            #expect(abs(Measure.cents(after.hz, 440)) < 1, "\(reset): \(after.hz) Hz")
            #expect(abs(after.db - fresh.db) < 0.001, "\(reset): \(after.db) dB against \(fresh.db)")
        }
    }

    @Test func afterXGSystemOnBank127MakesAChannelPlayDrums() throws {
        func bank127(_ resets: [UInt8]...) throws -> Double {
            try Self.play(channel: 3) {
                for reset in resets { $0.sendMIDISysExEvent(reset) }
                $0.sendMIDIEvent(0xB3, data1: 0, data2: 127)
                $0.sendProgramChange(0, onChannel: 3)
            }.hz
        }
        // GS (the default) and GM: bank 127 does not exist here, so the melodic fallback plays.
        #expect(abs(Measure.cents(try bank127(), 440)) < 1)
        #expect(abs(Measure.cents(try bank127(Self.gmOn), 440)) < 1)
        // XG: MSB 127 is the drum bank.
        #expect(abs(Measure.cents(try bank127(Self.xgOn), 880)) < 1)
        // And GS Reset after XG returns to GS rules.
        #expect(abs(Measure.cents(try bank127(Self.xgOn, Self.gsReset), 440)) < 1)
    }
}
