extension SoundFont {
    /// One bank holding every preset of `banks`, with their instruments and samples, that plays
    /// each preset exactly as the bank it came from.
    ///
    /// This is how a browser puts per-preset subsets (``subset(presetIndexes:)``) together into
    /// the one bank a synthesizer plays: each arrives separately and is cached on its own. The
    /// sample pools are laid end to end, so every sample keeps the neighbouring points it had;
    /// a bank's pool of 16-bit samples gets zero low bytes when another one is 24-bit. When two
    /// banks hold the same bank and program, the earlier one's preset is kept. Compressed (SF3)
    /// banks are not merged: decode them first (``subset(presetIndexes:)`` does).
    ///
    /// With `copyingSamples` (the default) the merged bank owns one pool the banks' points are
    /// copied into, so it outlives memory the banks only borrowed. Without, it stacks the pools
    /// where they are (``SampleData/init(stacking:)``): nothing is copied, a memory-mapped bank
    /// stays mapped, and the sample headers hold the same positions either way.
    /// - Returns: nil when `banks` is empty or one of them has compressed (SF3) samples, or when the result would need
    ///   more samples or instruments than SF2's 16-bit indexes can name.
    public static func merging(_ banks: [SoundFont], copyingSamples: Bool = true) -> SoundFont? {
        guard let first = banks.first,
              !banks.contains(where: { $0.samples.contains { $0.sampleType.isCompressed } }) else { return nil }
        guard banks.reduce(0, { $0 + $1.samples.count }) <= Int(UInt16.max),
              banks.reduce(0, { $0 + $1.instruments.count }) <= Int(UInt16.max) else { return nil }
        var samples: [SampleHeader] = []
        var instruments: [Instrument] = []
        var presets: [Preset] = []
        var taken = Set<UInt32>()

        func shifted(_ zone: Zone, _ type: GeneratorType, by offset: Int) -> Zone {
            var zone = zone
            for g in zone.generators.indices where zone.generators[g].type == type {
                let index = Int(UInt16(bitPattern: zone.generators[g].amount)) + offset
                zone.generators[g] = Generator(type, Int16(bitPattern: UInt16(clamping: index)))
            }
            return zone
        }
        var base = 0
        for bank in banks {
            let sampleBase = samples.count, instrumentBase = instruments.count, start = UInt32(base)
            for var header in bank.samples {
                header.start &+= start; header.end &+= start
                header.loopStart &+= start; header.loopEnd &+= start
                if header.sampleType.role != 1 { header.sampleLink = UInt16(clamping: Int(header.sampleLink) + sampleBase) }
                samples.append(header)
            }
            for var instrument in bank.instruments {
                instrument.zones = instrument.zones.map { shifted($0, .sampleID, by: sampleBase) }
                instruments.append(instrument)
            }
            for var preset in bank.presets where taken.insert(UInt32(preset.bank) << 16 | UInt32(preset.program)).inserted {
                preset.zones = preset.zones.map { shifted($0, .instrument, by: instrumentBase) }
                presets.append(preset)
            }
            base += bank.sampleData.pointCount
        }
        let pools = banks.map { $0.sampleData }
        let pool = copyingSamples ? SampleData(copying: pools, count: base) : SampleData(stacking: pools)
        var info = first.info
        info.versionMajor = 2
        info.versionMinor = 4
        return SoundFont(info: info, presets: presets, instruments: instruments, samples: samples, sampleData: pool)
    }
}

extension SampleData {
    /// The pools end to end in one pool of `count` points, copied once (a browser merges
    /// megabytes on its audio thread); 16-bit pools get zero low bytes when another is 24-bit.
    fileprivate convenience init(copying pools: [SampleData], count: Int) {
        let sources = pools.flatMap { pool in pool.parts.isEmpty ? [pool] : pool.parts.map { $0.data } }
        self.init(count: count, hasLowBytes: sources.contains { $0.lowBytes != nil }) { words, low in
            var at = 0
            for source in sources {
                // Raw memory copies: Embedded Swift copies typed buffers point by point.
                if let from = source.words.baseAddress, !source.words.isEmpty {
                    UnsafeMutableRawPointer(words.baseAddress! + at).copyMemory(from: from, byteCount: 2 * source.words.count)
                }
                if let low, let from = source.lowBytes?.baseAddress, let n = source.lowBytes?.count, n > 0 {
                    UnsafeMutableRawPointer(low.baseAddress! + at).copyMemory(from: from, byteCount: min(n, source.words.count))
                }
                at += source.words.count
            }
        }
    }
}
