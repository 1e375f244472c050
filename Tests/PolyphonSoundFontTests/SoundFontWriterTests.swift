import Foundation
import Testing
@testable import PolyphonSoundFont
@testable import PolyphonSoundFontCore

/// Writing a bank and reading it back must give the same model.
@Suite struct SoundFontWriterTests {
    func expectSameModel(_ a: SoundFont, _ b: SoundFont) {
        #expect(a.info == b.info)
        #expect(a.presets == b.presets)
        #expect(a.instruments == b.instruments)
        #expect(a.samples == b.samples)
        #expect(Array(a.sampleData.bytes) == Array(b.sampleData.bytes))
        #expect(a.sampleData.lowBytes.map(Array.init) == b.sampleData.lowBytes.map(Array.init))
    }

    @Test func roundTripKeepsEverything() throws {
        let bank = TestBanks.rich()
        let bytes = bank.serialized()
        let read = try SoundFont(bytes: bytes, name: "rich.sf2")
        #expect(read.warnings.isEmpty, "\(read.warnings)")
        expectSameModel(bank, read)
        #expect(read.sampleData.lowBytes == nil)
        // Writing what was read gives the same bytes again.
        #expect(read.serialized() == bytes)
    }

    @Test func roundTripOf24BitData() throws {
        let bank = TestBanks.rich(twentyFourBit: true)
        let read = try SoundFont(bytes: bank.serialized(), name: "rich24.sf2")
        #expect(read.warnings.isEmpty, "\(read.warnings)")
        expectSameModel(bank, read)
        let low = try #require(read.sampleData.lowBytes)
        #expect(low.count == read.sampleData.words.count)
        // Point 3 of the first sample: high word from smpl, low byte from sm24.
        let expected = Int32(TestBanks.sine(101)[3]) << 8 | Int32(UInt8(truncatingIfNeeded: 3 * 7))
        #expect(read.sampleData.normalized(at: 3) == Float(expected) / 8_388_608)
    }

    @Test func fileLayoutFollowsTheSpec() throws {
        let bytes = TestBanks.rich().serialized()
        #expect(Array(bytes[0..<4]) == Array("RIFF".utf8))
        #expect(Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24 == bytes.count - 8)
        #expect(Array(bytes[8..<12]) == Array("sfbk".utf8))
        let top = try TestBanks.chunks(bytes, in: 12..<bytes.count)
        #expect(top.map { String(decoding: bytes[$0.dataOffset..<($0.dataOffset + 4)], as: UTF8.self) }
                == ["INFO", "sdta", "pdta"])
        let info = try TestBanks.list("INFO", in: bytes)
        let infoIDs = try TestBanks.chunks(bytes, in: (info.dataOffset + 4)..<info.dataRange.upperBound).map(\.id)
        #expect(infoIDs == ["ifil", "isng", "INAM", "irom", "iver", "ICRD", "IENG", "IPRD", "ICOP", "ICMT", "ISFT"])
        // Every chunk, INFO strings included, has an even size (strings are padded).
        for id in infoIDs { #expect(try TestBanks.chunk(id, in: bytes, list: "INFO").size % 2 == 0, "\(id)") }
        let pdta = try TestBanks.list("pdta", in: bytes)
        let pdtaIDs = try TestBanks.chunks(bytes, in: (pdta.dataOffset + 4)..<pdta.dataRange.upperBound).map(\.id)
        #expect(pdtaIDs == ["phdr", "pbag", "pmod", "pgen", "inst", "ibag", "imod", "igen", "shdr"])
        // Terminal records.
        let phdr = try TestBanks.chunk("phdr", in: bytes)
        #expect(phdr.size == 38 * 4)
        #expect(Array(bytes[(phdr.dataRange.upperBound - 38)..<(phdr.dataRange.upperBound - 35)]) == Array("EOP".utf8))
        let shdr = try TestBanks.chunk("shdr", in: bytes)
        #expect(shdr.size == 46 * 4)
        #expect(Array(bytes[(shdr.dataRange.upperBound - 46)..<(shdr.dataRange.upperBound - 43)]) == Array("EOS".utf8))
        let pgen = try TestBanks.chunk("pgen", in: bytes)
        #expect(bytes[(pgen.dataRange.upperBound - 4)..<pgen.dataRange.upperBound].allSatisfy { $0 == 0 })
        // The first preset's first bag is its global zone: its generators hold no instrument.
        let pbag = try TestBanks.chunk("pbag", in: bytes)
        let firstGen = Int(bytes[pbag.dataOffset]) | Int(bytes[pbag.dataOffset + 1]) << 8
        let nextGen = Int(bytes[pbag.dataOffset + 4]) | Int(bytes[pbag.dataOffset + 5]) << 8
        #expect(firstGen == 0 && nextGen == 1)
        #expect(bytes[pgen.dataOffset] == UInt8(GeneratorType.reverbEffectsSend.rawValue))
    }

