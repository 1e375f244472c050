import Testing
import PolyphonSoundFont
@testable import PolyphonSynth

/// A channel's MIDI semantics on their own, without rendering: what each message does to its
/// state, and what it asks of the voices playing on it.
@Suite("Channel semantics")
struct ChannelTests {
    /// A bank with presets 0:0, 0:5, 8:5 (a GS variation), 128:0 and 128:16 (drum kits).
    static let presets: PresetTable = {
        let sine = TestBank.sine()
        var bank = sine
        let zones = sine.presets[0].zones
        bank.presets = [(0, 0), (0, 5), (8, 5), (128, 0), (128, 16)].map { b, p in
            Preset(name: "P\(b):\(p)", program: UInt16(p), bank: UInt16(b), zones: zones)
        }
        return PresetTable(soundBank: bank, velocityToFilter: .fluidSynth)
    }()

    func presetName(_ ch: Channel) -> String? {
        ch.presetIndex.map { ["P0:0", "P0:5", "P8:5", "P128:0", "P128:16"][$0] }
    }

    @Test func pedalsReportWhatTheyAskOfTheVoices() {
        let ch = Channel(index: 0, isPercussion: false)
        #expect(ch.controlChange(64, value: 127, bankSelectMode: .gs) == .none)
        #expect(ch.sustain)
        #expect(ch.controlChange(64, value: 100, bankSelectMode: .gs) == .none)  // still down
        #expect(ch.controlChange(64, value: 63, bankSelectMode: .gs) == .releaseSustained)
        #expect(!ch.sustain)
        #expect(ch.controlChange(66, value: 64, bankSelectMode: .gs) == .holdWithSostenuto)
        #expect(ch.controlChange(66, value: 127, bankSelectMode: .gs) == .none)
        #expect(ch.controlChange(66, value: 0, bankSelectMode: .gs) == .releaseSostenuto)
        #expect(ch.controlChange(67, value: 64, bankSelectMode: .gs) == .none)
        #expect(ch.soft)
    }

