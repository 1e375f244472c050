/// Region resolution: which preset zone × instrument zone pairs play for a preset, with their
/// generators and modulators combined once (SF2 2.04 §9.4, FluidSynth's `fluid_defpreset_noteon`).
extension SoundFont {
    /// Every region of the preset at `index` in ``presets``, in file order (preset zones outer,
    /// instrument zones inner); empty when the index is out of range.
    ///
    /// For each preset zone (its missing generators taken from the preset's global zone) and each
    /// instrument zone of its instrument (likewise over the instrument's global zone) whose key
    /// and velocity ranges intersect:
    /// - generators are the spec defaults, replaced by the instrument global zone, replaced by the
    ///   instrument zone (absolute values), then the preset values (local replacing global) are
    ///   **added** — except instrument-only generators, keyRange/velRange, instrument and sampleID,
    ///   which a preset zone does not contribute (SF2 2.04 §8.1.3). Reserved and unknown ids are
    ///   ignored.
    /// - modulators start from `defaultModulators` (``Modulator/defaults``, the spec's ten);
    ///   instrument modulators (local replacing an identical global one) replace an identical
    ///   default or are appended; preset modulators (local replacing global) add their amount to
    ///   an identical modulator or are appended.
    ///
    /// Zones whose instrument or sample index is out of range, zones on ROM samples (their data
    /// is not in the file; FluidSynth skips them too) and zones without a sample are skipped.
    public func regions(forPresetAt index: Int, defaultModulators: [Modulator] = Modulator.defaults) -> [Region] {
        resolveRegions(presetAt: index, key: nil, velocity: nil, defaultModulators: defaultModulators)
    }

    /// The regions that sound for one note: those of the preset with this bank and program whose
    /// key and velocity ranges contain the note. Empty when the bank has no such preset.
    ///
    /// Zone pairs that do not contain the note are skipped before their generators and
    /// modulators are combined, so this costs a fraction of ``regions(forPresetAt:defaultModulators:)``.
    public func regions(bank: Int, program: Int, key: UInt8, velocity: UInt8) -> [Region] {
        guard let index = presetIndex(bank: bank, program: program) else { return [] }
        return resolveRegions(presetAt: index, key: key, velocity: velocity, defaultModulators: Modulator.defaults)
    }

    /// Resolves the preset's regions; with a key and velocity, only those containing that note.
    private func resolveRegions(presetAt index: Int, key: UInt8?, velocity: UInt8?,
                                defaultModulators: [Modulator]) -> [Region] {
        guard presets.indices.contains(index) else { return [] }
        let preset = presets[index]
        let presetGlobal = preset.globalZone
        var regions: [Region] = []

        for presetZone in preset.zones {
            guard let rawInstrument = presetZone.value(of: .instrument) else { continue }
            let instrumentIndex = Int(UInt16(bitPattern: rawInstrument))
            guard instruments.indices.contains(instrumentIndex) else { continue }
            let instrument = instruments[instrumentIndex]

            let presetKeys = Self.range(.keyRange, local: presetZone, global: presetGlobal)
            let presetVelocities = Self.range(.velRange, local: presetZone, global: presetGlobal)
            if let key, !presetKeys.contains(key) { continue }
            if let velocity, !presetVelocities.contains(velocity) { continue }
            let offsets = Self.presetOffsets(local: presetZone, global: presetGlobal)
            let presetModulators = Self.merged(local: presetZone.modulators,
                                               global: presetGlobal?.modulators ?? [])

            for instrumentZone in instrument.zones {
                guard let rawSample = instrumentZone.value(of: .sampleID) else { continue }
                let sampleIndex = Int(UInt16(bitPattern: rawSample))
                guard samples.indices.contains(sampleIndex), !samples[sampleIndex].sampleType.isROM
                else { continue }

                let instrumentGlobal = instrument.globalZone
                guard
                    let keys = Self.intersection(
                        presetKeys, Self.range(.keyRange, local: instrumentZone, global: instrumentGlobal)),
                    let velocities = Self.intersection(
                        presetVelocities,
                        Self.range(.velRange, local: instrumentZone, global: instrumentGlobal))
                else { continue }
                if let key, !keys.contains(key) { continue }
                if let velocity, !velocities.contains(velocity) { continue }

                var generators = GeneratorSet.defaults
                if let instrumentGlobal { Self.assign(instrumentGlobal, to: &generators) }
                Self.assign(instrumentZone, to: &generators)
                generators.values &+= offsets.values
                generators[.keyRange] = Int32(Generator.range(.keyRange, keys).amount)
                generators[.velRange] = Int32(Generator.range(.velRange, velocities).amount)
                generators[.instrument] = Int32(instrumentIndex)
                generators[.sampleID] = Int32(sampleIndex)

                var modulators = defaultModulators
                let instrumentModulators = Self.merged(local: instrumentZone.modulators,
                                                       global: instrumentGlobal?.modulators ?? [])
                for modulator in instrumentModulators {
                    if let i = modulators.firstIndex(where: { $0.isIdentical(to: modulator) }) {
                        modulators[i] = modulator
                    } else {
                        modulators.append(modulator)
                    }
                }
                for modulator in presetModulators {
                    if let i = modulators.firstIndex(where: { $0.isIdentical(to: modulator) }) {
                        let sum = Int32(modulators[i].amount) + Int32(modulator.amount)
                        modulators[i].amount = Int16(clamping: sum)
                    } else {
                        modulators.append(modulator)
                    }
                }

                regions.append(Region(keyRange: keys, velocityRange: velocities,
                                      generators: generators, modulators: modulators,
                                      sampleIndex: sampleIndex, playCondition: instrumentZone.playCondition,
                                      shaping: instrumentZone.shaping ?? instrumentGlobal?.shaping))
            }
        }
        return regions
    }