    @Test func writerPutsGeneratorsInSpecOrder() throws {
        // Out of order in the model: instrument first, ranges last, and a global zone carrying a
        // terminal generator.
        var bank = SoundFont.singleSample(TestBanks.sine(10))
        bank.presets[0].zones[0].generators = [Generator(.instrument, 0), Generator(.pan, 3),
                                               Generator.range(.velRange, 2...90), Generator.range(.keyRange, 5...70)]
        bank.presets[0].globalZone = Zone(generators: [Generator(.pan, 1), Generator(.instrument, 0)])
        let read = try SoundFont(bytes: bank.serialized(), name: "order.sf2")
        #expect(read.presets[0].zones[0].generators == [Generator.range(.keyRange, 5...70), Generator.range(.velRange, 2...90),
                                                        Generator(.pan, 3), Generator(.instrument, 0)])
        #expect(read.presets[0].globalZone == Zone(generators: [Generator(.pan, 1)]))
    }

    @Test func longNamesAreCutToTwentyBytes() throws {
        var bank = SoundFont.singleSample(TestBanks.sine(10))
        bank.presets[0].name = "A preset name far longer than twenty bytes"
        bank.instruments[0].name = "Ünïcödé instrument name"
        let read = try SoundFont(bytes: bank.serialized(), name: "names.sf2")
        #expect(read.presets[0].name == "A preset name far lo")
        #expect(read.instruments[0].name == "Ünïcödé instrume")  // 20 bytes, cut at a character boundary
    }

    @Test func writesAndReadsFiles() throws {
        let bank = TestBanks.rich(twentyFourBit: true)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("polyphon-\(UUID().uuidString).sf2")
        defer { try? FileManager.default.removeItem(at: url) }
        try bank.write(to: url.path)
        let viaPath = try SoundFont(contentsOf: url.path)
        let viaURL = try SoundFont(contentsOf: url)
        expectSameModel(bank, viaPath)
        expectSameModel(bank, viaURL)
        #expect(viaPath.warnings.isEmpty)
    }

    @Test func writeToAMissingDirectoryThrows() {
        let bank = SoundFont.singleSample([1, 2, 3])
        #expect(throws: SoundFontError.self) { try bank.write(to: "/nonexistent-dir-polyphon/x.sf2") }
    }

    @Test func singleSampleBankPlaysItsSample() throws {
        let pcm = TestBanks.sine(200)
        let vib = Modulator(source: .cc(1), destination: .vibLfoToPitch, amount: 100)
        let bank = SoundFont.singleSample(pcm, sampleRate: 22_050, originalPitch: 69, loop: 20..<180,
                                          instrumentGenerators: [Generator(.attackVolEnv, -1200)],
                                          instrumentModulators: [vib],
                                          presetGenerators: [Generator(.coarseTune, 2)], bank: 3, program: 9)
        let read = try SoundFont(bytes: bank.serialized(), name: "single.sf2")
        #expect(read.warnings.isEmpty)
        let sample = try #require(read.samples.first)
        #expect(sample.start == 0 && sample.end == 200 && sample.loopStart == 20 && sample.loopEnd == 180)
        #expect(sample.sampleRate == 22_050 && sample.originalPitch == 69)
        #expect(Array(read.sampleData.words[0..<200]) == pcm)
        // The 46 zero points after the sample.
        #expect(read.sampleData.words.count == 200 + SoundFont.Builder.samplePadding)
        #expect(read.sampleData.words[200...].allSatisfy { $0 == 0 })
        let regions = read.regions(bank: 3, program: 9, key: 60, velocity: 100)
        let region = try #require(regions.first)
        #expect(regions.count == 1)
        #expect(region.generators[.sampleModes] == 1)
        #expect(region.generators[.attackVolEnv] == -1200)
        #expect(region.generators[.coarseTune] == 2)
        #expect(region.modulators[3].amount == 100)  // replaced the default CC1 → vibrato (50)
    }

    @Test func builderPadsLowBytesOfLaterSamples() {
        var b = SoundFont.Builder()
        b.addSample([1, 2, 3])
        b.addSample([4, 5], lowBytes: [9])  // one low byte short: zero-filled
        let bank = b.build()
        let low = Array(bank.sampleData.lowBytes!)
        #expect(low.count == bank.sampleData.words.count)
        #expect(low[49] == 9 && low[50] == 0)
        #expect(bank.samples[1].start == 49 && bank.samples[1].end == 51)
    }

    @Test func emptyBankRoundTrips() throws {
        let bank = SoundFont.Builder(name: "Empty").build()
        #expect(bank.sampleData.bytes.count == 0)
        let read = try SoundFont(bytes: bank.serialized(), name: "empty.sf2")
        #expect(read.presets.isEmpty && read.instruments.isEmpty && read.samples.isEmpty)
        #expect(read.info.name == "Empty")
        #expect(read.sampleData.bytes.count == 0)
    }
}

/// How names and INFO strings are decoded.
@Suite struct SoundFontTextTests {
    @Test func utf8IsKeptAndOtherBytesAreLatin1() {
        #expect(SoundFontText.decode(Array("Grand Piano".utf8)) == "Grand Piano")
        #expect(SoundFontText.decode(Array("Flûte".utf8)) == "Flûte")
        // "Flûte" in Latin-1 / Windows-1252: 0xFB alone is not UTF-8.
        #expect(SoundFontText.decode([0x46, 0x6C, 0xFB, 0x74, 0x65]) == "Flûte")
        // A truncated multi-byte sequence is not UTF-8 either.
        #expect(SoundFontText.decode([0x41, 0xC3]) == "A\u{C3}")
        #expect(SoundFontText.decode([UInt8]()) == "")
    }

    @Test func latin1NamesSurviveReadingAndWriting() throws {
        var bytes = SoundFont.singleSample([1, 2, 3], name: "Flute").serialized()
        let phdr = try TestBanks.chunk("phdr", in: bytes)
        bytes[phdr.dataOffset + 2] = 0xFB  // "Flûte" in Latin-1
        let read = try SoundFont(bytes: bytes, name: "latin1.sf2")
        #expect(read.presets[0].name == "Flûte")
        let again = try SoundFont(bytes: read.serialized(), name: "utf8.sf2")
        #expect(again.presets[0].name == "Flûte")
    }
}