    @Test func channelModeMessages() {
        let ch = Channel(index: 3, isPercussion: false)
        #expect(ch.controlChange(120, value: 0, bankSelectMode: .gs) == .soundOff)
        for cc in [123, 124, 125] { #expect(ch.controlChange(cc, value: 0, bankSelectMode: .gs) == .notesOff) }
        #expect(ch.controlChange(126, value: 1, bankSelectMode: .gs) == .notesOff)
        #expect(ch.isMono)
        #expect(ch.controlChange(127, value: 0, bankSelectMode: .gs) == .notesOff)
        #expect(!ch.isMono)
    }

    @Test func resetAllControllersKeepsVolumePanBankAndProgram() {
        let ch = Channel(index: 0, isPercussion: false)
        for (cc, v) in [(7, 90), (10, 20), (1, 100), (11, 50), (64, 127), (0, 8)] as [(Int, UInt8)] {
            _ = ch.controlChange(cc, value: v, bankSelectMode: .gs)
        }
        ch.programChange(5, presets: Self.presets, bankSelectMode: .gs)
        ch.pitchBend(100)
        ch.pressure(77)
        #expect(ch.controlChange(121, value: 0, bankSelectMode: .gs) == .releasePedalHeld)
        #expect(ch.controllers[7] == 90 && ch.controllers[10] == 20 && ch.bankMSB == 8 && ch.program == 5)
        #expect(ch.controllers[1] == 0 && ch.controllers[11] == 127 && !ch.sustain)
        #expect(ch.pitchWheel == 8192 && ch.channelPressure == 0)
    }

    @Test func registeredParametersSetBendRangeAndTuning() {
        let ch = Channel(index: 0, isPercussion: false)
        func cc(_ c: Int, _ v: UInt8) { _ = ch.controlChange(c, value: v, bankSelectMode: .gs) }
        cc(101, 0); cc(100, 0); cc(6, 12); cc(38, 50)
        #expect(ch.pitchBendRange == 12.5)
        cc(96, 0)  // data increment
        #expect(ch.pitchBendRange == 13.5)
        cc(101, 0); cc(100, 1); cc(6, 96); cc(38, 0)  // fine tuning: 96 << 7 = 12288 → +50 cents
        #expect(ch.fineTuning == 50)
        cc(101, 0); cc(100, 2); cc(6, 62)
        #expect(ch.coarseTuning == -2)
        cc(101, 0); cc(100, 5); cc(6, 1); cc(38, 64)
        #expect(ch.modulationDepthRange == 150)
        // The null RPN: data entry changes nothing.
        cc(101, 127); cc(100, 127); cc(6, 40)
        #expect(ch.pitchBendRange == 13.5 && ch.coarseTuning == -2)
    }

    @Test func soundFontNRPNsOffsetGenerators() {
        let ch = Channel(index: 0, isPercussion: false)
        func cc(_ c: Int, _ v: UInt8) { _ = ch.controlChange(c, value: v, bankSelectMode: .gs) }
        // NRPN 120/8 (initialFilterFc, scaled by 2): data 8192 + 300 → +600 cents.
        cc(99, 120); cc(98, 8); cc(38, UInt8((8192 + 300) & 0x7F)); cc(6, UInt8((8192 + 300) >> 7))
        #expect(ch.generatorOffsets[Int(GeneratorType.initialFilterFc.rawValue)] == 600)
        // 120/101 then 120/1 selects 1000 + 1 — not a generator: nothing happens.
        cc(99, 120); cc(98, 101); cc(98, 1); cc(6, 70)
        #expect(ch.generatorOffsets[Int(GeneratorType.pan.rawValue)] == 0)
        // NRPN 120/17 (pan, unscaled): data 8192 − 250.
        cc(99, 120); cc(98, 17); cc(38, UInt8((8192 - 250) & 0x7F)); cc(6, UInt8((8192 - 250) >> 7))
        #expect(ch.generatorOffsets[Int(GeneratorType.pan.rawValue)] == -250)
        // An RPN selection takes data entry away from the NRPN.
        cc(101, 0); cc(100, 0); cc(6, 3); cc(38, 0)
        #expect(ch.pitchBendRange == 3 && ch.generatorOffsets[Int(GeneratorType.pan.rawValue)] == -250)
    }

    @Test func bankSelectChoosesThePresetByTheSynthesizersMode() {
        let ch = Channel(index: 0, isPercussion: false)
        _ = ch.controlChange(0, value: 8, bankSelectMode: .gs)
        ch.programChange(5, presets: Self.presets, bankSelectMode: .gs)
        #expect(presetName(ch) == "P8:5")
        ch.programChange(5, presets: Self.presets, bankSelectMode: .gm)  // GM ignores bank select
        #expect(presetName(ch) == "P0:5")
        // A bank the SoundFont lacks falls back to bank 0, then program 0.
        _ = ch.controlChange(0, value: 9, bankSelectMode: .gs)
        ch.programChange(5, presets: Self.presets, bankSelectMode: .gs)
        #expect(presetName(ch) == "P0:5")
        ch.programChange(6, presets: Self.presets, bankSelectMode: .gs)
        #expect(presetName(ch) == "P0:0")
        // XG: MSB 127 makes the channel a drum channel (preset chosen at the next program).
        _ = ch.controlChange(0, value: 127, bankSelectMode: .xg)
        #expect(ch.isPercussion)
        ch.programChange(16, presets: Self.presets, bankSelectMode: .xg)
        #expect(presetName(ch) == "P128:16")
        ch.programChange(40, presets: Self.presets, bankSelectMode: .xg)  // a kit the bank lacks
        #expect(presetName(ch) == "P128:0")
    }

    @Test func portamentoGlidesFromCC84OnceThenFromTheLastKey() {
        let ch = Channel(index: 0, isPercussion: false)
        #expect(ch.takePortamentoSource() == -1)  // portamento off
        _ = ch.controlChange(65, value: 127, bankSelectMode: .gs)
        ch.lastKey = 60
        #expect(ch.takePortamentoSource() == 60)
        _ = ch.controlChange(84, value: 48, bankSelectMode: .gs)
        #expect(ch.takePortamentoSource() == 48)
        #expect(ch.takePortamentoSource() == 60)  // CC84 is used up by one note
        _ = ch.controlChange(5, value: 1, bankSelectMode: .gs)
        _ = ch.controlChange(37, value: 44, bankSelectMode: .gs)
        #expect(ch.portamentoTime == 0.172)  // (1 << 7 | 44) ms
    }
}

/// System-exclusive messages recognised from their bytes.
@Suite("System exclusive")
struct SystemExclusiveTests {
    func recognise(_ bytes: [UInt8]) -> SystemExclusive? {
        bytes.withUnsafeBufferPointer { SystemExclusive($0) }
    }

