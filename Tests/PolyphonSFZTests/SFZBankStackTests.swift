import Foundation
import PolyphonSoundFont
import PolyphonSynth
import PolyphonTestSupport
import Testing
@testable import PolyphonSFZ

/// SFZ instruments on programs of their own, stacked over a General MIDI bank
/// (``SoundFont/init(stacking:)``): which bank played a note is told by its pitch.
@Suite struct SFZBankStackTests {
    /// One SFZ instrument read from disk, its regions playing a 1 s sine at `hertz` whatever the key.
    static func instrument(_ text: String, hertz: Double, in directory: TemporaryDirectory, name: String) throws -> SFZInstrument {
        let writer = TestFiles(root: directory.path)
        try writer.write(TestAudio.wav([TestAudio.sine(frequency: hertz, frames: 44_100)]), to: "\(name).wav")
        try writer.write(text.replacingOccurrences(of: "$SAMPLE", with: "\(name).wav"), to: "\(name).sfz")
        return try SFZInstrument(contentsOf: directory.file("\(name).sfz"))
    }

    /// The pitch of `key` on `channel` after a program change to `program`.
    static func pitch(_ bank: SoundFont, program: UInt8, channel: UInt8 = 0, key: UInt8 = 60) throws -> Double {
        let synthesizer = try Synthesizer(soundBank: bank)
        synthesizer.sendProgramChange(program, onChannel: channel)
        synthesizer.startNote(key, withVelocity: 100, onChannel: channel)
        let out = synthesizer.renderSeconds(0.3)
        return Measure.frequency(out.left[out.frame(0.1)..<out.frame(0.3)], rate: out.rate)
    }

    @Test func sfzProgramsAndKitPlayOverAGeneralMIDIBank() throws {
        let directory = try TemporaryDirectory(prefix: "polyphon-sfz-stack")
        let piano = try Self.instrument("<region> sample=$SAMPLE pitch_keytrack=0", hertz: 300, in: directory, name: "piano")
        let guitar = try Self.instrument("<region> sample=$SAMPLE pitch_keytrack=0", hertz: 500, in: directory, name: "guitar")
        let kit = try Self.instrument("<region> sample=$SAMPLE key=36 pitch_keytrack=0", hertz: 700, in: directory, name: "kit")
        #expect(kit.looksLikeDrumKit)
        try piano.preloadSamples()
        #expect(piano.sampleStore?.statistics.samples == 1)
        let pianoBank = SFZSoundBank(piano, placement: .preset(bank: 0, program: 0), releasingDecodedSamples: true)
        // The bank holds the only copy of the points: the store let its decoded file go.
        #expect(piano.sampleStore?.statistics.samples == 0)
        let guitarBank = SFZSoundBank(guitar, placement: .preset(bank: 0, program: 41))
        let kitBank = SFZSoundBank(kit)
        #expect(kitBank.placement == .drumKit)
        // SineBank: every program a looped sine sounding A4 + 3.9 cents at key 69.
        let generalMIDI = SineBank.everyProgram()
        let sf2AtMiddleC = 441 * pow(2, -9.0 / 12)

        let stack = try SoundFont(stacking: [pianoBank.soundFont, guitarBank.soundFont, kitBank.soundFont, generalMIDI])
        #expect(stack.presets.count == 128 + 1)
        let heard: [(program: UInt8, channel: UInt8, key: UInt8, hertz: Double, what: String)] = [
            (0, 0, 60, 300, "program 0 from piano.sfz"),
            (40, 1, 60, sf2AtMiddleC, "program 40 from the SoundFont"),
            (41, 2, 60, 500, "program 41 from guitar.sfz"),
            (0, 9, 36, 700, "the kit from kit.sfz"),
        ]
        for h in heard {
            let f = try Self.pitch(stack, program: h.program, channel: h.channel, key: h.key)
            #expect(abs(Measure.cents(f, h.hertz)) < 1, "\(h.what): \(f) Hz")
        }
        // The first bank with a program plays it: the SoundFont first hides the SFZ piano.
        let soundFontFirst = try SoundFont(stacking: [generalMIDI, pianoBank.soundFont])
        #expect(abs(Measure.cents(try Self.pitch(soundFontFirst, program: 0), sf2AtMiddleC)) < 1)
        // A bank built after the store let go decodes the file again and sounds the same.
        #expect(abs(Measure.cents(try Self.pitch(SFZSoundBank(piano).soundFont, program: 5), 300)) < 1)
        #expect(throws: SoundBankStackError.self) { try SoundFont(stacking: []) }
    }

