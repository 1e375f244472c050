extension SoundFont {
    /// Reads an SF2 or SF3 bank from bytes in memory; `name` is used in errors and warnings.
    /// `sampleDecoder` turns SF3's compressed samples into PCM when a voice needs them (without
    /// one they cannot be played); PolyphonSoundFont's `init(bytes:name:)` passes its Ogg Vorbis
    /// decoder.
    /// - Throws: ``SoundFontError`` when the structure is broken. Readable sloppiness is listed
    ///   in ``warnings``.
    public init(bytes: [UInt8], name: String, sampleDecoder: (any CompressedSampleDecoder)?) throws(SoundFontError) {
        let storage = OwnedBytes(copying: bytes)
        var reader = SoundFontReader(bytes: storage.bytes, owner: storage, name: name, sampleDecoder: sampleDecoder)
        self = try reader.read()
    }

    /// Reads a bank from bytes kept alive by `owner` (a memory mapping, say): the sample pool
    /// points into them, so nothing is copied.
    package init(bytes: UnsafeRawBufferPointer, owner: AnyObject, name: String,
                 sampleDecoder: (any CompressedSampleDecoder)?) throws(SoundFontError) {
        var reader = SoundFontReader(bytes: bytes, owner: owner, name: name, sampleDecoder: sampleDecoder)
        self = try reader.read()
    }
}

/// Parses the RIFF `sfbk` form (SF2 2.04 §4–7) into the bank model, validating as it goes.
///
/// Structure that cannot be read around throws ``SoundFontError``; everything else the file gets
/// wrong becomes a ``SoundFontWarning``. Reads integers straight from the buffer, never past it.
struct SoundFontReader {
    let bytes: UnsafeRawBufferPointer
    /// Keeps ``bytes`` alive; the sample pool holds on to it.
    let owner: AnyObject
    let name: String
    let sampleDecoder: (any CompressedSampleDecoder)?
    var warnings: [SoundFontWarning] = []

    init(bytes: UnsafeRawBufferPointer, owner: AnyObject, name: String, sampleDecoder: (any CompressedSampleDecoder)?) {
        self.bytes = bytes
        self.owner = owner
        self.name = name
        self.sampleDecoder = sampleDecoder
    }

    /// Record sizes of the `pdta` sub-chunks (SF2 2.04 §7).
    static let recordSizes: [String: Int] = [
        "phdr": 38, "pbag": 4, "pmod": 10, "pgen": 4, "inst": 22, "ibag": 4, "imod": 10, "igen": 4, "shdr": 46,
    ]
    /// Fewest records each chunk must have: a header table needs at least its terminal record.
    static let minimumRecords: [String: Int] = [
        "phdr": 1, "pbag": 1, "pmod": 0, "pgen": 0, "inst": 1, "ibag": 1, "imod": 0, "igen": 0, "shdr": 1,
    ]

    func error(_ chunk: String, _ offset: Int, _ kind: SoundFontError.Kind) -> SoundFontError {
        SoundFontError(file: name, chunk: chunk, offset: offset, kind: kind)
    }

    mutating func warn(_ chunk: String, _ offset: Int?, _ message: String) {
        warnings.append(SoundFontWarning(chunk: chunk, offset: offset, message: message))
    }

