import Foundation
import PolyphonSoundFont
import PolyphonSynth
import PolyphonTestSupport
import Testing
@testable import PolyphonSFZ

/// `set_ccN`/`set_hdccN` (a channel's controllers start at the instrument's values and return
/// to them on reset, as in sfizz), and the pitch opcodes sfizz settles per note or per region:
/// `pitch_veltrack` (+ `_onccN`), `pitch_random`, `bend_up`/`bend_down`. Measured in sound:
/// which region played is told by its pitch, levels in dB, pitch in cents.
@Suite struct SFZControllerDefaultAndPitchTests {
    /// An instrument read from `text` beside a 1 s sine at 440 Hz (`low.wav`) and one at 660 Hz
    /// (`high.wav`), placed at `placement`.
    static func bank(_ text: String, placement: SFZPlacement = .melodic) throws -> SFZSoundBank {
        let directory = try TemporaryDirectory(prefix: "polyphon-sfz-setcc")
        let writer = TestFiles(root: directory.path)
        try writer.write(SFZPlayingTests.sine(440), to: "low.wav")
        try writer.write(SFZPlayingTests.sine(660), to: "high.wav")
        try writer.write(text, to: "instrument.sfz")
        let instrument = try SFZInstrument(contentsOf: directory.file("instrument.sfz"))
        return withExtendedLifetime(directory) { SFZSoundBank(instrument, placement: placement) }
    }

    /// `key` struck on `channel` and measured from 50 to 150 ms: its frequency and level (dB);
    /// every voice is then silenced so the next note starts alone.
    static func strike(_ synthesizer: Synthesizer, key: UInt8 = 60, velocity: UInt8 = 100,
                       channel: UInt8 = 0) -> (hertz: Double, decibels: Double) {
        synthesizer.startNote(key, withVelocity: velocity, onChannel: channel)
        let out = synthesizer.renderSeconds(0.15, block: 64)
        synthesizer.allSoundOff()
        _ = synthesizer.renderSeconds(0.01, block: 64)
        return (SFZPlayingTests.frequency(out, from: 0.05, to: 0.15), SFZPlayingTests.level(out, from: 0.05, to: 0.15))
    }

    /// The CC 20 switch: 440 Hz (`low.wav`) from CC 20 = 64 up, 660 Hz below.
    static let switchedOnCC20 = """
        <region> key=60 sample=low.wav pitch_keytrack=0 locc20=64 hicc20=127
        <region> key=60 sample=high.wav pitch_keytrack=0 locc20=0 hicc20=63
        """

    @Test func setCCStartsTheControllersAndEveryResetReturnsThem() throws {
        let bank = try Self.bank("""
            <control> set_cc20=100 set_hdcc21=0.5 set_cc0=5 set_hdcc96=0.25
            \(Self.switchedOnCC20)
            <region> key=62 sample=low.wav pitch_keytrack=0 volume=-20 volume_oncc21=20
            """)
        #expect(bank.warnings.map(\.message).contains { $0.hasPrefix("set_ccN on CC 0 ignored:") }, "\(bank.warnings)")
        // set_hdcc21=0.5 is 63.5 of 127, held as 64; bank select is a message, not a default.
        // CC 96 (data increment) is a knob to an SFZ, as to sfizz (a free Rhodes sets its
        // auto-pan speed so): it keeps its default.
        #expect(bank.soundFont.presets[0].controllerDefaults
                == [ControllerDefault(controller: 20, value: 100), ControllerDefault(controller: 21, value: 64),
                    ControllerDefault(controller: 96, value: 32)])
        let synthesizer = try Synthesizer(soundBank: bank.soundFont)
        #expect(abs(Self.strike(synthesizer).hertz - 440) < 1, "the first note, before any CC, plays CC 20 = 100's region")
        // volume_oncc21=20 at CC 21 = 64: +20 × 64/127 dB over CC 21 = 0.
        let atDefault = Self.strike(synthesizer, key: 62).decibels
        synthesizer.sendController(21, withValue: 0, onChannel: 0)
        let atZero = Self.strike(synthesizer, key: 62).decibels
        #expect(abs(atDefault - atZero - 20 * 64 / 127) < 0.1, "volume_oncc21 at set_hdcc21: \(atDefault - atZero) dB")

        synthesizer.sendController(20, withValue: 10, onChannel: 0)
        #expect(abs(Self.strike(synthesizer).hertz - 660) < 1, "CC 20 = 10 plays the other region")
        synthesizer.sendController(121, withValue: 0, onChannel: 0)
        #expect(abs(Self.strike(synthesizer).hertz - 440) < 1, "reset all controllers returns CC 20 to 100")
        #expect(abs(Self.strike(synthesizer, key: 62).decibels - atDefault) < 0.05, "and CC 21 to 64")
        synthesizer.sendController(20, withValue: 10, onChannel: 0)
        synthesizer.reset()
        #expect(abs(Self.strike(synthesizer).hertz - 440) < 1, "a system reset returns CC 20 to 100")

