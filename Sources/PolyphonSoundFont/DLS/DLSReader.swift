import PolyphonSoundFontCore

/// Parses a `RIFF DLS ` collection (DLS Level 1 and 2) into the SoundFont bank model.
///
/// Instruments become presets (bank from `ulBank`: 128 for drums (bit 31), else the MIDI bank
/// MSB, or the LSB when the MSB is 0; program from `ulInstrument`), each with one instrument
/// whose zones are the regions. Instrument-level articulation becomes the instrument's global
/// zone; a region's own articulation replaces it (DLS semantics), so the region's zone resets
/// what the global zone set and cancels its modulators. Waves become samples (8-bit and 16-bit
/// PCM, first channel), copied into memory the bank owns. See ``DLSArticulation`` for the
/// connection mapping.
struct DLSReader {
    let file: MappedFile
    let name: String
    var bytes: UnsafeRawBufferPointer { file.bytes }
    var warnings: [SoundFontWarning] = []

    init(file: MappedFile, name: String) {
        self.file = file
        self.name = name
    }

    /// A parsed `wave`.
    struct Wave {
        var name: String
        var pcm: [Int16]
        var sampleRate: UInt32
        var sample: DLSWaveSample?
    }

    /// A parsed region (`rgn ` / `rgn2`).
    struct Region {
        var keyRange: ClosedRange<UInt8>
        var velocityRange: ClosedRange<UInt8>
        var keyGroup: UInt16
        var sample: DLSWaveSample?
        var channel: UInt32
        var tableIndex: Int
        var connections: [DLSConnection]?
        var offset: Int
    }

    func error(_ chunk: String, _ offset: Int, _ kind: SoundFontError.Kind) -> SoundFontError {
        SoundFontError(file: name, format: .dls, chunk: chunk, offset: offset, kind: kind)
    }

    mutating func warn(_ chunk: String, _ offset: Int?, _ message: String) {
        warnings.append(SoundFontWarning(chunk: chunk, offset: offset, message: message))
    }

    /// The chunks in `range`.
    mutating func chunks(_ range: Range<Int>, container: String) throws(SoundFontError) -> [RIFFChunk] {
        try RIFFChunkWalker.chunks(in: bytes, range: range, container: container, file: name, format: .dls,
                                   warnings: &warnings)
    }

    /// The list type and body of a `LIST` chunk.
    func listBody(_ chunk: RIFFChunk) throws(SoundFontError) -> (type: String, body: Range<Int>) {
        guard chunk.size >= 4 else { throw error("LIST", chunk.offset, .chunkTooSmall(size: chunk.size, minimum: 4)) }
        return (bytes.fourCC(chunk.dataOffset), (chunk.dataOffset + 4)..<chunk.dataRange.upperBound)
    }

    func require(_ chunk: RIFFChunk, _ minimum: Int) throws(SoundFontError) {
        guard chunk.size >= minimum else {
            throw error(chunk.id, chunk.offset, .chunkTooSmall(size: chunk.size, minimum: minimum))
        }
    }