    mutating func read() throws(SoundFontError) -> SoundFont {
        guard bytes.count >= 12, bytes.fourCC(0) == "RIFF" else { throw error("RIFF", 0, .notRIFF) }
        let form = bytes.fourCC(8)
        guard form == "sfbk" else { throw error("RIFF", 0, .unexpectedForm(form)) }
        var riffEnd = 8 + Int(bytes.u32(4))
        guard riffEnd >= 12 else {
            throw error("RIFF", 0, .malformed("RIFF size \(riffEnd - 8) is too small to hold the form type"))
        }
        if riffEnd > bytes.count {
            // A missing final pad byte is harmless; anything more is a truncated file.
            guard riffEnd - bytes.count <= 1 else {
                throw error("RIFF", 0, .chunkPastEnd(declared: riffEnd - 8, available: bytes.count - 8))
            }
            warn("RIFF", 0, "RIFF size counts a pad byte the file does not have")
            riffEnd = bytes.count
        } else if bytes.count - riffEnd > 1 {
            warn("RIFF", riffEnd, "\(bytes.count - riffEnd) bytes after the RIFF chunk ignored")
        }

        let top = try RIFFChunkWalker.chunks(in: bytes, range: 12..<riffEnd, container: "RIFF",
                                             file: name, warnings: &warnings)
        var lists: [String: RIFFChunk] = [:]
        for chunk in top {
            guard chunk.id == "LIST" else {
                warn(chunk.id, chunk.offset, "unexpected chunk at top level ignored")
                continue
            }
            guard chunk.size >= 4 else {
                throw error("LIST", chunk.offset, .malformed("LIST chunk too small for its type"))
            }
            let type = bytes.fourCC(chunk.dataOffset)
            if lists[type] != nil {
                warn(type, chunk.offset, "duplicate \(type) list ignored")
            } else {
                lists[type] = chunk
            }
        }
        func list(_ type: String) throws(SoundFontError) -> (chunk: RIFFChunk, body: Range<Int>) {
            guard let chunk = lists[type] else { throw error(type, 12, .missingChunk) }
            return (chunk, (chunk.dataOffset + 4)..<chunk.dataRange.upperBound)
        }
        let infoList = try list("INFO")
        let sdtaList = try list("sdta")
        let pdtaList = try list("pdta")

        let info = try readInfo(infoList.body)
        let (smpl, sm24) = try sampleChunks(sdtaList.body)
        let tables = try pdtaChunks(pdtaList.body, listOffset: pdtaList.chunk.offset)

        let samples = readSamples(tables["shdr"]!, smplBytes: smpl?.size ?? 0)
        let sampleData = sampleData(
            smpl, sm24, isSF3: info.versionMajor >= 3,
            hasPCMSamples: samples.contains { !$0.sampleType.isCompressed && !$0.sampleType.isROM })
        let instrumentHeaders = try readHeaders(
            tables["inst"]!, recordSize: 22, terminalName: "EOI", bags: tables["ibag"]!,
            generators: tables["igen"]!, modulators: tables["imod"]!, terminal: .sampleID,
            targetCount: samples.count, targetName: "sample")
        var instruments = instrumentHeaders.map { Instrument(name: $0.name, globalZone: $0.global, zones: $0.zones) }
        if let rules = lists[ZoneRulesChunk.listType] {
            try readZoneRules(rules, into: &instruments, zoneBags: instrumentHeaders.map { $0.zoneBags })
        }
        let presetHeaders = try readHeaders(
            tables["phdr"]!, recordSize: 38, terminalName: "EOP", bags: tables["pbag"]!,
            generators: tables["pgen"]!, modulators: tables["pmod"]!, terminal: .instrument,
            targetCount: instruments.count, targetName: "instrument")
        let phdr = tables["phdr"]!
        var presets = presetHeaders.enumerated().map { i, header in
            let at = phdr.dataOffset + i * 38
            return Preset(name: header.name, program: bytes.u16(at + 20), bank: bytes.u16(at + 22),
                          globalZone: header.global, zones: header.zones,
                          library: bytes.u32(at + 26), genre: bytes.u32(at + 30),
                          morphology: bytes.u32(at + 34))
        }
        if let rules = lists[ZoneRulesChunk.listType] { try readControllerDefaults(rules, into: &presets) }

        return SoundFont(info: info, presets: presets, instruments: instruments, samples: samples,
                         sampleData: sampleData, warnings: warnings)
    }

    // MARK: - INFO

