import Foundation
import Testing
@testable import PolyphonSoundFont
@testable import PolyphonSoundFontCore

/// DLS Level 1/2 collections written in code, read into the bank model.
@Suite struct DLSTests {
    typealias W = DLSTestWriter
    typealias S = DLSConnection.Source
    typealias D = DLSConnection.Destination

    /// A connection with an amount in destination units (stored × 65536).
    static func c(_ source: UInt16, _ control: UInt16, _ destination: UInt16,
                  _ units: Double, transform: UInt16 = 0) -> DLSConnection {
        DLSConnection(source: source, control: control, destination: destination, transform: transform,
                      scale: Int32((units * 65536).rounded()))
    }

    /// A connection without a control.
    static func c(_ source: UInt16 = S.none, destination: UInt16, _ units: Double, transform: UInt16 = 0) -> DLSConnection {
        c(source, S.none, destination, units, transform: transform)
    }

    /// One articulation mapping: the connections of an instrument-level `lart`, and the global
    /// zone they must produce.
    struct ConnectionCase: Sendable, CustomStringConvertible {
        var description: String
        var connections: [DLSConnection]
        var generators: [Generator] = []
        var modulators: [Modulator] = []
        var unmapped = 0
    }

    static let connectionCases: [ConnectionCase] = {
        var cases: [ConnectionCase] = []
        // Envelope and LFO times (time cents × 65536).
        let times: [(UInt16, GeneratorType)] = [
            (D.eg1DelayTime, .delayVolEnv), (D.eg1AttackTime, .attackVolEnv), (D.eg1HoldTime, .holdVolEnv),
            (D.eg1DecayTime, .decayVolEnv), (D.eg1ReleaseTime, .releaseVolEnv),
            (D.eg2DelayTime, .delayModEnv), (D.eg2AttackTime, .attackModEnv), (D.eg2HoldTime, .holdModEnv),
            (D.eg2DecayTime, .decayModEnv), (D.eg2ReleaseTime, .releaseModEnv),
            (D.lfoStartDelay, .delayModLFO), (D.vibratoStartDelay, .delayVibLFO),
        ]
        for (i, (destination, generator)) in times.enumerated() {
            let tc = Double(-1200 + 350 * i)
            cases.append(.init(description: "time → \(generator)", connections: [c(destination: destination, tc)],
                               generators: [Generator(generator, Int16(tc))]))
        }
        cases.append(.init(description: "zero time", connections: [
            DLSConnection(destination: D.eg1AttackTime, scale: Int32.min)], generators: [Generator(.attackVolEnv, -32768)]))
        cases += [
            .init(description: "EG1 sustain 50 %", connections: [c(destination: D.eg1SustainLevel, 500)],
                  generators: [Generator(.sustainVolEnv, 480)]),
            .init(description: "EG2 sustain 25 %", connections: [c(destination: D.eg2SustainLevel, 250)],
                  generators: [Generator(.sustainModEnv, 750)]),
            .init(description: "LFO frequency", connections: [c(destination: D.lfoFrequency, -600)],
                  generators: [Generator(.freqModLFO, -600)]),
            .init(description: "vibrato frequency", connections: [c(destination: D.vibratoFrequency, -450)],
                  generators: [Generator(.freqVibLFO, -450)]),
            .init(description: "gain −6 dB", connections: [c(destination: D.gain, -60)],
                  generators: [Generator(.initialAttenuation, 150)]),
            .init(description: "pitch −150 cents", connections: [c(destination: D.pitch, -150)],
                  generators: [Generator(.coarseTune, -1), Generator(.fineTune, -50)]),
            .init(description: "pan", connections: [c(destination: D.pan, 250)], generators: [Generator(.pan, 250)]),
            .init(description: "chorus", connections: [c(destination: D.chorus, 300)],
                  generators: [Generator(.chorusEffectsSend, 300)]),
            .init(description: "reverb", connections: [c(destination: D.reverb, 400)],
                  generators: [Generator(.reverbEffectsSend, 400)]),
            .init(description: "filter cutoff", connections: [c(destination: D.filterCutoff, 6000)],
                  generators: [Generator(.initialFilterFc, 6000)]),
            .init(description: "filter Q", connections: [c(destination: D.filterQ, 60)],
                  generators: [Generator(.initialFilterQ, 60)]),
            .init(description: "LFO → pitch", connections: [c(S.lfo, destination: D.pitch, 50)],
                  generators: [Generator(.modLfoToPitch, 50)]),
            .init(description: "LFO → gain", connections: [c(S.lfo, destination: D.gain, -30)],
                  generators: [Generator(.modLfoToVolume, -30)]),
            .init(description: "LFO → cutoff", connections: [c(S.lfo, destination: D.filterCutoff, 1200)],
                  generators: [Generator(.modLfoToFilterFc, 1200)]),
            .init(description: "vibrato → pitch", connections: [c(S.vibrato, destination: D.pitch, 40)],
                  generators: [Generator(.vibLfoToPitch, 40)]),
            .init(description: "EG2 → pitch", connections: [c(S.eg2, destination: D.pitch, 700)],
                  generators: [Generator(.modEnvToPitch, 700)]),
            .init(description: "EG2 → cutoff", connections: [c(S.eg2, destination: D.filterCutoff, -2400)],
                  generators: [Generator(.modEnvToFilterFc, -2400)]),
            .init(description: "CC1 × LFO → pitch", connections: [c(S.lfo, S.cc(1), D.pitch, 50)],
                  modulators: [Modulator(source: .cc(1), destination: .modLfoToPitch, amount: 50)]),
            .init(description: "channel pressure × vibrato → pitch",
                  connections: [c(S.vibrato, S.channelPressure, D.pitch, 30)],
                  modulators: [Modulator(source: .init(.channelPressure), destination: .vibLfoToPitch, amount: 30)]),
            .init(description: "CC1 × LFO → gain", connections: [c(S.lfo, S.cc(1), D.gain, -20)],
                  modulators: [Modulator(source: .cc(1), destination: .modLfoToVolume, amount: -20)]),
            .init(description: "key → pitch", connections: [c(S.keyNumber, destination: D.pitch, 6400)],
                  generators: [Generator(.scaleTuning, 50)]),
            .init(description: "key → EG1 decay",
                  connections: [c(destination: D.eg1DecayTime, 1000), c(S.keyNumber, destination: D.eg1DecayTime, -1280)],
                  generators: [Generator(.decayVolEnv, 400), Generator(.keynumToVolEnvDecay, 10)]),
            .init(description: "key → EG1 hold (default time)",
                  connections: [c(S.keyNumber, destination: D.eg1HoldTime, 1280)],
                  generators: [Generator(.holdVolEnv, -12000 + 600), Generator(.keynumToVolEnvHold, -10)]),
            .init(description: "key → EG2 decay",
                  connections: [c(destination: D.eg2DecayTime, 0), c(S.keyNumber, destination: D.eg2DecayTime, 2560)],
                  generators: [Generator(.decayModEnv, 1200), Generator(.keynumToModEnvDecay, -20)]),
            .init(description: "key → EG2 hold",
                  connections: [c(destination: D.eg2HoldTime, -2000), c(S.keyNumber, destination: D.eg2HoldTime, 128)],
                  generators: [Generator(.holdModEnv, -1940), Generator(.keynumToModEnvHold, -1)]),
            .init(description: "key → gain", connections: [c(S.keyNumber, destination: D.gain, -960)],
                  modulators: [Modulator(source: .init(.noteOnKeyNumber), destination: .initialAttenuation, amount: 960)]),
            .init(description: "velocity → gain, DLS 1 concave",
                  connections: [c(S.keyOnVelocity, destination: D.gain, -960, transform: 1)],
                  modulators: [Modulator.defaults[0]]),
            .init(description: "velocity → gain, DLS 2 concave",
                  connections: [c(S.keyOnVelocity, destination: D.gain, -960, transform: 1 << 10)],
                  modulators: [Modulator.defaults[0]]),
            .init(description: "velocity → EG1 attack", connections: [c(S.keyOnVelocity, destination: D.eg1AttackTime, -1200)],
                  modulators: [Modulator(source: .init(.noteOnVelocity), destination: .attackVolEnv, amount: -1200)]),
            .init(description: "velocity → cutoff, convex",
                  connections: [c(S.keyOnVelocity, destination: D.filterCutoff, 1200, transform: 2 << 10)],
                  modulators: [Modulator(source: .init(.noteOnVelocity, curve: .convex), destination: .initialFilterFc, amount: 1200)]),
            .init(description: "pitch wheel × RPN 0 → pitch", connections: [c(S.pitchWheel, S.rpn0, D.pitch, 12800)],
                  modulators: [Modulator(source: .init(.pitchWheel, isBipolar: true), destination: 59, amount: 12800,
                                         amountSource: .init(.pitchWheelSensitivity))]),
            .init(description: "CC7 → gain", connections: [c(S.cc(7), destination: D.gain, -960, transform: 1 << 10)],
                  modulators: [Modulator.defaults[4]]),
            .init(description: "CC10 → pan, bipolar", connections: [c(S.cc(10), destination: D.pan, 500, transform: 0x4000)],
                  modulators: [Modulator.defaults[5]]),
            .init(description: "CC11 → gain", connections: [c(S.cc(11), destination: D.gain, -960, transform: 1)],
                  modulators: [Modulator.defaults[6]]),
            .init(description: "CC91 → reverb", connections: [c(S.cc(91), destination: D.reverb, 200)],
                  modulators: [Modulator.defaults[7]]),
            .init(description: "CC93 → chorus", connections: [c(S.cc(93), destination: D.chorus, 200)],
                  modulators: [Modulator.defaults[8]]),
            .init(description: "poly pressure → pitch", connections: [c(S.polyPressure, destination: D.pitch, 100)],
                  modulators: [Modulator(source: .init(.polyPressure), destination: 59, amount: 100)]),
            .init(description: "mono pressure → gain", connections: [c(S.monoPressure, destination: D.gain, -100)],
                  modulators: [Modulator(source: .init(.channelPressure), destination: .initialAttenuation, amount: 100)]),
            .init(description: "inverted CC1 → cutoff", connections: [c(S.cc(1), destination: D.filterCutoff, -2400, transform: 0x8000)],
                  modulators: [Modulator(source: .cc(1, isDecreasing: true), destination: .initialFilterFc, amount: -2400)]),
            .init(description: "velocity × inverted concave CC1 → pitch",
                  connections: [c(S.keyOnVelocity, S.cc(1), D.pitch, 100, transform: 1 << 4 | 0x0200)],
                  modulators: [Modulator(source: .init(.noteOnVelocity), destination: 59, amount: 100,
                                         amountSource: .cc(1, curve: .concave))]),
            .init(description: "velocity → EG1 sustain", connections: [c(S.keyOnVelocity, destination: D.eg1SustainLevel, 100)],
                  modulators: [Modulator(source: .init(.noteOnVelocity), destination: .sustainVolEnv, amount: -96)]),
            .init(description: "EG1 as a source", connections: [c(S.eg1, destination: D.pitch, 100)], unmapped: 1),
            .init(description: "RPN 1", connections: [c(S.rpn1, destination: D.pitch, 100)], unmapped: 1),
            .init(description: "key-number destination", connections: [c(destination: D.keyNumber, 12)], unmapped: 1),
            .init(description: "EG1 shutdown", connections: [c(destination: D.eg1ShutdownTime, -1200)], unmapped: 1),
            .init(description: "LFO → pan", connections: [c(S.lfo, destination: D.pan, 100)], unmapped: 1),
            .init(description: "gain boost", connections: [c(destination: D.gain, 30)],
                  generators: [Generator(.initialAttenuation, 0)], unmapped: 1),
        ]
        return cases
    }()