    mutating func read() throws(SoundFontError) -> SoundFont {
        guard bytes.count >= 12, bytes.fourCC(0) == "RIFF" else {
            throw error("RIFF", 0, .notRIFF)
        }
        let form = bytes.fourCC(8)
        guard form == "DLS " else { throw error("RIFF", 0, .unexpectedForm(form)) }
        var riffEnd = 8 + Int(bytes.u32(4))
        guard riffEnd >= 12 else { throw error("RIFF", 0, .chunkTooSmall(size: riffEnd - 8, minimum: 4)) }
        if riffEnd > bytes.count {
            guard riffEnd - bytes.count <= 1 else {
                throw error("RIFF", 0, .chunkPastEnd(declared: riffEnd - 8, available: bytes.count - 8))
            }
            riffEnd = bytes.count
        }

        var info = SoundFontInfo()
        info.software = "DLS collection"
        var instrumentLists: [RIFFChunk] = []
        var poolTable: RIFFChunk?
        var wavePool: (chunk: RIFFChunk, body: Range<Int>)?
        for chunk in try chunks(12..<riffEnd, container: "RIFF") {
            switch chunk.id {
            case "LIST":
                let (type, body) = try listBody(chunk)
                switch type {
                case "lins":
                    instrumentLists = try chunks(body, container: "lins").filter { c in
                        c.id == "LIST" && c.size >= 4 && bytes.fourCC(c.dataOffset) == "ins "
                    }
                case "wvpl": wavePool = (chunk, body)
                case "INFO": try readInfo(body, into: &info)
                default: break
                }
            case "ptbl": poolTable = chunk
            case "colh", "vers", "dlid": break
            default: warn(chunk.id, chunk.offset, "unknown chunk ignored")
            }
        }
        guard let wavePool else { throw error("wvpl", 12, .missingChunk) }
        let (waves, waveOffsets) = try readWaves(wavePool.body)
        let table = try readPoolTable(poolTable, waveOffsets: waveOffsets, poolStart: wavePool.body.lowerBound,
                                      waveCount: waves.count)

        // SF2 zones index samples and instruments with 16-bit unsigned numbers.
        guard waves.count <= 0xFFFF else {
            throw error("wvpl", wavePool.chunk.offset, .malformed("\(waves.count) waves; at most 65535 can be indexed"))
        }
        guard instrumentLists.count <= 0xFFFF else {
            throw error("lins", 12, .malformed("\(instrumentLists.count) instruments; at most 65535 can be indexed"))
        }
        var builder = SoundFont.Builder(name: info.name)
        builder.info = info
        var sampleOfWave: [Int?] = []
        for wave in waves {
            guard !wave.pcm.isEmpty else { sampleOfWave.append(nil); continue }
            var loop: Range<Int>?
            if let l = wave.sample?.loop {
                let start = Int(l.start), end = Int(l.start) + Int(l.length)
                if start < end, end <= wave.pcm.count { loop = start..<end }
            }
            let index = builder.addSample(
                wave.pcm, name: String(wave.name.prefix(20)), sampleRate: wave.sampleRate,
                originalPitch: wave.sample?.unityNote ?? 60,
                pitchCorrection: Int8(clamping: wave.sample?.fineTune ?? 0), loop: loop)
            sampleOfWave.append(index)
        }

        for list in instrumentLists {
            try readInstrument(list, waves: waves, table: table, sampleOfWave: sampleOfWave, builder: &builder)
        }
        var font = builder.build()
        font.warnings = warnings
        return font
    }

    // MARK: - INFO

    private mutating func readInfo(_ body: Range<Int>, into info: inout SoundFontInfo) throws(SoundFontError) {
        for chunk in try chunks(body, container: "INFO") {
            let text = bytes.string(chunk.dataOffset, maxCount: chunk.size)
            switch chunk.id {
            case "INAM": info.name = text
            case "ICOP": info.copyright = text
            case "ICMT": info.comments = text
            case "IENG": info.engineers = text
            case "ICRD": info.creationDate = text
            case "ISFT": info.software = text
            case "IPRD": info.product = text
            default: break
            }
        }
    }

    private mutating func listName(_ body: Range<Int>) throws(SoundFontError) -> String? {
        for chunk in try chunks(body, container: "LIST") where chunk.id == "LIST" {
            let (type, infoBody) = try listBody(chunk)
            guard type == "INFO" else { continue }
            for entry in try chunks(infoBody, container: "INFO") where entry.id == "INAM" {
                return bytes.string(entry.dataOffset, maxCount: entry.size)
            }
        }
        return nil
    }

    // MARK: - Wave pool

    /// The waves in pool order, and each wave's offset from the start of the pool's body.
    private mutating func readWaves(_ body: Range<Int>) throws(SoundFontError) -> ([Wave], [Int: Int]) {
        var waves: [Wave] = []
        var offsets: [Int: Int] = [:]
        for chunk in try chunks(body, container: "wvpl") where chunk.id == "LIST" {
            let (type, waveBody) = try listBody(chunk)
            guard type == "wave" else { continue }
            offsets[chunk.offset - body.lowerBound] = waves.count
            waves.append(try readWave(waveBody, listOffset: chunk.offset, index: waves.count))
        }
        return (waves, offsets)
    }