    private mutating func readInfo(_ body: Range<Int>) throws(SoundFontError) -> SoundFontInfo {
        var info = SoundFontInfo()
        var sawVersion = false, sawName = false, sawEngine = false
        let chunks = try RIFFChunkWalker.chunks(in: bytes, range: body, container: "INFO",
                                                file: name, warnings: &warnings)
        let bytes = self.bytes
        for chunk in chunks {
            let text = { bytes.string(chunk.dataOffset, maxCount: chunk.size) }
            switch chunk.id {
            case "ifil", "iver":
                guard chunk.size >= 4 else {
                    warn(chunk.id, chunk.offset, "version chunk of \(chunk.size) bytes ignored (4 expected)")
                    continue
                }
                let major = bytes.u16(chunk.dataOffset), minor = bytes.u16(chunk.dataOffset + 2)
                if chunk.id == "ifil" {
                    info.versionMajor = major
                    info.versionMinor = minor
                    sawVersion = true
                } else {
                    info.romVersionMajor = major
                    info.romVersionMinor = minor
                }
            case "isng": info.soundEngine = text(); sawEngine = true
            case "INAM": info.name = text(); sawName = true
            case "irom": info.romName = text()
            case "ICRD": info.creationDate = text()
            case "IENG": info.engineers = text()
            case "IPRD": info.product = text()
            case "ICOP": info.copyright = text()
            case "ICMT": info.comments = text()
            case "ISFT": info.software = text()
            default: warn(chunk.id, chunk.offset, "unknown INFO chunk ignored")
            }
        }
        if !sawVersion {
            warn("ifil", body.lowerBound, "missing version chunk; assuming 2.01")
            info.versionMajor = 2
            info.versionMinor = 1
        }
        if !sawName { warn("INAM", body.lowerBound, "missing bank name") }
        if !sawEngine { info.soundEngine = "EMU8000" }
        return info
    }

    // MARK: - sdta

    /// The `smpl` and `sm24` chunks of the `sdta` list, when present.
    private mutating func sampleChunks(_ body: Range<Int>) throws(SoundFontError) -> (smpl: RIFFChunk?, sm24: RIFFChunk?) {
        let chunks = try RIFFChunkWalker.chunks(in: bytes, range: body, container: "sdta",
                                                file: name, warnings: &warnings)
        let smpl = chunks.first { $0.id == "smpl" }
        if smpl == nil { warn("smpl", body.lowerBound, "no sample data") }
        return (smpl, chunks.first { $0.id == "sm24" })
    }

    /// The sample pool, pointing into the file.
    ///
    /// When a missing pad byte earlier in the file left `smpl` at an odd offset and some sample
    /// is PCM, the words are copied once so they can be read as aligned `Int16`; SF3 banks whose
    /// samples are all Ogg streams read bytes only and are never copied.
    private mutating func sampleData(_ smpl: RIFFChunk?, _ sm24: RIFFChunk?, isSF3: Bool,
                                     hasPCMSamples: Bool) -> SampleData {
        guard let smpl else {
            return SampleData(bytes: UnsafeRawBufferPointer(start: nil, count: 0), lowBytes: nil, owner: nil,
                              decoder: sampleDecoder)
        }
        var words = UnsafeRawBufferPointer(rebasing: bytes[smpl.dataRange])
        var owner: AnyObject = self.owner
        if smpl.dataOffset & 1 == 1, hasPCMSamples {
            let copy = OwnedBytes(copying: Array(words))
            words = copy.bytes
            owner = SampleDataOwners(self.owner, copy)
            warn("smpl", smpl.offset, "sample data at an odd offset was copied to align it")
        }

        var lowBytes: UnsafeBufferPointer<UInt8>?
        if let sm24 {
            // One low byte per sample point; the chunk may be one byte longer to keep its size even.
            let points = smpl.size / 2
            if isSF3 {
                warn("sm24", sm24.offset, "24-bit data ignored in an SF3 bank")
            } else if sm24.size == points || sm24.size == points + (points & 1) {
                let raw = UnsafeRawBufferPointer(rebasing: bytes[sm24.dataOffset..<(sm24.dataOffset + points)])
                lowBytes = raw.bindMemory(to: UInt8.self)
            } else {
                warn("sm24", sm24.offset,
                     "size \(sm24.size) does not match \(points) sample points; 24-bit data ignored")
            }
        }
        return SampleData(bytes: words, lowBytes: lowBytes, owner: owner, decoder: sampleDecoder)
    }

