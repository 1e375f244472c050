import Testing
@testable import PolyphonSoundFont
@testable import PolyphonSoundFontCore

/// Region resolution against hand-computed expectations (SF2 2.04 §9.4).
@Suite struct RegionResolutionTests {
    /// A bank with `sampleCount` samples (plus `extraSamples`), the given instruments and one
    /// preset, written to SF2 bytes and read back, so every rule is checked on what a file holds.
    static func bank(preset: Preset, instruments: [Instrument], sampleCount: Int = 2,
                     extraSamples: [SampleHeader] = []) throws -> SoundFont {
        var samples: [SampleHeader] = []
        for i in 0..<sampleCount {
            let base = UInt32(i) * 100
            samples.append(SampleHeader(name: "s\(i)", start: base, end: base + 50, loopStart: base + 10,
                                        loopEnd: base + 40, sampleRate: 44_100, originalPitch: 60))
        }
        let font = SoundFont(presets: [preset], instruments: instruments, samples: samples + extraSamples,
                             sampleData: SampleData(copying: [Int16](repeating: 0, count: sampleCount * 100)))
        let read = try SoundFont(bytes: font.serialized(), name: "regions.sf2")
        #expect(read.presets == font.presets.map(Self.withoutEmptyGlobalOnlyZones))
        return read
    }

    /// What the reader keeps of a preset: zones without an instrument are dropped unless first.
    static func withoutEmptyGlobalOnlyZones(_ preset: Preset) -> Preset {
        var p = preset
        p.zones = p.zones.filter { $0.value(of: .instrument) != nil }
        return p
    }

    @Test func defaultsWhenNothingIsSet() throws {
        let inst = Instrument(name: "i", zones: [Zone(generators: [Generator(.sampleID, 1)])])
        let preset = Preset(name: "p", program: 0, bank: 0, zones: [Zone(generators: [Generator(.instrument, 0)])])
        let regions = try Self.bank(preset: preset, instruments: [inst]).regions(forPresetAt: 0)
        let region = try #require(regions.first)
        #expect(regions.count == 1)
        #expect(region.sampleIndex == 1)
        #expect(region.keyRange == 0...127 && region.velocityRange == 0...127)
        for type in GeneratorType.allCases where type.isResolvable && type != .sampleID && type != .instrument {
            #expect(region.generators[type] == type.defaultValue, "\(type)")
        }
        #expect(region.modulators == Modulator.defaults)
    }

    @Test func instrumentLocalReplacesGlobalAndPresetOffsetsAdd() throws {
        let inst = Instrument(
            name: "i",
            globalZone: Zone(generators: [Generator(.pan, 100), Generator(.attackVolEnv, -2000),
                                          Generator(.coarseTune, 3)]),
            zones: [Zone(generators: [Generator(.attackVolEnv, -1000), Generator(.sampleID, 0)]),
                    Zone(generators: [Generator(.sampleID, 1)])])
        let preset = Preset(
            name: "p", program: 5, bank: 1,
            globalZone: Zone(generators: [Generator(.pan, 50), Generator(.coarseTune, 7)]),
            zones: [Zone(generators: [Generator(.coarseTune, -2), Generator(.initialAttenuation, 30),
                                      Generator(.instrument, 0)])])
        let regions = try Self.bank(preset: preset, instruments: [inst]).regions(forPresetAt: 0)
        #expect(regions.count == 2)
        let first = try #require(regions.first)
        #expect(first.generators[.attackVolEnv] == -1000)       // local replaced global
        #expect(first.generators[.pan] == 150)                  // 100 + preset global 50
        #expect(first.generators[.coarseTune] == 1)             // 3 + (-2): preset local replaced preset global 7
        #expect(first.generators[.initialAttenuation] == 30)    // 0 + 30
        #expect(first.generators[.initialFilterFc] == 13500)    // untouched default
        let second = regions[1]
        #expect(second.sampleIndex == 1)
        #expect(second.generators[.attackVolEnv] == -2000)      // instrument global, no preset offset
        #expect(second.generators[.coarseTune] == 1)
    }

