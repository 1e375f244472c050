import Foundation
import Testing
import PolyphonTestSupport
@testable import PolyphonSoundFont
@testable import PolyphonSoundFontCore
@testable import PolyphonBuiltInBank

/// The built-in bank's structure, names, budget and determinism.
@Suite("Built-in GM bank: structure") struct BuiltInBankTests {
    static let bank = BuiltInBankSupport.bank

    /// The General MIDI Level 1 program names, program 0 to 127.
    static let generalMIDINames = [
        "Acoustic Grand Piano", "Bright Acoustic Piano", "Electric Grand Piano", "Honky-tonk Piano",
        "Electric Piano 1", "Electric Piano 2", "Harpsichord", "Clavi", "Celesta", "Glockenspiel", "Music Box",
        "Vibraphone", "Marimba", "Xylophone", "Tubular Bells", "Dulcimer", "Drawbar Organ", "Percussive Organ",
        "Rock Organ", "Church Organ", "Reed Organ", "Accordion", "Harmonica", "Tango Accordion",
        "Acoustic Guitar (nylon)", "Acoustic Guitar (steel)", "Electric Guitar (jazz)", "Electric Guitar (clean)",
        "Electric Guitar (muted)", "Overdriven Guitar", "Distortion Guitar", "Guitar Harmonics", "Acoustic Bass",
        "Electric Bass (finger)", "Electric Bass (pick)", "Fretless Bass", "Slap Bass 1", "Slap Bass 2",
        "Synth Bass 1", "Synth Bass 2", "Violin", "Viola", "Cello", "Contrabass", "Tremolo Strings",
        "Pizzicato Strings", "Orchestral Harp", "Timpani", "String Ensemble 1", "String Ensemble 2",
        "SynthStrings 1", "SynthStrings 2", "Choir Aahs", "Voice Oohs", "Synth Voice", "Orchestra Hit", "Trumpet",
        "Trombone", "Tuba", "Muted Trumpet", "French Horn", "Brass Section", "Synth Brass 1", "Synth Brass 2",
        "Soprano Sax", "Alto Sax", "Tenor Sax", "Baritone Sax", "Oboe", "English Horn", "Bassoon", "Clarinet",
        "Piccolo", "Flute", "Recorder", "Pan Flute", "Blown Bottle", "Shakuhachi", "Whistle", "Ocarina",
        "Lead 1 (square)", "Lead 2 (sawtooth)", "Lead 3 (calliope)", "Lead 4 (chiff)", "Lead 5 (charang)",
        "Lead 6 (voice)", "Lead 7 (fifths)", "Lead 8 (bass + lead)", "Pad 1 (new age)", "Pad 2 (warm)",
        "Pad 3 (polysynth)", "Pad 4 (choir)", "Pad 5 (bowed)", "Pad 6 (metallic)", "Pad 7 (halo)", "Pad 8 (sweep)",
        "FX 1 (rain)", "FX 2 (soundtrack)", "FX 3 (crystal)", "FX 4 (atmosphere)", "FX 5 (brightness)",
        "FX 6 (goblins)", "FX 7 (echoes)", "FX 8 (sci-fi)", "Sitar", "Banjo", "Shamisen", "Koto", "Kalimba",
        "Bag pipe", "Fiddle", "Shanai", "Tinkle Bell", "Agogo", "Steel Drums", "Woodblock", "Taiko Drum",
        "Melodic Tom", "Synth Drum", "Reverse Cymbal", "Guitar Fret Noise", "Breath Noise", "Seashore",
        "Bird Tweet", "Telephone Ring", "Helicopter", "Applause", "Gunshot",
    ]