    // MARK: - pdta

    private mutating func pdtaChunks(_ body: Range<Int>, listOffset: Int) throws(SoundFontError) -> [String: RIFFChunk] {
        let chunks = try RIFFChunkWalker.chunks(in: bytes, range: body, container: "pdta",
                                                file: name, warnings: &warnings)
        var tables: [String: RIFFChunk] = [:]
        for chunk in chunks {
            guard let recordSize = Self.recordSizes[chunk.id] else {
                warn(chunk.id, chunk.offset, "unknown pdta chunk ignored")
                continue
            }
            if tables[chunk.id] != nil {
                warn(chunk.id, chunk.offset, "duplicate chunk ignored")
                continue
            }
            guard chunk.size % recordSize == 0 else {
                throw error(chunk.id, chunk.offset, .badRecordSize(size: chunk.size, recordSize: recordSize))
            }
            let count = chunk.size / recordSize, minimum = Self.minimumRecords[chunk.id]!
            guard count >= minimum else {
                throw error(chunk.id, chunk.offset, .tooFewRecords(count: count, minimum: minimum))
            }
            tables[chunk.id] = chunk
        }
        for id in ["phdr", "pbag", "pmod", "pgen", "inst", "ibag", "imod", "igen", "shdr"] where tables[id] == nil {
            throw error(id, listOffset, .missingChunk)
        }
        return tables
    }

    /// True when the fixed-size name at `offset` is a terminal record's: `EOP`, `EOI`, `EOS` as the
    /// spec names them, or (when `orEmpty`) empty, as MuseScore's SF3 writer leaves them.
    private func isTerminalName(_ offset: Int, _ expected: String, orEmpty: Bool) -> Bool {
        // Compared on the raw bytes (ASCII, case-insensitive, spaces trimmed): no String work.
        var name: [UInt8] = []
        for i in offset..<(offset + 20) {
            let byte = bytes[i]
            if byte == 0 { break }
            if byte != 0x20 { name.append(byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte) }
        }
        return name.elementsEqual(expected.utf8) || (orEmpty && name.isEmpty)
    }

    private mutating func readSamples(_ shdr: RIFFChunk, smplBytes: Int) -> [SampleHeader] {
        var count = shdr.size / 46
        if isTerminalName(shdr.dataOffset + (count - 1) * 46, "EOS", orEmpty: true) {
            count -= 1
        } else {
            warn("shdr", shdr.offset, "missing terminal EOS record")
        }
        var samples: [SampleHeader] = []
        samples.reserveCapacity(count)
        for i in 0..<count {
            let at = shdr.dataOffset + i * 46
            let name = bytes.string(at, maxCount: 20)
            var pitch = bytes.u8(at + 40)
            if pitch > 127 {
                // 255 means "unpitched" (SF2 2.04 §7.10); other values past 127 are invalid.
                // Both play at 60, as FluidSynth does.
                if pitch != 255 { warn("shdr", at, "sample '\(name)' original pitch \(pitch) read as 60") }
                pitch = 60
            }
            let header = SampleHeader(
                name: name, start: bytes.u32(at + 20), end: bytes.u32(at + 24),
                loopStart: bytes.u32(at + 28), loopEnd: bytes.u32(at + 32), sampleRate: bytes.u32(at + 36),
                originalPitch: pitch, pitchCorrection: Int8(bitPattern: bytes.u8(at + 41)),
                sampleLink: bytes.u16(at + 42), sampleType: SampleType(rawValue: bytes.u16(at + 44)))
            validate(header, at: at, smplBytes: smplBytes)
            samples.append(header)
        }
        return samples
    }

