import Foundation
import Testing
import PolyphonSoundFont
@testable import PolyphonSynth

/// Per-preset SF2 subsets (what the browser is sent instead of a whole bank) render their
/// presets exactly as the full bank does.
@Suite struct SubsetTests {
    /// Plays a phrase (low, middle and high keys, a chord, a bend, releases) on `program` of
    /// `bank` and returns both channels.
    static func phrase(_ soundBank: SoundFont, bank: UInt16 = 0, program: UInt8) throws -> [Float] {
        let synth = try Synthesizer(soundBank: soundBank, sampleRate: 44_100)
        // Bank 128 is the drum kits: channel 10's.
        let channel: UInt8 = bank == 128 ? 9 : 0
        if bank == 128 { synth.sendProgramChange(program, onChannel: channel) }
        else { synth.sendProgramChange(program, bankMSB: UInt8(bank), bankLSB: 0, onChannel: channel) }
        for (i, key) in [36, 60, 64, 67, 96].enumerated() {
            synth.startNote(UInt8(key), withVelocity: UInt8(60 + i * 12), onChannel: channel, atFrame: i * 1_000)
        }
        let (l1, r1) = synth.render(frameCount: 20_000)
        synth.sendPitchBend(12_000, onChannel: channel)
        for key in [36, 60, 64, 67, 96] { synth.stopNote(UInt8(key), onChannel: channel, atFrame: 3_000) }
        let (l2, r2) = synth.render(frameCount: 30_000)
        return l1 + r1 + l2 + r2
    }

    /// Three presets: a mono sine, a linked stereo pair, and a 24-bit sample with a loop near
    /// its end; samples packed back to back so interpolation near a sample's end reads its
    /// neighbour's points.
    static func bank() -> SoundFont {
        var b = SoundFont.Builder(name: "Subset test")
        let sine = (0..<2_000).map { Int16((12_000 * sin(2 * Double.pi * Double($0) / 100)).rounded()) }
        let saw = (0..<2_000).map { Int16(($0 % 90) * 300 - 13_000) }
        let mono = b.addSample(sine, name: "mono", sampleRate: 44_000, originalPitch: 69, loop: 100..<2_000)
        let left = b.addSample(saw, name: "L", sampleRate: 44_100, originalPitch: 60, loop: 90..<1_980, sampleType: .left, sampleLink: 2)
        let right = b.addSample(sine, name: "R", sampleRate: 44_100, originalPitch: 60, loop: 100..<2_000, sampleType: .right, sampleLink: 1)
        let deep = b.addSample(saw.reversed(), lowBytes: (0..<2_000).map { UInt8($0 % 251) }, name: "24", sampleRate: 32_000,
                               originalPitch: 72, loop: 1_900..<1_990)
        func instrument(_ name: String, _ zones: [[Generator]]) -> Int {
            b.addInstrument(name, zones: zones.map { Zone(generators: $0) })
        }
        let i0 = instrument("Mono", [[Generator(.sampleModes, 1), Generator(.releaseVolEnv, -1200), Generator(.sampleID, Int16(mono))]])
        let i1 = instrument("Pair", [[Generator(.sampleModes, 1), Generator(.pan, -500), Generator(.initialFilterFc, 4000),
                                      Generator(.sampleID, Int16(left))],
                                     [Generator(.sampleModes, 1), Generator(.pan, 500), Generator(.initialFilterFc, 4000),
                                      Generator(.sampleID, Int16(right))]])
        let i2 = instrument("Deep", [[Generator(.sampleModes, 3), Generator(.endAddrsOffset, 5), Generator(.startAddrsOffset, -3),
                                      Generator(.sampleID, Int16(deep))]])
        b.addPreset("Mono", program: 0, zones: [Zone(generators: [Generator(.instrument, Int16(i0))])])
        b.addPreset("Pair", program: 1, zones: [Zone(generators: [Generator(.instrument, Int16(i1))])])
        b.addPreset("Deep", bank: 8, program: 2, zones: [Zone(generators: [Generator(.instrument, Int16(i2))])])
        return b.build()
    }

    @Test func subsetsOfABankBuiltInCodeRenderBitIdentically() throws {
        let full = Self.bank()
        for (index, bank, program) in [(1, UInt16(0), UInt8(1)), (2, 8, 2), (0, 0, 0)] {
            let subset = try SoundFont(bytes: try full.subset(presetIndexes: [index]).serialized(), name: "subset.sf2")
            #expect(subset.presets.count == 1)
            let expected = try Self.phrase(full, bank: bank, program: program)
            #expect(expected.contains { $0 != 0 })
            #expect(try Self.phrase(subset, bank: bank, program: program) == expected, "preset \(index)")
        }
        // Only what the preset plays: the pair's two samples, not the others.
        let pair = try full.subset(presetIndexes: [1])
        #expect(pair.samples.map(\.name) == ["L", "R"])
        #expect(pair.instruments.count == 1)
    }

    /// Subsets that arrive one by one and are merged into one bank (what the browser does
    /// when a second instrument is chosen) play each preset as the full bank does.
    @Test func mergedSubsetsRenderBitIdentically() throws {
        let full = Self.bank()
        let parts = try [2, 0, 1].map { try SoundFont(bytes: try full.subset(presetIndexes: [$0]).serialized(), name: "p.sf2") }
        let merged = try #require(SoundFont.merging(parts))
        #expect(merged.presets.map(\.name) == ["Deep", "Mono", "Pair"])
        let reread = try SoundFont(bytes: try merged.serialized(), name: "merged.sf2")
        for (bank, program) in [(UInt16(0), UInt8(1)), (8, 2), (0, 0)] {
            let expected = try Self.phrase(full, bank: bank, program: program)
            #expect(try Self.phrase(merged, bank: bank, program: program) == expected, "\(bank):\(program)")
            #expect(try Self.phrase(reread, bank: bank, program: program) == expected, "\(bank):\(program) re-read")
        }
        // The earlier bank's preset wins; nothing to merge is no bank.
        let twice = try #require(SoundFont.merging([parts[1], full]))
        #expect(twice.presets.count == 3)
        #expect(twice.presets[0].name == "Mono" && twice.instruments.count == 4)
        #expect(SoundFont.merging([]) == nil)
    }

    static func checkRealBank(_ path: String, presets: [(bank: UInt16, program: UInt8)]) throws {
        let full = try SoundFont(contentsOf: path)
        for (bank, program) in presets {
            let index = try #require(full.presets.firstIndex { $0.bank == bank && $0.program == UInt16(program) })
            let bytes = try full.subset(presetIndexes: [index]).serialized()
            let subset = try SoundFont(bytes: bytes, name: "subset.sf2")
            let expected = try Self.phrase(full, bank: bank, program: program)
            let got = try Self.phrase(subset, bank: bank, program: program)
            let differing = zip(got, expected).filter { $0 != $1 }.count
            print("\(path) \(bank):\(program) \(full.presets[index].name): subset \(bytes.count) bytes, \(differing) samples differ")
            #expect(differing == 0)
        }
    }

    @Test(.enabled(if: RealFiles.available(RealFiles.fluidR3)))
    func fluidR3PresetSubsetsRenderBitIdentically() throws {
        try Self.checkRealBank(RealFiles.fluidR3, presets: [(0, 0), (0, 48), (0, 73), (128, 0)])
    }

    @Test(.enabled(if: RealFiles.available(RealFiles.museScore)))
    func sf3PresetSubsetsAreDecodedAndRenderBitIdentically() throws {
        try Self.checkRealBank(RealFiles.museScore, presets: [(0, 0), (0, 40)])
    }
}