        // The defaults travel in the bank's SF2 bytes (the browser engine's form of an SFZ).
        let reread = try SoundFont(bytes: bank.soundFont.serialized(), name: "twin.sf2")
        #expect(reread.presets.map(\.controllerDefaults) == bank.soundFont.presets.map(\.controllerDefaults))
        #expect(abs(Self.strike(try Synthesizer(soundBank: reread)).hertz - 440) < 1)
    }

    /// Two SFZ files naming the same controller, stacked on programs 0 and 1: each channel
    /// holds the default of the preset it plays, until the MIDI stream sets the controller.
    @Test func stackedInstrumentsEachBringTheirDefaultsToTheChannelsPlayingThem() throws {
        let high = try Self.bank("<control> set_cc20=100\n\(Self.switchedOnCC20)", placement: .preset(bank: 0, program: 0))
        let low = try Self.bank("<control> set_cc20=10\n\(Self.switchedOnCC20)", placement: .preset(bank: 0, program: 1))
        let stack = try SoundFont(stacking: [high.soundFont, low.soundFont, SineBank.everyProgram()])
        let synthesizer = try Synthesizer(soundBank: stack)
        #expect(abs(Self.strike(synthesizer).hertz - 440) < 1, "program 0: its set_cc20=100")
        synthesizer.sendProgramChange(1, onChannel: 0)
        #expect(abs(Self.strike(synthesizer).hertz - 660) < 1, "program 1: its set_cc20=10")
        synthesizer.sendProgramChange(0, onChannel: 0)
        #expect(abs(Self.strike(synthesizer).hertz - 440) < 1, "back on program 0")
        // A value the song sets stays through program changes.
        synthesizer.sendController(20, withValue: 100, onChannel: 1)
        synthesizer.sendProgramChange(1, onChannel: 1)
        #expect(abs(Self.strike(synthesizer, channel: 1).hertz - 440) < 1, "CC 20 = 100 sent before program 1")
    }

    @Test func velocityRandomAndBendRangesMoveThePitchInCents() throws {
        let bank = try Self.bank("""
            <control> set_cc30=127
            <global> sample=low.wav pitch_keytrack=0
            <region> key=60 pitch_veltrack=1200
            <region> key=61 pitch_veltrack_oncc30=-600
            <region> key=62 bend_up=700 bend_down=-1200
            <region> key=63 pitch_random=100
            <region> key=64
            """)
        #expect(bank.warnings.isEmpty, "\(bank.warnings)")
        let synthesizer = try Synthesizer(soundBank: bank.soundFont)
        func cents(_ key: UInt8, velocity: UInt8 = 100) -> Double {
            Measure.cents(Self.strike(synthesizer, key: key, velocity: velocity).hertz, 440)
        }
        // sfizz: velocity/127 × pitch_veltrack (+ each pitch_veltrack_onccN × CC/127).
        for velocity in [1, 64, 127] as [UInt8] {
            let expected = 1200 * Double(velocity) / 127
            #expect(abs(cents(60, velocity: velocity) - expected) < 1, "pitch_veltrack=1200 at velocity \(velocity)")
            #expect(abs(cents(61, velocity: velocity) + expected / 2) < 1, "pitch_veltrack_oncc30=-600 at velocity \(velocity)")
        }
        // Bend ranges of its own: +700 cents up, −1200 down, whatever RPN 0 says.
        setBendRange(synthesizer, semitones: 12)
        for (wheel, expected) in [(16383, 700.0), (0, -1200), (4096, -600), (8192, 0)] as [(UInt16, Double)] {
            synthesizer.sendPitchBend(wheel, onChannel: 0)
            #expect(abs(cents(62) - expected) < 1, "bend_up=700 bend_down=-1200 at wheel \(wheel)")
        }
        // The default range follows RPN 0 through SF2's default wheel modulator, as SF2 voices
        // do (12700 cents × 12/128, FluidSynth's arithmetic).
        synthesizer.sendPitchBend(0, onChannel: 0)
        #expect(abs(cents(64) + 12700 * 12 / 128) < 1, "no bend_up/bend_down: RPN 0's 12 semitones")
        synthesizer.sendPitchBend(8192, onChannel: 0)
        // pitch_random=100: 0…100 cents upwards, a new draw per note.
        let draws = (0..<24).map { _ in cents(63) }
        #expect(draws.allSatisfy { $0 > -0.5 && $0 < 100.5 }, "\(draws)")
        #expect(draws.min()! < 20 && draws.max()! > 80 && Set(draws.map { Int($0) }).count > 12, "\(draws)")
    }

    /// RPN 0 (pitch-bend sensitivity) set to `semitones` on channel 0.
    func setBendRange(_ synthesizer: Synthesizer, semitones: UInt8) {
        synthesizer.sendController(101, withValue: 0, onChannel: 0)
        synthesizer.sendController(100, withValue: 0, onChannel: 0)
        synthesizer.sendController(6, withValue: semitones, onChannel: 0)
        synthesizer.sendController(38, withValue: 0, onChannel: 0)
    }
}