    private mutating func readWave(_ body: Range<Int>, listOffset: Int, index: Int) throws(SoundFontError) -> Wave {
        let parts = try chunks(body, container: "wave")
        var wave = Wave(name: try listName(body) ?? "Wave \(index)", pcm: [], sampleRate: 44_100, sample: nil)
        guard let fmt = parts.first(where: { $0.id == "fmt " }) else { throw error("fmt ", listOffset, .missingChunk) }
        try require(fmt, 16)
        guard let data = parts.first(where: { $0.id == "data" }) else { throw error("data", listOffset, .missingChunk) }
        if let wsmp = parts.first(where: { $0.id == "wsmp" }) {
            wave.sample = try DLSWaveSample.read(bytes, offset: wsmp.dataOffset, size: wsmp.size,
                                                 chunkOffset: wsmp.offset, file: name)
        }
        let tag = bytes.u16(fmt.dataOffset), channels = Int(bytes.u16(fmt.dataOffset + 2))
        let rate = bytes.u32(fmt.dataOffset + 4), bits = Int(bytes.u16(fmt.dataOffset + 14))
        wave.sampleRate = rate
        guard tag == 1 || tag == 0xFFFE, bits == 8 || bits == 16, channels >= 1, rate > 0 else {
            warn("fmt ", fmt.offset, "wave \(index) '\(wave.name)': format \(tag), \(bits)-bit, \(channels) channel(s), "
                 + "\(rate) Hz is not 8/16-bit PCM; regions using it are dropped")
            return wave
        }
        if channels > 1 {
            warn("fmt ", fmt.offset, "wave \(index) '\(wave.name)' has \(channels) channels; the first is used")
        }
        let frameBytes = channels * bits / 8
        let frames = data.size / frameBytes
        var pcm = [Int16](repeating: 0, count: frames)
        let base = data.dataOffset
        if bits == 8 {
            for f in 0..<frames { pcm[f] = (Int16(bytes[base + f * frameBytes]) - 128) << 8 }
        } else {
            for f in 0..<frames { pcm[f] = bytes.i16(base + f * frameBytes) }
        }
        wave.pcm = pcm
        return wave
    }

    /// Wave index for each pool-table cue. Offsets are relative to the pool's body (just after
    /// the `wvpl` type) and point at a wave's `LIST`; offsets relative to the `wvpl` id itself
    /// (4 bytes more) are accepted with a warning. Without a `ptbl`, cues are the waves in order.
    private mutating func readPoolTable(_ chunk: RIFFChunk?, waveOffsets: [Int: Int], poolStart: Int,
                                        waveCount: Int) throws(SoundFontError) -> [Int?] {
        guard let chunk else {
            warn("ptbl", nil, "no pool table; regions index waves in pool order")
            return (0..<waveCount).map { $0 }
        }
        try require(chunk, 8)
        let headerSize = Int(bytes.u32(chunk.dataOffset)), count = Int(bytes.u32(chunk.dataOffset + 4))
        guard headerSize >= 8, headerSize <= chunk.size, count <= (chunk.size - headerSize) / 4 else {
            throw error("ptbl", chunk.offset, .malformed("\(count) cues do not fit in \(chunk.size) bytes"))
        }
        var table: [Int?] = []
        var shifted = 0
        for i in 0..<count {
            let offset = Int(bytes.u32(chunk.dataOffset + headerSize + i * 4))
            if let wave = waveOffsets[offset] {
                table.append(wave)
            } else if offset >= 4, let wave = waveOffsets[offset - 4] {
                table.append(wave)
                shifted += 1
            } else {
                table.append(nil)
                warn("ptbl", chunk.offset, "cue \(i) offset \(offset) is not the start of a wave")
            }
        }
        if shifted > 0 { warn("ptbl", chunk.offset, "\(shifted) cue(s) count the 'wvpl' id in their offset") }
        return table
    }

    // MARK: - Instruments

    private mutating func readInstrument(_ list: RIFFChunk, waves: [Wave], table: [Int?], sampleOfWave: [Int?],
                                         builder: inout SoundFont.Builder) throws(SoundFontError) {
        let body = try listBody(list).body
        let parts = try chunks(body, container: "ins ")
        guard let insh = parts.first(where: { $0.id == "insh" }) else { throw error("insh", list.offset, .missingChunk) }
        try require(insh, 12)
        let ulBank = bytes.u32(insh.dataOffset + 4), ulInstrument = bytes.u32(insh.dataOffset + 8)
        let instrumentName = try listName(body) ?? "Instrument \(builder.instruments.count)"

        var globalConnections: [DLSConnection]?
        var regions: [Region] = []
        for part in parts where part.id == "LIST" {
            let (type, partBody) = try listBody(part)
            switch type {
            case "lart", "lar2": globalConnections = (globalConnections ?? []) + (try readArticulation(partBody))
            case "lrgn":
                for rgn in try chunks(partBody, container: "lrgn") where rgn.id == "LIST" {
                    let (rgnType, rgnBody) = try listBody(rgn)
                    guard rgnType == "rgn " || rgnType == "rgn2" else { continue }
                    regions.append(try readRegion(rgnBody, offset: rgn.offset))
                }
            default: break
            }
        }

        var global: Zone?
        var globalArticulation: DLSArticulation?
        if let globalConnections {
            let articulation = DLSArticulation(globalConnections)
            noteUnmapped(articulation, instrumentName, list.offset)
            global = Zone(generators: articulation.generatorList, modulators: articulation.modulators)
            globalArticulation = articulation
        }
        var zones: [Zone] = []
        for region in regions {
            guard table.indices.contains(region.tableIndex), let wave = table[region.tableIndex],
                  let sample = sampleOfWave[wave] else {
                warn("wlnk", region.offset, "\(instrumentName): region refers to wave cue \(region.tableIndex), "
                     + "which is missing or unplayable; region dropped")
                continue
            }
            zones.append(zone(for: region, wave: waves[wave], sample: sample, header: builder.samples[sample],
                              global: globalArticulation, instrumentName: instrumentName,
                              stereoPan: Self.stereoPan(of: region, among: regions)))
        }
        let instrument = builder.addInstrument(instrumentName, globalZone: global, zones: zones)
        let isDrum = ulBank & 0x8000_0000 != 0
        let msb = UInt16((ulBank >> 8) & 0x7F), lsb = UInt16(ulBank & 0x7F)
        builder.addPreset(instrumentName, bank: isDrum ? 128 : (msb != 0 ? msb : lsb),
                          program: UInt16(ulInstrument & 0x7F),
                          zones: [Zone(generators: [Generator(.instrument, Int16(truncatingIfNeeded: instrument))])])
    }