    /// Stacking copies no sample point: each bank's pool stays where it is (a memory-mapped
    /// SF2 stays mapped), and the stack plays, serializes and subsets exactly as the same banks
    /// copied into one pool (`SoundFont.merging`), bit for bit. With a 24-bit SFZ over 16-bit
    /// banks each bank plays as it does alone (the copy gave 16-bit points zero low bytes and
    /// played them through the 24-bit path, a few bits apart).
    @Test func stackingKeepsEachPoolWhereItIsAndPlaysAsTheCopy() throws {
        let directory = try TemporaryDirectory(prefix: "polyphon-sfz-stack-pools")
        let writer = TestFiles(root: directory.path)
        for (name, encoding) in [("piano16", TestAudio.Encoding.int16), ("piano24", .int24)] {
            try writer.write(TestAudio.wav([TestAudio.saw(frequency: 300, frames: 44_100)], encoding: encoding), to: "\(name).wav")
            try writer.write("<region> sample=\(name).wav pitch_keycenter=60 ampeg_release=0.2", to: "\(name).sfz")
        }
        func piano(_ name: String) throws -> SoundFont {
            SFZSoundBank(try SFZInstrument(contentsOf: directory.file("\(name).sfz")), placement: .preset(bank: 0, program: 0)).soundFont
        }
        try Data(SineBank.everyProgram().serialized()).write(to: URL(fileURLWithPath: directory.file("gm.sf2")))
        let mapped = try SoundFont(contentsOf: directory.file("gm.sf2"))

        func song(_ bank: SoundFont) throws -> [Float] {
            let synthesizer = try Synthesizer(soundBank: bank)
            synthesizer.sendProgramChange(40, onChannel: 1)
            for key: UInt8 in [48, 60, 67] { synthesizer.startNote(key, withVelocity: 90, onChannel: 0) }
            synthesizer.startNote(69, withVelocity: 100, onChannel: 1)
            synthesizer.startNote(36, withVelocity: 100, onChannel: 9)
            let held = synthesizer.renderSeconds(0.2)
            for key: UInt8 in [48, 60, 67] { synthesizer.stopNote(key, onChannel: 0) }
            let tail = synthesizer.renderSeconds(0.2)
            return held.left + held.right + tail.left + tail.right
        }

        // 16-bit banks: the stack is the copy without the copy.
        let banks = [try piano("piano16"), SineBank.make(), mapped]
        let stack = try SoundFont(stacking: banks)
        var copy = try #require(SoundFont.merging(banks))
        copy.info = stack.info
        #expect(stack.sampleData.parts.count == 3 && copy.sampleData.parts.isEmpty)
        #expect(stack.sampleData.parts.map(\.data).elementsEqual(banks.map(\.sampleData), by: ===),
                "every part is the bank's own pool, not a copy")
        #expect(stack.sampleData.pointCount == copy.sampleData.words.count && !stack.sampleData.has24BitPoints)
        #expect(stack.samples == copy.samples)
        // A stack of stacks is one level of parts.
        #expect(try SoundFont(stacking: [stack, SineBank.make()]).sampleData.parts.count == 4)
        let played = try song(stack)
        #expect(Measure.db(Measure.rms(played[...])) > -40)
        #expect(played == (try song(copy)))
        #expect(stack.serialized() == copy.serialized())
        for preset in [0, 40] {
            let index = try #require(stack.presetIndex(bank: 0, program: preset))
            #expect(try stack.subset(presetIndexes: [index]).serialized() == copy.subset(presetIndexes: [index]).serialized())
        }

        // A 24-bit SFZ over a 16-bit bank: each plays as it does alone; written out, the
        // 16-bit points get zero low bytes, as the copy has them.
        let deep = try piano("piano24")
        let mixed = try SoundFont(stacking: [deep, mapped])
        var mixedCopy = try #require(SoundFont.merging([deep, mapped]))
        mixedCopy.info = mixed.info
        #expect(mixed.sampleData.has24BitPoints && mixed.serialized() == mixedCopy.serialized())
        func note(_ bank: SoundFont, program: UInt8, key: UInt8) throws -> [Float] {
            let synthesizer = try Synthesizer(soundBank: bank)
            synthesizer.sendProgramChange(program, onChannel: 0)
            synthesizer.startNote(key, withVelocity: 100, onChannel: 0)
            let out = synthesizer.renderSeconds(0.1)
            return out.left + out.right
        }
        #expect(try note(mixed, program: 0, key: 64) == note(deep, program: 0, key: 64))
        #expect(try note(mixed, program: 40, key: 69) == note(mapped, program: 40, key: 69))
    }
}