    /// `generators` over DLS's defaults where they differ from SF2's: both LFOs at 5 Hz
    /// (−851 cents) after 10 ms (−7973 timecents), in generator order.
    static func withDLSDefaults(_ generators: [Generator]) -> [Generator] {
        var all = [Generator(.freqModLFO, -851), Generator(.delayModLFO, -7973),
                   Generator(.freqVibLFO, -851), Generator(.delayVibLFO, -7973)]
        all.removeAll { d in generators.contains { $0.type == d.type } }
        return (all + generators).sorted { $0.rawType < $1.rawType }
    }

    @Test(arguments: connectionCases)
    func connectionMapsToGeneratorsAndModulators(_ testCase: ConnectionCase) throws {
        for level2 in [false, true] {
            let bytes = W.collection([W.Instrument(connections: testCase.connections, level2: level2)], waves: [W.Wave()])
            let font = try SoundFont(dlsBytes: bytes, name: "case.dls")
            let global = try #require(font.instruments.first?.globalZone)
            #expect(global.generators == Self.withDLSDefaults(testCase.generators),
                    "\(testCase.description), level \(level2 ? 2 : 1)")
            #expect(global.modulators == testCase.modulators, "\(testCase.description)")
            #expect(font.warnings.filter { $0.message.contains("connection") }.count == testCase.unmapped)
        }
    }

    @Test func instrumentsRegionsAndWaves() throws {
        let waves = [
            W.Wave(name: "Sixteen", pcm16: [0, 100, -200, 32767, -32768, 5, 6, 7, 8, 9], sampleRate: 32_000,
                   sample: W.WaveSample(unityNote: 62, fineTune: -7, loop: (type: 0, start: 2, length: 6))),
            W.Wave(name: "Eight", pcm16: nil, pcm8: [128, 255, 0, 64], sampleRate: 11_025),
        ]
        let piano = W.Instrument(name: "Piano", bank: 0x0000_0100, program: 5, regions: [
            W.Region(keys: 0...59, velocities: 0...100, keyGroup: 3, cue: 0),
            // The region's wsmp replaces the wave's: other root, tune, gain, a release loop elsewhere.
            W.Region(keys: 60...127, velocities: 101...127,
                     sample: W.WaveSample(unityNote: 72, fineTune: 20, attenuation: -60 * 65536,
                                          loop: (type: 1, start: 3, length: 4)), cue: 0),
            W.Region(keys: 60...127, cue: 1, level2: false),
        ])
        let drums = W.Instrument(name: "Drums", bank: 0x8000_0000, program: 0, regions: [
            W.Region(keys: 35...35, channel: 1, cue: 1), W.Region(keys: 35...35, channel: 2, cue: 1),
        ])
        let xgBank = W.Instrument(name: "LSB bank", bank: 0x0000_0005, program: 130 & 0x7F, regions: [W.Region(cue: 1)])
        let font = try SoundFont(dlsBytes: W.collection([piano, drums, xgBank], waves: waves, name: "My DLS"), name: "t.dls")

        #expect(font.info.name == "My DLS")
        #expect(font.presets.map(\.name) == ["Piano", "Drums", "LSB bank"])
        #expect(font.presets.map(\.bank) == [1, 128, 5])
        #expect(font.presets.map(\.program) == [5, 0, 2])
        #expect(font.samples.count == 2)
        let sixteen = font.samples[0], eight = font.samples[1]
        #expect(sixteen.name == "Sixteen" && sixteen.sampleRate == 32_000 && sixteen.originalPitch == 62)
        #expect(sixteen.pitchCorrection == -7)
        #expect(sixteen.loopStart - sixteen.start == 2 && sixteen.loopEnd - sixteen.start == 8)
        #expect(Array(try font.playableSample(at: 0).points) == [0, 100, -200, 32767, -32768, 5, 6, 7, 8, 9])
        #expect(Array(try font.playableSample(at: 1).points) == [0, 127 << 8, -128 << 8, -64 << 8])
        #expect(eight.sampleRate == 11_025 && eight.originalPitch == 60)

        let zones = font.instruments[0].zones
        #expect(zones.count == 3)
        #expect(zones[0].keyRange == 0...59 && zones[0].velocityRange == 0...100)
        #expect(zones[0].value(of: .exclusiveClass) == 3)
        #expect(zones[0].value(of: .sampleModes) == 1)   // the wave's forward loop
        #expect(zones[0].value(of: .overridingRootKey) == nil && zones[0].value(of: .fineTune) == nil)
        #expect(zones[0].value(of: .startloopAddrsOffset) == nil)
        #expect(zones[0].value(of: .sampleID) == 0)
        #expect(zones[1].velocityRange == 101...127)
        #expect(zones[1].value(of: .overridingRootKey) == 72)
        #expect(zones[1].value(of: .fineTune) == 27)      // 20 − (−7) relative to the sample's correction
        #expect(zones[1].value(of: .initialAttenuation) == 150)  // 6 dB ÷ 0.4
        #expect(zones[1].value(of: .sampleModes) == 3)    // DLS 2 release loop
        #expect(zones[1].value(of: .startloopAddrsOffset) == 1 && zones[1].value(of: .endloopAddrsOffset) == -1)
        #expect(zones[2].value(of: .sampleModes) == 0 && zones[2].value(of: .sampleID) == 1)
        #expect(zones[2].velocityRange == 0...127)
        // Generators in SF2 order: ranges first, sampleID last.
        for zone in zones {
            #expect(zone.generators[0].type == .keyRange && zone.generators[1].type == .velRange)
            #expect(zone.generators.last?.type == .sampleID)
        }
        // DLS 2 multichannel regions: left/right pan.
        let drumZones = font.instruments[1].zones
        #expect(drumZones.map { $0.value(of: .pan) } == [-500, 500])
        #expect(font.regions(bank: 128, program: 0, key: 35, velocity: 100).count == 2)
        #expect(font.regions(bank: 1, program: 5, key: 70, velocity: 110).count == 2)
        #expect(font.warnings.isEmpty, "\(font.warnings)")

        // The result is an ordinary bank: the SF2 writer and reader keep it.
        let reread = try SoundFont(bytes: font.serialized(), name: "reread")
        #expect(reread.instruments.map(\.zones) == font.instruments.map(\.zones))
        #expect(reread.presets.map(\.bank) == [1, 128, 5])
    }

    @Test func regionArticulationReplacesTheInstruments() throws {
        let instrument = W.Instrument(regions: [
            W.Region(cue: 0),
            W.Region(cue: 0, connections: [Self.c(destination: D.eg1DecayTime, 600)]),
        ], connections: [Self.c(destination: D.eg1AttackTime, 300),
                         Self.c(S.cc(1), destination: D.filterCutoff, -1200)])
        let font = try SoundFont(dlsBytes: W.collection([instrument], waves: [W.Wave()]), name: "r.dls")
        let global = try #require(font.instruments[0].globalZone)
        #expect(global.value(of: .attackVolEnv) == 300)
        let inherits = font.instruments[0].zones[0], own = font.instruments[0].zones[1]
        #expect(inherits.value(of: .attackVolEnv) == nil && inherits.modulators.isEmpty)
        #expect(own.value(of: .decayVolEnv) == 600)
        #expect(own.value(of: .attackVolEnv) == -12000)  // reset to the default DLS region semantics imply
        #expect(own.modulators == [Modulator(source: .cc(1), destination: .initialFilterFc, amount: 0)])
        // Resolved: the second region really has no attack and no CC1 filter sweep.
        let regions = font.regions(forPresetAt: 0)
        #expect(regions[0].generators[.attackVolEnv] == 300 && regions[1].generators[.attackVolEnv] == -12000)
        let sweep = regions[1].modulators.first { $0.source == .cc(1) && $0.destination == GeneratorType.initialFilterFc.rawValue }
        #expect(sweep?.amount == 0)
    }

    @Test func poolTableVariants() throws {
        let instrument = W.Instrument(regions: [W.Region(keys: 0...63, cue: 1), W.Region(keys: 64...127, cue: 0)])
        let waves = [W.Wave(name: "A", pcm16: [1, 2, 3]), W.Wave(name: "B", pcm16: [4, 5])]
        let standard = try SoundFont(dlsBytes: W.collection([instrument], waves: waves), name: "p.dls")
        #expect(standard.instruments[0].zones.map { $0.value(of: .sampleID) } == [1, 0])
        // Offsets counting the 'wvpl' id are accepted and noted.
        let shifted = try SoundFont(dlsBytes: W.collection([instrument], waves: waves, cueShift: 4), name: "s.dls")
        #expect(shifted.instruments[0].zones.map { $0.value(of: .sampleID) } == [1, 0])
        #expect(shifted.warnings.contains { $0.chunk == "ptbl" })
        // No table: cues are pool order.
        let untabled = try SoundFont(dlsBytes: W.collection([instrument], waves: waves, poolTable: false), name: "n.dls")
        #expect(untabled.instruments[0].zones.map { $0.value(of: .sampleID) } == [1, 0])
        // A cue past the table drops the region with a warning.
        let dangling = W.Instrument(regions: [W.Region(cue: 7), W.Region(cue: 0)])
        let font = try SoundFont(dlsBytes: W.collection([dangling], waves: waves), name: "d.dls")
        #expect(font.instruments[0].zones.count == 1)
        #expect(font.warnings.contains { $0.chunk == "wlnk" && $0.message.contains("cue 7") })
        // A non-PCM wave is reported and its regions dropped.
        var float = W.Wave(name: "Float")
        float.formatTag = 3
        let unplayable = try SoundFont(dlsBytes: W.collection([W.Instrument()], waves: [float]), name: "f.dls")
        #expect(unplayable.instruments[0].zones.isEmpty && unplayable.samples.isEmpty)
        #expect(unplayable.warnings.contains { $0.chunk == "fmt " })
    }

    @Test func structuralErrorsNameChunkAndOffset() throws {
        // Not DLS.
        let sf2 = TestBanks.rich().serialized()
        #expect(throws: SoundFontError(file: "x", format: .dls, chunk: "RIFF", offset: 0, kind: .unexpectedForm("sfbk"))) {
            try SoundFont(dlsBytes: sf2, name: "x")
        }
        // No wave pool.
        var noPool = Array("DLS ".utf8) + W.chunk("colh", W.u32(0))
        noPool = Array("RIFF".utf8) + W.u32(UInt32(noPool.count)) + noPool
        #expect(throws: SoundFontError(file: "x", format: .dls, chunk: "wvpl", offset: 12, kind: .missingChunk)) {
            try SoundFont(dlsBytes: noPool, name: "x")
        }
        // A region header that is too short: the error points at the rgnh chunk.
        let short = W.Instrument(regions: [W.Region(rawHeader: [0, 0, 127, 0])])
        let bytes = W.collection([short], waves: [W.Wave()])
        let rgnh = try #require(Self.find("rgnh", in: bytes))
        #expect(throws: SoundFontError(file: "x", format: .dls, chunk: "rgnh", offset: rgnh,
                                      kind: .chunkTooSmall(size: 4, minimum: 12))) {
            try SoundFont(dlsBytes: bytes, name: "x")
        }
        // An art2 chunk that claims more blocks than it holds.
        var lying = W.collection([W.Instrument(connections: [Self.c(destination: D.pan, 1)])], waves: [W.Wave()])
        let art = try #require(Self.find("art2", in: lying))
        lying[art + 12] = 200
        #expect(try Self.error(lying).format == .dls)
        // A truncated file.
        let truncated = try Self.error(Array(bytes.prefix(bytes.count - 10)))
        #expect(truncated == SoundFontError(file: "x", format: .dls, chunk: "RIFF", offset: 0,
                                            kind: .chunkPastEnd(declared: bytes.count - 8, available: bytes.count - 18)))
        // Not a RIFF file at all, and no file.
        #expect(try Self.error(Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96]).description
                == "x: RIFF at byte 0: not a RIFF file (not a DLS collection)")
        do {
            _ = try SoundFont(contentsOfDLS: "/nonexistent/polyphon.dls")
            Issue.record("a missing file loaded")
        } catch {
            #expect(error.format == .dls && error.chunk == "file")
            if case .cannotOpen = error.kind {} else { Issue.record("\(error)") }
        }
    }

    /// The error a damaged collection named "x" throws.
    static func error(_ bytes: [UInt8]) throws -> SoundFontError {
        do {
            _ = try SoundFont(dlsBytes: bytes, name: "x")
        } catch {
            return error
        }
        struct Loaded: Error {}
        throw Loaded()
    }

    static func find(_ id: String, in bytes: [UInt8]) -> Int? {
        let pattern = Array(id.utf8)
        return (0...(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == pattern }
    }

    @Test func damagedFilesNeverTrap() throws {
        let instrument = W.Instrument(regions: [
            W.Region(sample: W.WaveSample(unityNote: 50, loop: (0, 1, 3)), cue: 0,
                     connections: [Self.c(S.keyOnVelocity, destination: D.gain, -960, transform: 1)]),
        ], connections: [Self.c(destination: D.eg1AttackTime, 100)])
        let bytes = W.collection([instrument], waves: [W.Wave(sample: W.WaveSample(loop: (0, 0, 4)))])
        _ = try SoundFont(dlsBytes: bytes, name: "ok")
        var outcomes = (loaded: 0, rejected: 0)
        func attempt(_ damaged: [UInt8]) {
            do {
                _ = try SoundFont(dlsBytes: damaged, name: "fuzz")
                outcomes.loaded += 1
            } catch where error.format == .dls {
                outcomes.rejected += 1
            } catch {
                Issue.record("unexpected error type \(error)")
            }
        }
        for length in 0..<bytes.count { attempt(Array(bytes.prefix(length))) }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            var damaged = bytes
            for _ in 0..<3 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let at = Int(state >> 33) % damaged.count
                damaged[at] = UInt8(truncatingIfNeeded: state >> 13)
            }
            attempt(damaged)
        }
        #expect(outcomes.rejected > 0 && outcomes.loaded > 0)
    }

    @Test func anyBankEntryPointDispatchesOnContent() throws {
        let scratch = try DiscoveryTests.Scratch()
        let dls = try scratch.write("bank.sf2", W.collection([W.Instrument(name: "Organ")], waves: [W.Wave()]))
        let font = try SoundFont(contentsOfAnyBank: dls)
        #expect(font.presets.map(\.name) == ["Organ"])
        let sf2 = try scratch.write("bank.dls", TestBanks.rich().serialized())
        #expect(try SoundFont(contentsOfAnyBank: sf2).info.name == "Rich test bank")
        let plist = scratch.root + "/bank.plist"
        try SampleBankTests.writePlist(["32000", "a", "127", "60"], to: plist, format: .xml)
        #expect(throws: SoundBankError(path: plist, kind: .audioLoaderRequired)) { try SoundFont(contentsOfAnyBank: plist) }
        try scratch.write("a.wav", [0])
        let bank = try SoundFont(contentsOfAnyBank: plist, audioLoader: { _ in SampleBankAudio(sampleRate: 32000, channels: [[0.25, -0.25]]) })
        #expect(Array(try bank.playableSample(at: 0).points) == [8192, -8192])
        let junk = try scratch.write("junk.sf2", Array("hello, world".utf8))
        #expect(throws: SoundBankError(path: junk, kind: .unrecognized)) { try SoundFont(contentsOfAnyBank: junk) }
    }
}