    // MARK: - Combining zones

    /// Writes a zone's generators over `set` (the "local replaces global" rule for one level).
    /// Ranges, links and ids without meaning are left alone.
    private static func assign(_ zone: Zone, to set: inout GeneratorSet) {
        for generator in zone.generators {
            guard let type = generator.type, type.isResolvable else { continue }
            set[type] = Int32(generator.amount)
        }
    }

    /// The preset level's additive offsets: global zone values replaced by local ones, with the
    /// generators a preset may not set left at zero.
    private static func presetOffsets(local: Zone, global: Zone?) -> GeneratorSet {
        var offsets = GeneratorSet.zero
        if let global { assign(global, to: &offsets) }
        assign(local, to: &offsets)
        for type in GeneratorType.allCases where type.isInstrumentOnly {
            offsets[type] = 0
        }
        offsets[.instrument] = 0
        return offsets
    }

    /// A zone's key or velocity range: its own generator, else the global zone's, else 0…127.
    private static func range(_ type: GeneratorType, local: Zone, global: Zone?) -> ClosedRange<UInt8> {
        if local.value(of: type) != nil {
            return type == .keyRange ? local.keyRange : local.velocityRange
        }
        if let global, global.value(of: type) != nil {
            return type == .keyRange ? global.keyRange : global.velocityRange
        }
        return 0...127
    }

    private static func intersection(_ a: ClosedRange<UInt8>, _ b: ClosedRange<UInt8>) -> ClosedRange<UInt8>? {
        let low = max(a.lowerBound, b.lowerBound), high = min(a.upperBound, b.upperBound)
        return low <= high ? low...high : nil
    }

    /// One level's modulator list: the global zone's, each replaced by an identical local one,
    /// plus the local ones that replace nothing. Within one zone a later identical modulator
    /// replaces an earlier one (SF2 2.04 §9.5.1: "only the last one is used").
    private static func merged(local: [Modulator], global: [Modulator]) -> [Modulator] {
        var result = deduplicated(global)
        for modulator in deduplicated(local) {
            if let i = result.firstIndex(where: { $0.isIdentical(to: modulator) }) {
                result[i] = modulator
            } else {
                result.append(modulator)
            }
        }
        return result
    }

    private static func deduplicated(_ modulators: [Modulator]) -> [Modulator] {
        var result: [Modulator] = []
        result.reserveCapacity(modulators.count)
        for modulator in modulators {
            if let i = result.firstIndex(where: { $0.isIdentical(to: modulator) }) {
                result[i] = modulator
            } else {
                result.append(modulator)
            }
        }
        return result
    }
}

extension GeneratorType {
    /// True for the reserved and unused ids (14, 18–20, 42, 49, 55, 59) and the `endOper`
    /// terminator: they carry no meaning and region resolution ignores them.
    public var isReservedOrUnused: Bool {
        switch self {
        case .unused1, .unused2, .unused3, .unused4, .reserved1, .reserved2, .reserved3, .unused5,
             .endOper:
            return true
        default:
            return false
        }
    }

    /// Generators whose value region resolution copies into a ``GeneratorSet``: everything but
    /// the reserved ids and the ranges (which become ``Region/keyRange`` and ``Region/velocityRange``).
    var isResolvable: Bool {
        !isReservedOrUnused && self != .keyRange && self != .velRange
    }
}
