import Foundation
import Testing
@testable import PolyphonSoundFont
@testable import PolyphonSoundFontCore

/// One malformed fixture per error path, and the real-world faults that load with a warning.
@Suite struct MalformedFileTests {
    static let valid = TestBanks.rich().serialized()
    static let pdtaIDs = ["phdr", "pbag", "pmod", "pgen", "inst", "ibag", "imod", "igen", "shdr"]

    /// Loads `bytes`, requiring a `SoundFontError`; returns it.
    func loadError(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> SoundFontError {
        do {
            _ = try SoundFont(bytes: bytes, name: "bad.sf2")
        } catch {
            #expect(error.file == "bad.sf2", sourceLocation: sourceLocation)
            #expect(error.description.hasPrefix("bad.sf2: \(error.chunk) at byte \(error.offset): "),
                    sourceLocation: sourceLocation)
            #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
            return error
        }
        throw TestFailure("loaded without an error")
    }

    func warnings(_ bytes: [UInt8]) throws -> (SoundFont, [String]) {
        let font = try SoundFont(bytes: bytes, name: "sloppy.sf2")
        return (font, font.warnings.map(\.description))
    }

    // MARK: errors

    @Test func notRIFF() throws {
        var bytes = Self.valid
        bytes[3] = UInt8(ascii: "X")
        #expect(try loadError(bytes).kind == .notRIFF)
        #expect(try loadError(Array(Self.valid.prefix(11))).kind == .notRIFF)
        #expect(try loadError([]).kind == .notRIFF)
    }

    @Test func notSoundFont() throws {
        var bytes = Self.valid
        bytes.replaceSubrange(8..<12, with: Array("WAVE".utf8))
        let error = try loadError(bytes)
        #expect(error.kind == .unexpectedForm("WAVE") && error.format == .soundFont && error.chunk == "RIFF" && error.offset == 0)
        #expect(error.description.hasSuffix("RIFF at byte 0: RIFF form is 'WAVE', not 'sfbk' (not a SoundFont)"))
    }

    @Test func truncatedFile() throws {
        let error = try loadError(Array(Self.valid.dropLast(10)))
        #expect(error.chunk == "RIFF")
        #expect(error.kind == .chunkPastEnd(declared: Self.valid.count - 8, available: Self.valid.count - 18))
    }

    @Test func chunkSizePastItsList() throws {
        var bytes = Self.valid
        let smpl = try TestBanks.chunk("smpl", in: bytes, list: "sdta")
        TestBanks.putU32(0x7FFF_0000, at: smpl.offset + 4, in: &bytes)
        let error = try loadError(bytes)
        #expect(error.chunk == "smpl" && error.offset == smpl.offset)
        guard case .chunkPastEnd(let declared, _) = error.kind else { throw TestFailure("\(error)") }
        #expect(declared == 0x7FFF_0000)
    }

    @Test func missingLists() throws {
        for type in ["INFO", "sdta", "pdta"] {
            var bytes = Self.valid
            let list = try TestBanks.list(type, in: bytes)
            bytes.replaceSubrange(list.dataOffset..<(list.dataOffset + 4), with: Array("junk".utf8))
            let error = try loadError(bytes)
            #expect(error.kind == .missingChunk && error.chunk == type)
        }
    }

    @Test func missingPdtaChunks() throws {
        for id in Self.pdtaIDs {
            let error = try loadError(try TestBanks.replacing(id, with: nil, in: Self.valid))
            #expect(error.kind == .missingChunk && error.chunk == id, "\(id): \(error)")
        }
    }

    @Test func recordSizesNotAMultiple() throws {
        let sizes = ["phdr": 38, "pbag": 4, "pmod": 10, "pgen": 4, "inst": 22, "ibag": 4, "imod": 10, "igen": 4, "shdr": 46]
        for id in Self.pdtaIDs {
            let chunk = try TestBanks.chunk(id, in: Self.valid)
            let data = Array(Self.valid[chunk.dataRange]) + [0, 0]
            let bytes = try TestBanks.replacing(id, with: data, in: Self.valid)
            let error = try loadError(bytes)
            #expect(error.kind == .badRecordSize(size: chunk.size + 2, recordSize: sizes[id]!), "\(id)")
            let offset = try TestBanks.chunk(id, in: bytes).offset
            #expect(error.chunk == id && error.offset == offset)
        }
    }