    @Test func instrumentOnlyGeneratorsAreIgnoredAtPresetLevel() throws {
        let inst = Instrument(name: "i", zones: [Zone(generators: [
            Generator(.overridingRootKey, 64), Generator(.sampleModes, 1), Generator(.sampleID, 0)])])
        let preset = Preset(name: "p", program: 0, bank: 0, zones: [Zone(generators: [
            Generator(.overridingRootKey, 5), Generator(.sampleModes, 2), Generator(.startAddrsOffset, 9),
            Generator(.exclusiveClass, 3), Generator(.keynum, 10), Generator(.sampleID, 1),
            Generator(.fineTune, 4), Generator(.instrument, 0)])])
        let region = try #require(try Self.bank(preset: preset, instruments: [inst]).regions(forPresetAt: 0).first)
        #expect(region.generators[.overridingRootKey] == 64)
        #expect(region.generators[.sampleModes] == 1)
        #expect(region.generators[.startAddrsOffset] == 0)
        #expect(region.generators[.exclusiveClass] == 0)
        #expect(region.generators[.keynum] == -1)
        #expect(region.generators[.fineTune] == 4)
        #expect(region.sampleIndex == 0)
    }

    @Test func reservedAndUnknownGeneratorsAreIgnored() throws {
        let inst = Instrument(name: "i", zones: [Zone(generators: [
            Generator(rawType: 59, amount: 1200), Generator(rawType: 14, amount: 5),
            Generator(rawType: 99, amount: 7), Generator(.sampleID, 0)])])
        let preset = Preset(name: "p", program: 0, bank: 0, zones: [Zone(generators: [
            Generator(rawType: 59, amount: 300), Generator(.instrument, 0)])])
        let region = try #require(try Self.bank(preset: preset, instruments: [inst]).regions(forPresetAt: 0).first)
        #expect(region.generators.values[59] == 0)
        #expect(region.generators.values[14] == 0)
    }

    @Test func rangesIntersectAndGlobalRangesAreDefaults() throws {
        let inst = Instrument(
            name: "i", globalZone: Zone(generators: [Generator.range(.keyRange, 40...80)]),
            zones: [Zone(generators: [Generator.range(.velRange, 0...63), Generator(.sampleID, 0)]),
                    Zone(generators: [Generator.range(.keyRange, 0...30), Generator(.sampleID, 1)]),
                    Zone(generators: [Generator.range(.keyRange, 70...100), Generator.range(.velRange, 64...127),
                                      Generator(.sampleID, 1)])])
        let preset = Preset(
            name: "p", program: 0, bank: 0,
            globalZone: Zone(generators: [Generator.range(.keyRange, 50...127)]),
            zones: [Zone(generators: [Generator(.instrument, 0)])])
        let font = try Self.bank(preset: preset, instruments: [inst])
        let regions = font.regions(forPresetAt: 0)
        // Zone 2 (keys 0…30) does not meet the preset's 50…127.
        #expect(regions.count == 2)
        #expect(regions[0].keyRange == 50...80 && regions[0].velocityRange == 0...63)
        #expect(regions[1].keyRange == 70...100 && regions[1].velocityRange == 64...127)
        #expect(regions[0].generators[.keyRange] == Int32(Generator.range(.keyRange, 50...80).amount))

        #expect(font.regions(bank: 0, program: 0, key: 75, velocity: 10).map(\.sampleIndex) == [0])
        #expect(font.regions(bank: 0, program: 0, key: 75, velocity: 100).map(\.sampleIndex) == [1])
        #expect(font.regions(bank: 0, program: 0, key: 45, velocity: 10).isEmpty)
        #expect(font.regions(bank: 0, program: 1, key: 75, velocity: 10).isEmpty)
        #expect(font.regions(bank: 1, program: 0, key: 75, velocity: 10).isEmpty)
    }