    @Test func universalMessages() {
        #expect(recognise([0x7E, 0x7F, 0x09, 0x01, 0xF7]) == .generalMIDI(subID: 1))
        #expect(recognise([0x7E, 0x10, 0x09, 0x03]) == .generalMIDI(subID: 3))
        #expect(recognise([0x7F, 0x7F, 0x04, 0x01, 0x7F, 0x3F, 0xF7]) == .masterVolume(Float(0x3F << 7 | 0x7F) / 16383))
        #expect(recognise([0x7F, 0x7F, 0x04, 0x01, 0x7F]) == nil)  // MSB missing
    }

    @Test func rolandGS() {
        #expect(recognise([0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7]) == .gsReset)
        #expect(recognise([0x41, 0x10, 0x42, 0x12, 0x40, 0x01, 0x30, 0x04, 0x0B, 0xF7]) == .gsReverbMacro(4))
        #expect(recognise([0x41, 0x10, 0x42, 0x12, 0x40, 0x01, 0x33, 0x7F, 0x0B, 0xF7]) == .gsReverbLevel(1))
        #expect(recognise([0x41, 0x10, 0x42, 0x12, 0x40, 0x01, 0x3A, 0x40, 0x0B, 0xF7]) == .gsChorusLevel(Double(64) / 127 * 2))
        // Part 0 is channel 10; part 1 channel 1; part 10 channel 11.
        #expect(recognise([0x41, 0x10, 0x42, 0x12, 0x40, 0x10, 0x15, 0x01]) == .gsRhythmPart(channel: 9, isDrums: true))
        #expect(recognise([0x41, 0x10, 0x42, 0x12, 0x40, 0x11, 0x15, 0x02]) == .gsRhythmPart(channel: 0, isDrums: true))
        #expect(recognise([0x41, 0x10, 0x42, 0x12, 0x40, 0x1A, 0x15, 0x00]) == .gsRhythmPart(channel: 10, isDrums: false))
        #expect(recognise([0x41, 0x10, 0x42, 0x12, 0x40, 0x01, 0x99, 0x00]) == nil)
    }

    @Test func yamahaXG() {
        #expect(recognise([0x43, 0x10, 0x4C, 0x00, 0x00, 0x7E, 0x00, 0xF7]) == .xgSystemOn)
        #expect(recognise([0x43, 0x13, 0x4C, 0x00, 0x00, 0x7F, 0x00]) == .xgSystemOn)
        #expect(recognise([0x43, 0x10, 0x4C, 0x00, 0x00, 0x7D, 0x00]) == nil)
    }

    @Test func shortOrUnknownMessagesAreIgnored() {
        #expect(recognise([]) == nil)
        #expect(recognise([0x7E, 0x7F]) == nil)
        #expect(recognise([0x42, 0x30, 0x00, 0x01]) == nil)
    }
}