    @Test func tooFewRecords() throws {
        for id in ["phdr", "pbag", "inst", "ibag", "shdr"] {
            let error = try loadError(try TestBanks.replacing(id, with: [], in: Self.valid))
            #expect(error.kind == .tooFewRecords(count: 0, minimum: 1) && error.chunk == id, "\(id)")
        }
    }

    @Test func nonMonotonicPresetBagIndex() throws {
        var bytes = Self.valid
        let phdr = try TestBanks.chunk("phdr", in: bytes)
        TestBanks.putU16(2, at: phdr.dataOffset + 24, in: &bytes)       // preset 0 starts at bag 2
        TestBanks.putU16(1, at: phdr.dataOffset + 38 + 24, in: &bytes)  // preset 1 at bag 1
        let error = try loadError(bytes)
        #expect(error.kind == .nonMonotonicIndex(record: 1, index: 1, previous: 2))
        #expect(error.chunk == "phdr" && error.offset == phdr.dataOffset + 38)
    }

    @Test func nonMonotonicInstrumentBagIndex() throws {
        var bytes = Self.valid
        let inst = try TestBanks.chunk("inst", in: bytes)
        TestBanks.putU16(0, at: inst.dataOffset + 22 + 20, in: &bytes)  // instrument 1 before instrument 0's end
        TestBanks.putU16(3, at: inst.dataOffset + 20, in: &bytes)
        let error = try loadError(bytes)
        #expect(error.kind == .nonMonotonicIndex(record: 1, index: 0, previous: 3) && error.chunk == "inst")
    }

    @Test func nonMonotonicGeneratorAndModulatorIndexes() throws {
        for (bag, field) in [("pbag", 0), ("pbag", 2), ("ibag", 0), ("ibag", 2)] {
            var bytes = Self.valid
            let chunk = try TestBanks.chunk(bag, in: bytes)
            TestBanks.putU16(1, at: chunk.dataOffset + field, in: &bytes)
            TestBanks.putU16(0, at: chunk.dataOffset + 4 + field, in: &bytes)
            let error = try loadError(bytes)
            #expect(error.kind == .nonMonotonicIndex(record: 1, index: 0, previous: 1), "\(bag) \(field)")
            #expect(error.chunk == bag && error.offset == chunk.dataOffset + 4)
        }
    }

    @Test func indexesPastTheirTables() throws {
        var bytes = Self.valid
        let phdr = try TestBanks.chunk("phdr", in: bytes)
        let pbagCount = (try TestBanks.chunk("pbag", in: bytes)).size / 4
        TestBanks.putU16(500, at: phdr.dataRange.upperBound - 38 + 24, in: &bytes)  // EOP's bag index
        var error = try loadError(bytes)
        #expect(error.kind == .indexOutOfRange(record: 3, index: 500, count: pbagCount) && error.chunk == "phdr")

        bytes = Self.valid
        let ibag = try TestBanks.chunk("ibag", in: bytes)
        let igenCount = (try TestBanks.chunk("igen", in: bytes)).size / 4
        let lastBag = ibag.size / 4 - 1
        TestBanks.putU16(900, at: ibag.dataOffset + lastBag * 4, in: &bytes)
        error = try loadError(bytes)
        #expect(error.kind == .indexOutOfRange(record: lastBag, index: 900, count: igenCount) && error.chunk == "ibag")

        bytes = Self.valid
        let pbag = try TestBanks.chunk("pbag", in: bytes)
        let pmodCount = (try TestBanks.chunk("pmod", in: bytes)).size / 10
        TestBanks.putU16(77, at: pbag.dataRange.upperBound - 2, in: &bytes)
        error = try loadError(bytes)
        #expect(error.kind == .indexOutOfRange(record: pbagCount - 1, index: 77, count: pmodCount) && error.chunk == "pbag")
    }