    private mutating func validate(_ s: SampleHeader, at offset: Int, smplBytes: Int) {
        let label = "sample '\(s.name)'"
        if s.sampleType.isROM {
            warn("shdr", offset, "\(label) is in ROM; it has no data in this file and will not play")
            return
        }
        if s.sampleType.isCompressed {
            if s.end > smplBytes || s.start > s.end {
                warn("shdr", offset, "\(label) Ogg stream \(s.start)..<\(s.end) lies outside smpl (\(smplBytes) bytes)")
            }
            return
        }
        let points = UInt32(clamping: smplBytes / 2)
        if s.end > points || s.start > s.end {
            warn("shdr", offset, "\(label) span \(s.start)..<\(s.end) lies outside smpl (\(points) points)")
        } else if s.loopStart < s.start || s.loopEnd > s.end || s.loopEnd < s.loopStart {
            warn("shdr", offset,
                 "\(label) loop \(s.loopStart)..<\(s.loopEnd) is outside \(s.start)..<\(s.end) or reversed")
        }
        if s.sampleRate == 0 { warn("shdr", offset, "\(label) has sample rate 0") }
    }

    /// One `phdr` or `inst` entry with its zones.
    struct HeaderZones {
        var name: String
        var global: Zone?
        var zones: [Zone]
        /// The bag index of each of ``zones``.
        var zoneBags: [Int] = []
    }