    private mutating func noteUnmapped(_ articulation: DLSArticulation, _ instrument: String, _ offset: Int) {
        for text in articulation.unmapped { warn("art2", offset, "\(instrument): \(text); ignored") }
    }

    private mutating func readRegion(_ body: Range<Int>, offset: Int) throws(SoundFontError) -> Region {
        let parts = try chunks(body, container: "rgn ")
        guard let rgnh = parts.first(where: { $0.id == "rgnh" }) else { throw error("rgnh", offset, .missingChunk) }
        try require(rgnh, 12)
        guard let wlnk = parts.first(where: { $0.id == "wlnk" }) else { throw error("wlnk", offset, .missingChunk) }
        try require(wlnk, 12)
        func range(_ at: Int) -> ClosedRange<UInt8> {
            let lo = UInt8(min(bytes.u16(at), 127)), hi = UInt8(min(bytes.u16(at + 2), 127))
            return lo <= hi ? lo...hi : hi...lo
        }
        var velocity = range(rgnh.dataOffset + 4)
        if velocity == 0...0 { velocity = 0...127 }  // DLS 1 writers often leave it zero: unused in Level 1
        var region = Region(keyRange: range(rgnh.dataOffset), velocityRange: velocity,
                            keyGroup: bytes.u16(rgnh.dataOffset + 10), sample: nil,
                            channel: bytes.u32(wlnk.dataOffset + 4), tableIndex: Int(bytes.u32(wlnk.dataOffset + 8)),
                            connections: nil, offset: offset)
        if let wsmp = parts.first(where: { $0.id == "wsmp" }) {
            region.sample = try DLSWaveSample.read(bytes, offset: wsmp.dataOffset, size: wsmp.size,
                                                   chunkOffset: wsmp.offset, file: name)
        }
        for part in parts where part.id == "LIST" {
            let (type, partBody) = try listBody(part)
            if type == "lart" || type == "lar2" {
                region.connections = (region.connections ?? []) + (try readArticulation(partBody))
            }
        }
        return region
    }

    /// The connection blocks of every `art1`/`art2` chunk in a `lart`/`lar2` list.
    private mutating func readArticulation(_ body: Range<Int>) throws(SoundFontError) -> [DLSConnection] {
        var connections: [DLSConnection] = []
        for chunk in try chunks(body, container: "lart") where chunk.id == "art1" || chunk.id == "art2" {
            try require(chunk, 8)
            let headerSize = Int(bytes.u32(chunk.dataOffset)), count = Int(bytes.u32(chunk.dataOffset + 4))
            guard headerSize >= 8, headerSize <= chunk.size, count <= (chunk.size - headerSize) / 12 else {
                throw error(chunk.id, chunk.offset,
                            .malformed("\(count) connection blocks do not fit in \(chunk.size) bytes"))
            }
            for i in 0..<count {
                let at = chunk.dataOffset + headerSize + i * 12
                connections.append(DLSConnection(
                    source: bytes.u16(at), control: bytes.u16(at + 2), destination: bytes.u16(at + 4),
                    transform: bytes.u16(at + 6), scale: Int32(bitPattern: bytes.u32(at + 8))))
            }
        }
        return connections
    }