    @Test func listTooSmallForItsType() throws {
        var out = RIFFWriter()
        let riff = out.begin("RIFF")
        out.fourCC("sfbk")
        let list = out.begin("LIST")
        out.bytes += [0x49, 0x4E]
        out.end(list)
        out.end(riff)
        let error = try loadError(out.bytes)
        #expect(error.chunk == "LIST" && error.offset == 12)
    }

    @Test func unreadableFile() throws {
        do {
            _ = try SoundFont(contentsOf: "/nonexistent/polyphon/none.sf2")
            Issue.record("loaded a file that does not exist")
        } catch {
            guard case .cannotOpen = error.kind else { throw TestFailure("\(error)") }
            #expect(error.file == "/nonexistent/polyphon/none.sf2")
        }
        #expect(throws: SoundFontError.self) { try SoundFont(contentsOf: URL(string: "https://example.invalid/x.sf2")!) }
    }

    // MARK: warnings

    @Test func missingTerminalRecords() throws {
        var bytes = Self.valid
        for (id, size) in [("phdr", 38), ("inst", 22), ("shdr", 46)] {
            let chunk = try TestBanks.chunk(id, in: bytes)
            bytes = try TestBanks.replacing(id, with: Array(bytes[chunk.dataOffset..<(chunk.dataRange.upperBound - size)]), in: bytes)
        }
        let (font, text) = try warnings(bytes)
        let original = TestBanks.rich()
        #expect(font.presets == original.presets)
        #expect(font.instruments == original.instruments)
        #expect(font.samples == original.samples)
        #expect(text.contains { $0.hasPrefix("phdr") && $0.contains("missing terminal EOP") })
        #expect(text.contains { $0.hasPrefix("inst") && $0.contains("missing terminal EOI") })
        #expect(text.contains { $0.hasPrefix("shdr") && $0.contains("missing terminal EOS") })
    }

    @Test func oddChunkWithoutPadByte() throws {
        // An INFO string of odd size with no pad byte, as some SF3 writers leave them.
        var out = RIFFWriter()
        let riff = out.begin("RIFF")
        out.fourCC("sfbk")
        let info = out.begin("LIST")
        out.fourCC("INFO")
        let ifil = out.begin("ifil")
        out.u16(2); out.u16(1)
        out.end(ifil)
        out.fourCC("INAM")
        out.u32(5)
        out.bytes += Array("Odd!\0".utf8)  // 5 bytes, no pad
        let icmt = out.begin("ICMT")
        out.bytes += Array("after\0".utf8)
        out.end(icmt)
        out.end(info)
        let validTail = try TestBanks.list("sdta", in: Self.valid)
        out.bytes += Self.valid[validTail.offset...]
        out.end(riff)
        let (font, text) = try warnings(out.bytes)
        #expect(font.info.name == "Odd!")
        #expect(font.info.comments == "after")
        #expect(font.presets.count == 3)
        #expect(text.contains { $0.hasPrefix("INAM") && $0.contains("without the RIFF pad byte") })
    }

    @Test func oddSampleDataOffsetIsAligned() throws {
        // An odd-sized INFO chunk without its pad puts smpl at an odd offset; the samples must
        // still read as the right 16-bit values.
        var out = RIFFWriter()
        let riff = out.begin("RIFF")
        out.fourCC("sfbk")
        let info = out.begin("LIST")
        out.fourCC("INFO")
        let ifil = out.begin("ifil")
        out.u16(2); out.u16(1)
        out.end(ifil)
        out.fourCC("INAM")
        out.u32(3)
        out.bytes += Array("Ab\0".utf8)
        out.end(info)
        out.bytes.removeLast()  // the INFO list's own pad byte is missing too
        let sdta = try TestBanks.list("sdta", in: Self.valid)
        out.bytes += Self.valid[sdta.offset...]
        out.end(riff)
        let (font, text) = try warnings(out.bytes)
        let original = TestBanks.rich()
        withExtendedLifetime(original) {
            #expect(Array(font.sampleData.words) == Array(original.sampleData.words))
        }
        #expect(text.contains { $0.contains("copied to align") })
        #expect(text.contains { $0.hasPrefix("LIST") && $0.contains("without the RIFF pad byte") })
    }