    /// Reads a header table (`phdr`/`inst`) and the bag, generator and modulator tables below it.
    private mutating func readHeaders(
        _ headers: RIFFChunk, recordSize: Int, terminalName: String, bags: RIFFChunk,
        generators: RIFFChunk, modulators: RIFFChunk, terminal: GeneratorType,
        targetCount: Int, targetName: String
    ) throws(SoundFontError) -> [HeaderZones] {
        let bagCount = bags.size / 4, genCount = generators.size / 4, modCount = modulators.size / 10
        // The bag index follows the name in `inst`, and name, program and bank in `phdr`.
        let bagField = recordSize == 38 ? 24 : 20

        var count = headers.size / recordSize
        var terminalBag = bagCount - 1
        let lastOffset = headers.dataOffset + (count - 1) * recordSize
        // A last record with another name (MuseScore's SF3 writer leaves it empty) but no zones
        // of its own is a terminal record too; FluidSynth always drops the last record.
        if isTerminalName(lastOffset, terminalName, orEmpty: false)
            || Int(bytes.u16(lastOffset + bagField)) >= bagCount - 1 {
            count -= 1
            terminalBag = Int(bytes.u16(lastOffset + bagField))
        } else {
            warn(headers.id, headers.offset, "missing terminal \(terminalName) record")
        }

        // Header → bag indexes must rise and stay inside the bag table.
        var bagStarts: [Int] = []
        bagStarts.reserveCapacity(count + 1)
        for i in 0...count {
            let at = headers.dataOffset + i * recordSize
            let index = i < count ? Int(bytes.u16(at + bagField)) : terminalBag
            if let previous = bagStarts.last, index < previous {
                throw error(headers.id, at, .nonMonotonicIndex(record: i, index: index, previous: previous))
            }
            guard index <= bagCount else {
                throw error(headers.id, at, .indexOutOfRange(record: i, index: index, count: bagCount))
            }
            bagStarts.append(index)
        }

        // Bag → generator/modulator indexes likewise. A bag past the table (no terminal bag)
        // ends at the table's end.
        var genStarts = [Int](), modStarts = [Int]()
        genStarts.reserveCapacity(bagCount + 1)
        modStarts.reserveCapacity(bagCount + 1)
        for b in 0..<bagCount {
            let at = bags.dataOffset + b * 4
            let g = Int(bytes.u16(at)), m = Int(bytes.u16(at + 2))
            if b > 0, g < genStarts[b - 1] {
                throw error(bags.id, at, .nonMonotonicIndex(record: b, index: g, previous: genStarts[b - 1]))
            }
            if b > 0, m < modStarts[b - 1] {
                throw error(bags.id, at, .nonMonotonicIndex(record: b, index: m, previous: modStarts[b - 1]))
            }
            guard g <= genCount else {
                throw error(bags.id, at, .indexOutOfRange(record: b, index: g, count: genCount))
            }
            guard m <= modCount else {
                throw error(bags.id, at, .indexOutOfRange(record: b, index: m, count: modCount))
            }
            genStarts.append(g)
            modStarts.append(m)
        }
        genStarts.append(genCount)
        modStarts.append(modCount)

        var unknownGenerators = 0, firstUnknown = 0
        var ignoredAfterTerminal = 0, firstIgnored = 0
        var result: [HeaderZones] = []
        result.reserveCapacity(count)
        for i in 0..<count {
            let headerOffset = headers.dataOffset + i * recordSize
            var entry = HeaderZones(name: bytes.string(headerOffset, maxCount: 20), global: nil, zones: [])
            for b in bagStarts[i]..<bagStarts[i + 1] {
                var zone = Zone()
                var hasTerminal = false
                let genRange = genStarts[b]..<genStarts[b + 1]
                zone.generators.reserveCapacity(genRange.count)
                for g in genRange {
                    let at = generators.dataOffset + g * 4
                    if hasTerminal {
                        // SF2 2.04 §8.1.2: generators after the terminal one are ignored.
                        if ignoredAfterTerminal == 0 { firstIgnored = at }
                        ignoredAfterTerminal += 1
                        continue
                    }
                    let generator = Generator(rawType: bytes.u16(at), amount: bytes.i16(at + 2))
                    if generator.type == nil || generator.type == .endOper {
                        if unknownGenerators == 0 { firstUnknown = at }
                        unknownGenerators += 1
                    }
                    zone.generators.append(generator)
                    if generator.rawType == terminal.rawValue {
                        hasTerminal = true
                        let target = Int(UInt16(bitPattern: generator.amount))
                        if target >= targetCount {
                            warn(generators.id, at, "zone \(b) of '\(entry.name)' refers to \(targetName) "
                                 + "\(target) but the bank has \(targetCount); the zone will not play")
                        }
                    }
                }
                for m in modStarts[b]..<modStarts[b + 1] {
                    let at = modulators.dataOffset + m * 10
                    zone.modulators.append(Modulator(
                        source: ModulatorSource(rawValue: bytes.u16(at)), destination: bytes.u16(at + 2),
                        amount: bytes.i16(at + 4), amountSource: ModulatorSource(rawValue: bytes.u16(at + 6)),
                        transform: bytes.u16(at + 8)))
                }
                if hasTerminal {
                    entry.zones.append(zone)
                    entry.zoneBags.append(b)
                } else if b == bagStarts[i] {
                    entry.global = zone  // SF2 2.04 §7.3: a first zone without the terminal generator
                } else if !zone.generators.isEmpty || !zone.modulators.isEmpty {
                    warn(bags.id, bags.dataOffset + b * 4,
                         "zone \(b) of '\(entry.name)' has no \(terminal == .instrument ? "instrument" : "sample") "
                         + "and is not the first zone; ignored")
                }
            }
            result.append(entry)
        }
        if unknownGenerators > 0 {
            warn(generators.id, firstUnknown, "\(unknownGenerators) unknown generator(s) kept and ignored")
        }
        if ignoredAfterTerminal > 0 {
            warn(generators.id, firstIgnored,
                 "\(ignoredAfterTerminal) generator(s) after the \(terminal == .instrument ? "instrument" : "sampleID") "
                 + "generator ignored")
        }
        return result
    }
}

/// Keeps both the mapping (for `sm24`) and an aligned copy of `smpl` alive.
private final class SampleDataOwners {
    let first: AnyObject
    let second: AnyObject
    init(_ first: AnyObject, _ second: AnyObject) {
        self.first = first
        self.second = second
    }
}