    @Test func instrumentModulatorsReplaceDefaultsAndPresetModulatorsAdd() throws {
        let velToAtten = Modulator.defaults[0]
        let cc1 = Modulator.defaults[3]
        let cc2ToFilter = Modulator(source: .cc(2), destination: .initialFilterFc, amount: -1200)
        var louder = velToAtten; louder.amount = 480
        var cancelCC1 = cc1; cancelCC1.amount = 0
        var presetCC1 = cc1; presetCC1.amount = 25
        var presetVel = velToAtten; presetVel.amount = 100
        var presetVelGlobal = velToAtten; presetVelGlobal.amount = 7000

        let inst = Instrument(
            name: "i",
            globalZone: Zone(modulators: [cancelCC1, cc2ToFilter]),
            zones: [Zone(generators: [Generator(.sampleID, 0)],
                         modulators: [Modulator(source: .cc(2), destination: .initialFilterFc, amount: -600),
                                      velToAtten, louder])])
        let preset = Preset(
            name: "p", program: 0, bank: 0,
            globalZone: Zone(modulators: [presetVelGlobal]),
            zones: [Zone(generators: [Generator(.instrument, 0)], modulators: [presetVel, presetCC1, cc2ToFilter])])
        let region = try #require(try Self.bank(preset: preset, instruments: [inst]).regions(forPresetAt: 0).first)
        let mods = region.modulators
        #expect(mods.count == Modulator.defaults.count + 1)
        // Instrument: the later identical modulator in one zone wins (480); preset local 100 replaced the
        // preset global 7000 and was added.
        #expect(mods[0].amount == 580)
        // Instrument global cancelled CC1 (amount 0), the preset then added 25 to the cancelled one.
        #expect(mods[3].amount == 25)
        // Instrument local CC2 (−600) replaced the global one, then the preset added −1200.
        let cc2 = try #require(mods.first { $0.isIdentical(to: cc2ToFilter) })
        #expect(cc2.amount == -1800)
        #expect(mods.filter { $0.isIdentical(to: cc2ToFilter) }.count == 1)
        // Untouched defaults keep their amounts.
        #expect(mods[1] == Modulator.defaults[1] && mods[9] == Modulator.defaults[9])
    }

    @Test func cancellingWithZeroKeepsTheModulator() throws {
        var cancel = Modulator.defaults[7]; cancel.amount = 0
        let inst = Instrument(name: "i", zones: [Zone(generators: [Generator(.sampleID, 0)], modulators: [cancel])])
        let preset = Preset(name: "p", program: 0, bank: 0, zones: [Zone(generators: [Generator(.instrument, 0)])])
        let region = try #require(try Self.bank(preset: preset, instruments: [inst]).regions(forPresetAt: 0).first)
        #expect(region.modulators.count == 10)
        #expect(region.modulators[7].amount == 0)
    }

    @Test func presetModulatorSumsClampToInt16() throws {
        var big = Modulator.defaults[9]; big.amount = 30000
        let inst = Instrument(name: "i", zones: [Zone(generators: [Generator(.sampleID, 0)], modulators: [big])])
        let preset = Preset(name: "p", program: 0, bank: 0,
                            zones: [Zone(generators: [Generator(.instrument, 0)], modulators: [big])])
        let region = try #require(try Self.bank(preset: preset, instruments: [inst]).regions(forPresetAt: 0).first)
        #expect(region.modulators[9].amount == Int16.max)
    }

    @Test func brokenReferencesAndGlobalOnlyZonesAreSkipped() throws {
        let rom = SampleHeader(name: "rom", start: 0, end: 10, loopStart: 0, loopEnd: 10, sampleRate: 22050,
                               originalPitch: 60, sampleType: .romMono)
        let inst = Instrument(name: "i", globalZone: Zone(generators: [Generator(.pan, 10)]),
                              zones: [Zone(generators: [Generator(.sampleID, 9)]),   // no such sample
                                      Zone(generators: [Generator(.pan, 3)]),        // no sample at all
                                      Zone(generators: [Generator(.sampleID, 2)]),   // ROM sample
                                      Zone(generators: [Generator(.sampleID, 0)])])
        let preset = Preset(name: "p", program: 0, bank: 0,
                            zones: [Zone(generators: [Generator(.instrument, 4)]),   // no such instrument
                                    Zone(generators: [Generator(.pan, 1)]),
                                    Zone(generators: [Generator(.instrument, 0)])])
        let font = try Self.bank(preset: preset, instruments: [inst], extraSamples: [rom])
        let regions = font.regions(forPresetAt: 0)
        #expect(regions.map(\.sampleIndex) == [0])
        #expect(font.regions(forPresetAt: 1).isEmpty)
        #expect(font.regions(forPresetAt: -1).isEmpty)
    }
}