    @Test func loopPointsOutsideTheSample() throws {
        var bank = TestBanks.rich()
        bank.samples[0].loopEnd = bank.samples[0].end + 5
        bank.samples[1].loopStart = 50
        bank.samples[1].loopEnd = 40
        bank.samples[2].end = 1_000_000
        let (font, text) = try warnings(bank.serialized())
        #expect(font.samples == bank.samples)  // kept as they are: the engine clamps
        #expect(text.filter { $0.contains("loop") }.count == 2)
        #expect(text.contains { $0.contains("'Pad R' span") && $0.contains("outside smpl") })
    }

    @Test func unknownGeneratorsAreKept() throws {
        var bank = TestBanks.rich()
        bank.instruments[1].zones[0].generators.insert(Generator(rawType: 99, amount: 5), at: 0)
        bank.instruments[1].zones[1].generators.insert(Generator(rawType: 60, amount: 1), at: 0)
        let (font, text) = try warnings(bank.serialized())
        #expect(font.instruments == bank.instruments)
        #expect(text.count == 1 && text[0].hasPrefix("igen") && text[0].contains("2 unknown generator"))
    }

    @Test func romSamplesAndDanglingReferences() throws {
        var bank = TestBanks.rich()
        bank.samples[1].sampleType = .romLeft
        bank.presets[2].zones.append(Zone(generators: [Generator(.instrument, 40)]))
        bank.instruments[1].zones.append(Zone(generators: [Generator(.sampleID, 33)]))
        let (font, text) = try warnings(bank.serialized())
        #expect(font.presets == bank.presets && font.instruments == bank.instruments)
        #expect(text.contains { $0.hasPrefix("shdr") && $0.contains("'Pad L' is in ROM") })
        #expect(text.contains { $0.hasPrefix("pgen") && $0.contains("refers to instrument 40") })
        #expect(text.contains { $0.hasPrefix("igen") && $0.contains("refers to sample 33") })
        // The ROM zone and the dangling zones do not play.
        #expect(font.regions(forPresetAt: 2).map(\.sampleIndex) == [2])
    }

    @Test func zonesReferencingNothingAreDropped() throws {
        var bank = TestBanks.rich()
        bank.presets[1].zones.insert(Zone(generators: [Generator(.pan, 9)]), at: 1)
        bank.instruments[0].zones.append(Zone(generators: [Generator(.pan, 9)], modulators: [Modulator.defaults[0]]))
        let (font, text) = try warnings(bank.serialized())
        #expect(font.presets == TestBanks.rich().presets && font.instruments == TestBanks.rich().instruments)
        #expect(text.filter { $0.contains("is not the first zone; ignored") }.count == 2)
    }

    @Test func generatorsAfterTheTerminalOneAreIgnored() throws {
        var bank = TestBanks.rich()
        bank.presets[2].zones[0].generators = [Generator(.instrument, 1)]
        var bytes = bank.serialized()
        // The writer never puts a generator after the instrument one, so insert one by hand
        // before the terminal record.
        let gen = try TestBanks.chunk("pgen", in: bytes)
        var data = Array(bytes[gen.dataRange])
        data.insert(contentsOf: [UInt8(GeneratorType.pan.rawValue), 0, 7, 0], at: data.count - 4)
        bytes = try TestBanks.replacing("pgen", with: data, in: bytes)
        // ... and move the terminal bag past it, so it belongs to the last zone.
        let pbag = try TestBanks.chunk("pbag", in: bytes)
        let terminalBag = pbag.dataRange.upperBound - 4
        TestBanks.putU16(UInt16(bytes[terminalBag]) + 1, at: terminalBag, in: &bytes)
        let (font, text) = try warnings(bytes)
        #expect(font.presets[2].zones[0].generators == [Generator(.instrument, 1)])
        #expect(text.contains { $0.contains("1 generator(s) after the instrument generator ignored") })
    }

