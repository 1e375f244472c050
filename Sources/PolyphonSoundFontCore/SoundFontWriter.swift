extension SoundFont {
    /// The bank as a SoundFont file: RIFF `sfbk` with INFO, `sdta` and `pdta` (SF2 2.04 §4–7).
    ///
    /// Writes every INFO field the model has, `smpl` (and `sm24` when the samples carry low bytes),
    /// and the nine `pdta` tables with their terminal records, each zone list starting with the
    /// global zone. Reading the result back gives an equal model, with these normalisations:
    /// - generators are written in the order the spec requires: `keyRange`, then `velRange`, then
    ///   the others in model order, the terminal `instrument`/`sampleID` generator last; a global
    ///   zone's terminal generator (which would make it a local zone) is left out;
    /// - names are cut to the 20 bytes a record holds (INFO strings are not limited).
    ///
    /// Instrument zones' play conditions (SFZ regions' round robin, keyswitches, release
    /// triggers …), voice shapings (``Zone/shaping``: SFZ filters, envelopes, LFOs …) and
    /// presets' controller defaults (SFZ `set_ccN`) follow `pdta` in a private `LIST` of type
    /// `zext` that other SF2 readers skip; banks without any have no such list.
    ///
    /// SF3 banks (ifil 3.x) are written with their Ogg Vorbis streams as they are. The format
    /// limits each zone table (bags, generators, modulators) to 65,535 entries; larger banks
    /// cannot be represented as SF2.
    public func serialized() -> [UInt8] {
        var out = RIFFWriter()
        let riff = out.begin("RIFF")
        out.fourCC("sfbk")

        let info = out.begin("LIST")
        out.fourCC("INFO")
        let ifil = out.begin("ifil")
        out.u16(self.info.versionMajor)
        out.u16(self.info.versionMinor)
        out.end(ifil)
        out.string("isng", self.info.soundEngine)
        out.string("INAM", self.info.name)
        if let rom = self.info.romName { out.string("irom", rom) }
        if let major = self.info.romVersionMajor, let minor = self.info.romVersionMinor {
            let iver = out.begin("iver")
            out.u16(major)
            out.u16(minor)
            out.end(iver)
        }
        if let s = self.info.creationDate { out.string("ICRD", s) }
        if let s = self.info.engineers { out.string("IENG", s) }
        if let s = self.info.product { out.string("IPRD", s) }
        if let s = self.info.copyright { out.string("ICOP", s) }
        if let s = self.info.comments { out.string("ICMT", s) }
        if let s = self.info.software { out.string("ISFT", s) }
        out.end(info)

        let sdta = out.begin("LIST")
        out.fourCC("sdta")
        let smpl = out.begin("smpl")
        // A stacked pool is written as the one pool its positions describe: its parts end to
        // end, 16-bit parts with zero low bytes when another part is 24-bit.
        let pools = sampleData.parts.isEmpty ? [sampleData] : sampleData.parts.map { $0.data }
        for pool in pools { out.bytes.append(contentsOf: pool.bytes) }
        out.end(smpl)
        if sampleData.has24BitPoints {
            let sm24 = out.begin("sm24")
            for pool in pools {
                if let low = pool.lowBytes { out.bytes.append(contentsOf: low) }
                else { out.bytes.append(contentsOf: repeatElement(0, count: pool.words.count)) }
            }
            out.end(sm24)
        }
        out.end(sdta)

        let pdta = out.begin("LIST")
        out.fourCC("pdta")
        let presetTables = ZoneTables(presets.map { ($0.globalZone, $0.zones) }, terminal: .instrument)
        let phdr = out.begin("phdr")
        for (i, preset) in presets.enumerated() {
            out.name(preset.name)
            out.u16(preset.program)
            out.u16(preset.bank)
            out.u16(presetTables.firstBag[i])
            out.u32(preset.library)
            out.u32(preset.genre)
            out.u32(preset.morphology)
        }
        out.name("EOP")
        out.u16(0)
        out.u16(0)
        out.u16(presetTables.firstBag[presets.count])
        out.u32(0)
        out.u32(0)
        out.u32(0)
        out.end(phdr)
        presetTables.write(into: &out, bag: "pbag", modulators: "pmod", generators: "pgen")

        let instrumentTables = ZoneTables(instruments.map { ($0.globalZone, $0.zones) }, terminal: .sampleID)
        let inst = out.begin("inst")
        for (i, instrument) in instruments.enumerated() {
            out.name(instrument.name)
            out.u16(instrumentTables.firstBag[i])
        }
        out.name("EOI")
        out.u16(instrumentTables.firstBag[instruments.count])
        out.end(inst)
        instrumentTables.write(into: &out, bag: "ibag", modulators: "imod", generators: "igen")

        let shdr = out.begin("shdr")
        for sample in samples {
            out.name(sample.name)
            out.u32(sample.start)
            out.u32(sample.end)
            out.u32(sample.loopStart)
            out.u32(sample.loopEnd)
            out.u32(sample.sampleRate)
            out.bytes.append(sample.originalPitch)
            out.bytes.append(UInt8(bitPattern: sample.pitchCorrection))
            out.u16(sample.sampleLink)
            out.u16(sample.sampleType.rawValue)
        }
        out.name("EOS")
        out.bytes.append(contentsOf: repeatElement(0, count: 26))
        out.end(shdr)
        out.end(pdta)

        let rules = [(ZoneRulesChunk.playConditions,
                      ZoneRulesChunk.playConditionBody(instruments, firstBag: instrumentTables.firstBag)),
                     (VoiceShapingChunk.id, VoiceShapingChunk.body(instruments, firstBag: instrumentTables.firstBag)),
                     (ControllerDefaultsChunk.id, ControllerDefaultsChunk.body(presets))]
        if rules.contains(where: { $0.1 != nil }) {
            let list = out.begin("LIST")
            out.fourCC(ZoneRulesChunk.listType)
            for case let (id, body?) in rules {
                let chunk = out.begin(id)
                out.bytes += body
                out.end(chunk)
            }
            out.end(list)
        }

        out.end(riff)
        return out.bytes
    }
}