    /// A region as an instrument zone: ranges, its own articulation (resetting the global zone's
    /// where DLS says region articulation replaces it), its `wsmp` as root/tune/gain/loop
    /// generators, and the sample.
    /// The pan of a region that is one side of a DLS 2 stereo pair, nil for any other.
    ///
    /// `wlnk`'s channel bits place a wave: bit 0 is "mono, or the left of a stereo pair", bit 1
    /// the right. So channel 1 alone means mono (converters such as SpessaSynth write it on
    /// every mono region); a region is a side of a pair only when the instrument has the other
    /// side on the same keys and velocities.
    static func stereoPan(of region: Region, among regions: [Region]) -> Int32? {
        let (side, other): (Int32, UInt32)
        switch region.channel {
        case 1: (side, other) = (-500, 2)
        case 2: (side, other) = (500, 1)
        default: return nil
        }
        let paired = regions.contains {
            $0.channel == other && $0.keyRange == region.keyRange && $0.velocityRange == region.velocityRange
        }
        return paired ? side : nil
    }

    private mutating func zone(for region: Region, wave: Wave, sample: Int, header: SampleHeader,
                               global: DLSArticulation?, instrumentName: String, stereoPan: Int32?) -> Zone {
        var generators: [GeneratorType: Int32] = [:]
        var modulators: [Modulator] = []
        if let connections = region.connections {
            let articulation = DLSArticulation(connections)
            noteUnmapped(articulation, instrumentName, region.offset)
            generators = articulation.generators
            modulators = articulation.modulators
            if let global {
                for type in global.generators.keys where generators[type] == nil {
                    generators[type] = type.defaultValue
                }
                for m in global.modulators where !modulators.contains(where: { $0.isIdentical(to: m) }) {
                    var cancel = m
                    cancel.amount = 0
                    modulators.append(cancel)
                }
            }
        } else if global == nil {
            generators = DLSArticulation.defaults  // no articulation at all: DLS's defaults still hold
        }

        // The region's wsmp replaces the wave's as a whole.
        let playback = region.sample ?? wave.sample
        if let playback {
            if playback.unityNote != header.originalPitch {
                generators[.overridingRootKey] = Int32(playback.unityNote)
            }
            let tune = Int32(playback.fineTune) - Int32(header.pitchCorrection)
            if tune != 0 {
                let total = Int32(generators[.coarseTune] ?? 0) * 100 + Int32(generators[.fineTune] ?? 0) + tune
                generators[.coarseTune] = total / 100
                generators[.fineTune] = total % 100
            }
            if playback.attenuation < 0 {
                let extra = -Double(playback.attenuation) / 65536 / 0.4
                generators[.initialAttenuation] = Int32((Double(generators[.initialAttenuation] ?? 0) + extra).rounded())
            }
        }
        if let loop = playback?.loop, loop.length > 0 {
            generators[.sampleModes] = loop.type == 1 ? 3 : 1
            let start = Int(loop.start), end = Int(loop.start) + Int(loop.length)
            let headerStart = Int(header.loopStart) - Int(header.start), headerEnd = Int(header.loopEnd) - Int(header.start)
            setOffset(start - headerStart, fine: .startloopAddrsOffset, coarse: .startloopAddrsCoarseOffset, in: &generators)
            setOffset(end - headerEnd, fine: .endloopAddrsOffset, coarse: .endloopAddrsCoarseOffset, in: &generators)
        } else {
            generators[.sampleModes] = 0
        }
        if region.keyGroup != 0 { generators[.exclusiveClass] = Int32(min(region.keyGroup, 127)) }
        // DLS 2 multichannel: a region on the left or right channel of a stereo pair.
        if generators[.pan] == nil, let stereoPan { generators[.pan] = stereoPan }

        var list: [Generator] = [.range(.keyRange, region.keyRange), .range(.velRange, region.velocityRange)]
        list += generators.sorted { $0.key.rawValue < $1.key.rawValue }.map { Generator($0.key, Int16(clamping: $0.value)) }
        list.append(Generator(.sampleID, Int16(truncatingIfNeeded: sample)))
        return Zone(generators: list, modulators: modulators)
    }

    private func setOffset(_ delta: Int, fine: GeneratorType, coarse: GeneratorType, in generators: inout [GeneratorType: Int32]) {
        guard delta != 0 else { return }
        let coarseValue = delta / 32768, fineValue = delta - coarseValue * 32768
        if coarseValue != 0 { generators[coarse] = Int32(clamping: coarseValue) }
        if fineValue != 0 { generators[fine] = Int32(clamping: fineValue) }
    }
}