    @Test func badSm24IsIgnored() throws {
        let bank = TestBanks.rich(twentyFourBit: true)
        let bytes = bank.serialized()
        let sm24 = try TestBanks.chunk("sm24", in: bytes, list: "sdta")
        let shortened = try TestBanks.replacing("sm24", with: Array(bytes[sm24.dataRange].dropLast(4)), in: bytes, list: "sdta")
        let (font, text) = try warnings(shortened)
        #expect(font.sampleData.lowBytes == nil)
        withExtendedLifetime(bank) { #expect(Array(font.sampleData.words) == Array(bank.sampleData.words)) }
        #expect(text.contains { $0.hasPrefix("sm24") && $0.contains("24-bit data ignored") })
    }

    @Test func sm24RoundedUpToEvenIsAccepted() throws {
        let bank = TestBanks.rich(twentyFourBit: true)
        let bytes = bank.serialized()
        let sm24 = try TestBanks.chunk("sm24", in: bytes, list: "sdta")
        let points = bank.sampleData.words.count
        #expect(points % 2 == 1 && sm24.size == points)
        let even = try TestBanks.replacing("sm24", with: Array(bytes[sm24.dataRange]) + [0], in: bytes, list: "sdta")
        let (font, text) = try warnings(even)
        #expect(text.isEmpty)
        let low = try #require(font.sampleData.lowBytes)
        withExtendedLifetime(bank) { #expect(Array(low) == Array(bank.sampleData.lowBytes!)) }
    }

    @Test func sf3WithOnlyOggSamplesIsNeverCopied() throws {
        // An SF3 bank whose smpl lands at an odd offset: its Ogg bytes are read in place.
        let ogg = Array("OggS fake stream bytes".utf8) + [0]
        let pool = MappedFile(copying: ogg)
        var info = SoundFontInfo()
        info.versionMajor = 3
        info.versionMinor = 1
        info.name = "SF3"
        let sample = SampleHeader(name: "ogg", start: 0, end: UInt32(ogg.count), loopStart: 0, loopEnd: 10,
                                  sampleRate: 44_100, originalPitch: 60,
                                  sampleType: SampleType(rawValue: SampleType.mono.rawValue | SampleType.vorbisFlag))
        let bank = SoundFont(info: info, presets: [], instruments: [], samples: [sample],
                             sampleData: SampleData(bytes: pool.bytes, lowBytes: nil, owner: pool))
        let valid = bank.serialized()
        var out = RIFFWriter()
        let riff = out.begin("RIFF")
        out.fourCC("sfbk")
        let list = out.begin("LIST")
        out.fourCC("INFO")
        let ifil = out.begin("ifil")
        out.u16(3); out.u16(1)
        out.end(ifil)
        out.fourCC("INAM")
        out.u32(3)
        out.bytes += Array("Ab\0".utf8)
        out.end(list)
        out.bytes.removeLast()
        let sdta = try TestBanks.list("sdta", in: valid)
        out.bytes += valid[sdta.offset...]
        out.end(riff)
        let (font, text) = try warnings(out.bytes)
        #expect(font.isSF3 && font.samples == [sample])
        #expect(Array(font.sampleData.bytes) == ogg)
        #expect(!text.contains { $0.contains("copied") })
    }

    @Test func unpitchedSamplesPlayAtSixty() throws {
        var bank = TestBanks.rich()
        bank.samples[0].originalPitch = 255
        bank.samples[1].originalPitch = 200
        let (font, text) = try warnings(bank.serialized())
        #expect(font.samples[0].originalPitch == 60 && font.samples[1].originalPitch == 60)
        #expect(text.count == 1 && text[0].contains("original pitch 200"))
    }

    @Test func missingVersionAndNameAreWarnings() throws {
        var bytes = try TestBanks.replacing("ifil", with: nil, in: Self.valid, list: "INFO")
        bytes = try TestBanks.replacing("INAM", with: nil, in: bytes, list: "INFO")
        let (font, text) = try warnings(bytes)
        #expect(font.info.versionMajor == 2 && font.info.versionMinor == 1 && font.info.name.isEmpty)
        #expect(text.contains { $0.hasPrefix("ifil") } && text.contains { $0.hasPrefix("INAM") })
    }
}