/// The bag, generator and modulator tables for a list of zone owners (presets or instruments).
private struct ZoneTables {
    /// Bag index of each owner's first zone, plus the terminal record's.
    var firstBag: [UInt16] = []
    var bags: [(generator: UInt16, modulator: UInt16)] = []
    var generators: [Generator] = []
    var modulators: [Modulator] = []

    init(_ owners: [(global: Zone?, zones: [Zone])], terminal: GeneratorType) {
        for owner in owners {
            firstBag.append(UInt16(truncatingIfNeeded: bags.count))
            if let global = owner.global { add(global, terminal: terminal, isGlobal: true) }
            for zone in owner.zones { add(zone, terminal: terminal, isGlobal: false) }
        }
        firstBag.append(UInt16(truncatingIfNeeded: bags.count))
        // The terminal bag marks where the last zone's lists end.
        bags.append((UInt16(truncatingIfNeeded: generators.count), UInt16(truncatingIfNeeded: modulators.count)))
    }

    private mutating func add(_ zone: Zone, terminal: GeneratorType, isGlobal: Bool) {
        bags.append((UInt16(truncatingIfNeeded: generators.count), UInt16(truncatingIfNeeded: modulators.count)))
        let key = GeneratorType.keyRange.rawValue, velocity = GeneratorType.velRange.rawValue
        generators += zone.generators.filter { $0.rawType == key }
        generators += zone.generators.filter { $0.rawType == velocity }
        generators += zone.generators.filter {
            $0.rawType != key && $0.rawType != velocity && $0.rawType != terminal.rawValue
        }
        if !isGlobal { generators += zone.generators.filter { $0.rawType == terminal.rawValue } }
        modulators += zone.modulators
    }

    func write(into out: inout RIFFWriter, bag: String, modulators modID: String, generators genID: String) {
        let bagChunk = out.begin(bag)
        for b in bags {
            out.u16(b.generator)
            out.u16(b.modulator)
        }
        out.end(bagChunk)

        let modChunk = out.begin(modID)
        for m in modulators {
            out.u16(m.source.rawValue)
            out.u16(m.destination)
            out.u16(UInt16(bitPattern: m.amount))
            out.u16(m.amountSource.rawValue)
            out.u16(m.transform)
        }
        out.bytes.append(contentsOf: repeatElement(0, count: 10))
        out.end(modChunk)

        let genChunk = out.begin(genID)
        for g in generators {
            out.u16(g.rawType)
            out.u16(UInt16(bitPattern: g.amount))
        }
        out.bytes.append(contentsOf: repeatElement(0, count: 4))
        out.end(genChunk)
    }
}