    @Test func hasEveryGeneralMIDIProgramAndTheStandardKit() throws {
        #expect(Self.generalMIDINames.count == 128)
        for (program, name) in Self.generalMIDINames.enumerated() {
            let index = try #require(Self.bank.presetIndex(bank: 0, program: program), "program \(program) missing")
            #expect(Self.bank.presets[index].name == name)
        }
        let kit = try #require(Self.bank.presetIndex(bank: 128, program: 0))
        #expect(Self.bank.presets[kit].name == "Standard")
        // Every key 35…81 of the kit resolves to exactly one sound: one region, or two or four
        // identical ones where a drum plays louder than its sample at full scale.
        for key in 35...81 {
            let regions = Self.bank.regions(forPresetAt: kit).filter { $0.contains(key: UInt8(key), velocity: 100) }
            #expect([1, 2, 4].contains(regions.count), "drum key \(key) has \(regions.count) regions")
            #expect(Set(regions.map(\.sampleIndex)).count == 1 && Set(regions.map(\.generators)).count == 1,
                    "drum key \(key) plays different sounds")
        }
        #expect(Self.bank.presets.count == 129)
    }

    /// Each instrument covers the whole keyboard with several samples (key ranges), so
    /// transposition stays within about an octave of a root.
    @Test func instrumentsUseSeveralKeyRanges() throws {
        for program in 0..<128 {
            let index = try #require(Self.bank.presetIndex(bank: 0, program: program))
            let regions = Self.bank.regions(forPresetAt: index)
            for key in 0...127 {
                #expect(regions.contains { $0.contains(key: UInt8(key), velocity: 100) }, "program \(program) has no sample for key \(key)")
            }
            let samples = Set(regions.map { $0.sampleIndex })
            let isEffect = program >= 119
            #expect(isEffect || samples.count >= 3, "program \(program) uses only \(samples.count) samples")
        }
    }

    /// Loops lie inside their samples with room for interpolation on both sides, and the loop
    /// is seamless: the point after the loop end equals the loop start's point (guard points).
    @Test func loopsAreWellFormedAndSeamless() {
        let words = Self.bank.sampleData.words
        var looped = 0
        for h in Self.bank.samples where h.loopEnd > h.loopStart && h.loopEnd < h.end {
            looped += 1
            #expect(h.loopStart >= h.start + 8 || h.loopStart == h.start, "\(h.name): loop start too close to the start")
            #expect(h.end - h.loopEnd >= 8, "\(h.name): fewer than 8 guard points after the loop")
            for i in 0..<8 {
                #expect(words[Int(h.loopEnd) + i] == words[Int(h.loopStart) + i], "\(h.name): guard point \(i) differs")
            }
            // The jump from the loop's last point to its first is no bigger than the waveform's
            // own largest step, i.e. there is no click at the join.
            var maxStep = 0
            for i in Int(h.loopStart) + 1..<Int(h.loopEnd) {
                maxStep = max(maxStep, abs(Int(words[i]) - Int(words[i - 1])))
            }
            let join = abs(Int(words[Int(h.loopStart)]) - Int(words[Int(h.loopEnd) - 1]))
            #expect(join <= maxStep, "\(h.name): join step \(join) > largest step \(maxStep)")
        }
        #expect(looped > 100)
    }

    /// Generation time and size, printed; size within budget; two generations byte-identical:
    /// this one and the shared instance, generated on its own for the other tests.
    @Test func generationIsDeterministicAndWithinBudget() throws {
        let clock = ContinuousClock()
        var first: SoundFont?
        let elapsed = clock.measure { first = GeneralMIDIBank.make() }
        let a = try #require(first)
        let bytes = a.sampleData.words.count * 2
        print("built-in GM bank: generated in \(elapsed) (this build configuration), "
              + "\(a.samples.count) samples, \(bytes) bytes of sample data, \(a.instruments.count) instruments")
        #expect(bytes < 16 * 1024 * 1024)
        #expect(Array(a.sampleData.words) == Array(Self.bank.sampleData.words))
        // The serialized bank is also what the shared instance serializes to.
        let sa = a.serialized()
        #expect(sa == Self.bank.serialized())
        // A fingerprint of the bytes, to compare across platforms.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in sa { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        print("built-in GM bank: \(sa.count) bytes serialized, FNV-1a \(String(hash, radix: 16))")
    }

    /// The written .sf2 reads back with the same presets and samples.
    @Test func serializedBankReadsBack() throws {
        let bytes = Self.bank.serialized()
        let read = try SoundFont(bytes: bytes, name: "builtin.sf2")
        // SF2 stores names in 20 bytes: longer GM names ("Acoustic Guitar (nylon)") are cut.
        #expect(read.presets.map(\.name) == Self.bank.presets.map { String($0.name.prefix(20)) })
        #expect(read.samples == Self.bank.samples)
        #expect(Array(read.sampleData.words) == Array(Self.bank.sampleData.words))
        #expect(read.warnings.isEmpty, "\(read.warnings)")
    }
}
