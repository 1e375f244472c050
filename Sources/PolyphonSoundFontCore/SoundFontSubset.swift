extension SoundFont {
    /// A bank holding only the presets at `presetIndexes`, the instruments they use and the
    /// samples those play — SF3 samples decoded to 16-bit PCM — that renders those presets
    /// exactly as this bank does.
    ///
    /// This is what a browser is sent instead of a 150 MB bank: one instrument at a time, as
    /// SF2 the WebAssembly engine reads without a Vorbis decoder. Each sample keeps the points
    /// around it that interpolation reads past its ends (46 before and after, or zeros where
    /// this bank has none), so voices near a sample's start or end sound the same too. The
    /// samples of linked stereo pairs come along with their partners.
    /// - Throws: ``SampleDecodingError`` when a compressed sample cannot be decoded.
    public func subset(presetIndexes: [Int]) throws(SampleDecodingError) -> SoundFont {
        let chosen = presetIndexes.filter { presets.indices.contains($0) }

        // Instruments the chosen presets' zones name, in first-use order.
        var instrumentMap: [Int: Int] = [:]
        var instrumentOrder: [Int] = []
        for p in chosen {
            for zone in presets[p].zones {
                guard let raw = zone.value(of: .instrument) else { continue }
                let i = Int(UInt16(bitPattern: raw))
                if instruments.indices.contains(i), instrumentMap[i] == nil {
                    instrumentMap[i] = instrumentOrder.count
                    instrumentOrder.append(i)
                }
            }
        }
        // Samples those instruments play, then their stereo partners.
        var sampleMap: [Int: Int] = [:]
        var sampleOrder: [Int] = []
        func use(_ s: Int) {
            guard samples.indices.contains(s), sampleMap[s] == nil else { return }
            sampleMap[s] = sampleOrder.count
            sampleOrder.append(s)
        }
        for i in instrumentOrder {
            for zone in instruments[i].zones {
                if let raw = zone.value(of: .sampleID) { use(Int(UInt16(bitPattern: raw))) }
            }
        }
        var partner = 0
        while partner < sampleOrder.count {
            let header = samples[sampleOrder[partner]]
            if header.sampleType.role != 1 { use(Int(header.sampleLink)) }
            partner += 1
        }

        // The sample pool: each sample with its margins, every point copied as it plays.
        let margin = Builder.samplePadding
        var words: [Int16] = []
        var lows: [UInt8]? = sampleData.has24BitPoints ? [] : nil
        var headers: [SampleHeader] = []
        for s in sampleOrder {
            var header = samples[s]
            if header.sampleType.isROM || (!header.sampleType.isCompressed && header.end <= header.start) {
                // Never played: kept so indexes hold, with no points of its own.
                header.start = UInt32(words.count); header.end = header.start
                header.loopStart = header.start; header.loopEnd = header.start
                headers.append(header)
                continue
            }
            let playable = try playableSample(at: s)
            let base = words.count + margin
            for j in (playable.start - margin)..<(playable.end + margin) {
                let inside = j >= 0 && j < playable.words.count
                words.append(inside ? playable.words[j] : 0)
                if lows != nil { lows!.append(inside ? playable.lowBytes?[j] ?? 0 : 0) }
            }
            header.start = UInt32(base)
            header.end = UInt32(base + playable.end - playable.start)
            header.loopStart = UInt32(clamping: base + playable.loopStart - playable.start)
            header.loopEnd = UInt32(clamping: base + playable.loopEnd - playable.start)
            header.sampleType = SampleType(rawValue: header.sampleType.rawValue & ~SampleType.vorbisFlag)
            headers.append(header)
        }
        for k in headers.indices where headers[k].sampleType.role != 1 {
            headers[k].sampleLink = UInt16(clamping: sampleMap[Int(headers[k].sampleLink)] ?? 0)
        }

        func remap(_ zone: Zone, _ type: GeneratorType, _ map: [Int: Int]) -> Zone {
            var zone = zone
            for g in zone.generators.indices where zone.generators[g].type == type {
                let old = Int(UInt16(bitPattern: zone.generators[g].amount))
                zone.generators[g] = Generator(type, Int16(bitPattern: UInt16(clamping: map[old] ?? 0xFFFF)))
            }
            return zone
        }
        let newInstruments = instrumentOrder.map { i -> Instrument in
            var instrument = instruments[i]
            instrument.zones = instrument.zones.map { remap($0, .sampleID, sampleMap) }
            return instrument
        }
        let newPresets = chosen.map { p -> Preset in
            var preset = presets[p]
            preset.zones = preset.zones.map { remap($0, .instrument, instrumentMap) }
            return preset
        }
        var subsetInfo = info
        subsetInfo.versionMajor = 2
        subsetInfo.versionMinor = 4
        subsetInfo.software = "Polyphon (preset subset)"
        return SoundFont(info: subsetInfo, presets: newPresets, instruments: newInstruments, samples: headers,
                         sampleData: SampleData(copying: words, lowBytes: lows))
    }
}
