import Testing
@testable import PolyphonSoundFont
@testable import PolyphonSoundFontCore

/// Instrument zones' voice shapings written into the SF2 (`izvs` in the private `zext` list) and
/// read back: every family, field by field and bit for bit; malformed records rejected with the
/// chunk and byte offset.
@Suite struct VoiceShapingChunkTests {
    /// Floats whose bits a lossy codec would change: −0, the smallest subnormal, the largest
    /// finite, a value that is no short decimal.
    static let awkward: [Float] = [-0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1 / 3]

    static func depth(_ controller: Int, _ depth: Float, curved: Bool = false) -> ControllerDepth {
        ControllerDepth(controller: controller, depth: depth, curve: curved ? (0..<128).map { Float($0) / 97 } : [])
    }

    /// Every optional set, every list holding entries, every field away from its default.
    static var everyFamily: VoiceShaping {
        func value(_ base: Float) -> NoteStartValue {
            NoteStartValue(base, byVelocity: base / 2, random: 0.125, controllers: [depth(7, base + 1, curved: true)])
        }
        var volume = VolumeEnvelopeShape()
        (volume.delay, volume.start, volume.attack, volume.hold) = (value(0.1), value(0.2), value(0.3), value(0.4))
        (volume.decay, volume.sustain, volume.release) = (value(0.5), value(0.6), value(0.7))
        volume.isDynamic = true
        var s = VoiceShaping()
        s.noteStart = NoteStartShape(volumeEnvelope: volume, delay: value(0.05), offset: value(300), loopRepeats: 3)
        s.noteStart?.pitch = NoteStartPitch(velocityTracking: value(-600), random: 25, randomStream: 4)
        s.noteStart?.end = value(-4410)
        s.noteStart?.loopStart = value(100)
        s.noteStart?.loopEnd = value(-200)
        var filter = FilterShape(.bandPass, poles: 4, cutoff: 1234.5, resonance: 3, keytrack: 50, keycenter: 64,
                                 velocityTracking: -1200)
        filter.gain = awkward[0]
        filter.velocityTrackingControllers = [depth(1, 600), depth(131, -2)]
        filter.random = 100
        filter.randomStream = 0xDEAD_BEEF
        s.filter = filter
        var second = FilterShape(.lowShelf, poles: 2, cutoff: 8000)
        second.gain = -6
        s.secondFilter = second
        var pitch = ModulationEnvelopeShape(depth: 1200)
        (pitch.delay, pitch.start, pitch.attack, pitch.hold, pitch.decay) = (0.01, 0.1, 0.02, 0.03, 0.04)
        (pitch.sustain, pitch.release) = (0.5, 0.06)
        (pitch.velocityToDelay, pitch.velocityToAttack, pitch.velocityToHold) = (0.001, 0.002, 0.003)
        (pitch.velocityToDecay, pitch.velocityToSustain, pitch.velocityToRelease) = (0.004, 0.05, 0.006)
        pitch.velocityToDepth = awkward[3]
        s.pitchEnvelope = pitch
        var cutoff = ModulationEnvelopeShape(depth: -2400)
        cutoff.release = awkward[1]
        s.filterEnvelope = cutoff
        s.volumeLFO = LFOShape(.square, frequency: 2, depth: 6, delay: 0.5, fade: 0.25)
        s.pitchLFO = LFOShape(.sine, frequency: 5.5, depth: 30)
        s.filterLFO = LFOShape(.sampleAndHold, frequency: awkward[2], depth: -100, fade: 1)
        s.equalizers = [EqualizerBandShape(frequency: 500, gain: 6, velocityToFrequency: 20, velocityToGain: -3),
                        EqualizerBandShape(.highShelf, frequency: 6000, bandwidth: 0.5, gain: -12)]
        s.controllerModulations = [
            ControllerModulationShape(controller: 74, target: .cutoff, index: 1, depth: 2400,
                                      curve: (0..<128).map { Float($0 * $0) / 16129 }, smoothing: 20, step: 100),
            ControllerModulationShape(controller: 128, target: .equalizerGain, index: 2, depth: -6),
        ]
        var lfo = RoutedLFOShape(frequency: 3, waves: [.init(.triangle), .init(.saw, offset: 0.5, ratio: 2, scale: -1)],
                                 routes: [ModulationRoute(.pitch, depth: 50, depthControllers: [depth(1, 1)]),
                                          ModulationRoute(.amplitude, depth: 0.5)])
        lfo.frequencyControllers = [depth(2, 4)]
        lfo.phase = 0.25
        lfo.phaseControllers = [depth(7, 0.5)]
        lfo.delay = 0.1
        lfo.delayControllers = [depth(3, 0.2)]
        lfo.fade = 0.3
        lfo.fadeControllers = [depth(4, 0.4, curved: true)]
        lfo.count = 7
        lfo.steps = [1, -0.5, 0.25]
        s.routedLFOs = [lfo, RoutedLFOShape(frequency: 0.5, waves: [.init(.pulse25)],
                                            routes: [.init(.resonance, depth: 3), .init(.width, depth: 50),
                                                     .init(.band3Gain, depth: -6)])]
        var point = FlexEnvelopeShape.Point(time: 0.2, level: -0.5, shape: 2)
        point.timeControllers = [depth(5, 0.1)]
        point.levelControllers = [depth(6, 0.5)]
        var flex = FlexEnvelopeShape(points: [.init(time: 0, level: 1), point, .init(time: 0.5, level: 0, shape: -3)],
                                     sustain: 1, routes: [.init(.cutoff, depth: 1200), .init(.pan, depth: -100)])
        flex.isDynamic = true
        flex.drivesAmplitude = true
        s.flexEnvelopes = [flex]
        var amplitude = AmplitudeShape()
        amplitude.gain = 3
        amplitude.velocity = .init(tracking: -0.5, curve: (0..<128).map { Float($0) / 127 }, controllers: [depth(8, 0.25)])
        amplitude.keytrack = -0.5
        amplitude.keycenter = 48
        amplitude.random = 2
        amplitude.randomStream = 9
        amplitude.noteCrossfades = [.init(.key, fadesIn: true, start: 40, end: 50, curve: .power),
                                    .init(.velocity, fadesIn: false, lower: 20, upper: 100, curve: .gain)]
        amplitude.controllerCrossfades = [.init(controller: 11, fade: .init(.controller, fadesIn: true, lower: 0,
                                                                            upper: 64, curve: .power))]
        amplitude.controllerGains = [depth(7, 0.8, curved: true)]
        s.amplitude = amplitude
        s.stereo = StereoShape(side: .right, pan: -0.25, width: 0.5, position: 0.75,
                               widthControllers: [depth(20, 0.1)], positionControllers: [depth(21, -0.2)])
        return s
    }

    /// One instrument whose zones carry `shapings` (the first also a play condition).
    static func bank(_ shapings: [VoiceShaping?]) -> SoundFont {
        var b = SoundFont.Builder(name: "Shaped")
        let s = b.addSample(TestBanks.sine(64), name: "sine", sampleRate: 44_100, originalPitch: 60, loop: 8..<56)
        var condition = PlayCondition()
        condition.sequenceLength = 2
        let zones = shapings.enumerated().map { i, shaping in
            Zone(generators: [Generator(.sampleModes, 1), Generator(.sampleID, Int16(s))],
                 playCondition: i == 0 ? condition : nil, shaping: shaping)
        }
        let shaped = b.addInstrument("Shaped", globalZone: Zone(generators: [Generator(.releaseVolEnv, 100)]), zones: zones)
        b.addPreset("Shaped", program: 0, zones: [Zone(generators: [Generator(.instrument, Int16(shaped))])])
        return b.build()
    }

    @Test func everyFamilyTravelsFieldByFieldAndBitForBit() throws {
        let every = Self.everyFamily
        let bank = Self.bank([every, nil, VoiceShaping()])
        let bytes = bank.serialized()
        let read = try SoundFont(bytes: bytes, name: "shaped.sf2")
        #expect(read.warnings.isEmpty, "\(read.warnings)")
        let zones = read.instruments[0].zones
        #expect(zones[1].shaping == nil)
        #expect(zones[2].shaping == VoiceShaping())
        #expect(zones[0].playCondition == bank.instruments[0].zones[0].playCondition)
        let back = try #require(zones[0].shaping)
        #expect(back.noteStart == every.noteStart)
        #expect(back.filter == every.filter)
        #expect(back.pitchEnvelope == every.pitchEnvelope)
        #expect(back.filterEnvelope == every.filterEnvelope)
        #expect(back.volumeLFO == every.volumeLFO)
        #expect(back.pitchLFO == every.pitchLFO)
        #expect(back.filterLFO == every.filterLFO)
        #expect(back.secondFilter == every.secondFilter)
        #expect(back.equalizers == every.equalizers)
        #expect(back.controllerModulations == every.controllerModulations)
        #expect(back.routedLFOs == every.routedLFOs)
        #expect(back.flexEnvelopes == every.flexEnvelopes)
        #expect(back.amplitude == every.amplitude)
        #expect(back.stereo == every.stereo)
        #expect(read.instruments == bank.instruments)
        // Bit for bit: −0 stays −0 (== cannot tell), and writing the read bank gives the same bytes.
        #expect(back.filter?.gain.bitPattern == Float(-0.0).bitPattern)
        #expect(back.filterLFO?.frequency == .greatestFiniteMagnitude)
        #expect(read.serialized() == bytes)

        // Both chunks in the one zext list, which other readers skip; no list without either.
        let top = try TestBanks.chunks(bytes, in: 12..<bytes.count)
        #expect(top.count == 4)
        let izvs = try TestBanks.chunk("izvs", in: bytes, list: "zext")
        _ = try TestBanks.chunk("izpc", in: bytes, list: "zext")
        let empty = try TestBanks.chunk("izvs", in: Self.bank([VoiceShaping()]).serialized(), list: "zext")
        #expect(empty.size == 8 + VoiceShapingChunk.minimumRecordSize)
        #expect(izvs.size > empty.size + 2_000)
        var unshaped = Self.bank([nil])
        unshaped.instruments[0].zones[0].playCondition = nil
        let unshapedBytes = unshaped.serialized()
        #expect(try TestBanks.chunks(unshapedBytes, in: 12..<unshapedBytes.count).count == 3)
    }

    /// The codec writes each type's stored properties one by one: a property added to one of
    /// them must be added to `izvs` (and to ``everyFamily``), or it would not reach the browser.
    @Test func theCodecKnowsEveryStoredProperty() {
        let depth = Self.depth(1, 1)
        let crossfade = AmplitudeShape.Crossfade(.key, fadesIn: true, start: 0, end: 1, curve: .gain)
        let counts: [(Any, Int)] = [
            (VoiceShaping(), 14), (NoteStartShape(), 8), (NoteStartPitch(), 3), (NoteStartValue(0), 4),
            (VolumeEnvelopeShape(), 8), (FilterShape(.lowPass, poles: 2, cutoff: 1), 11), (ModulationEnvelopeShape(), 15),
            (LFOShape(.sine, frequency: 1, depth: 1), 5), (EqualizerBandShape(frequency: 1, gain: 1), 6),
            (ControllerModulationShape(controller: 1, target: .cutoff, depth: 1), 7),
            (RoutedLFOShape(frequency: 1, waves: [], routes: []), 12), (RoutedLFOShape.Wave(.sine), 4),
            (ModulationRoute(.pitch, depth: 1), 3), (FlexEnvelopeShape(points: [], sustain: 0, routes: []), 5),
            (FlexEnvelopeShape.Point(time: 0, level: 0), 5), (AmplitudeShape(), 9),
            (AmplitudeShape.VelocityTracking(tracking: 1), 3), (crossfade, 5),
            (AmplitudeShape.ControllerCrossfade(controller: 1, fade: crossfade), 2), (StereoShape(side: .left), 6), (depth, 3),
        ]
        for (value, count) in counts {
            #expect(Mirror(reflecting: value).children.count == count, "\(type(of: value)) has new stored properties")
        }
    }

    /// The bytes of a bank with `shaping` on its only zone, with `edit` applied to its `izvs`
    /// body (offsets from the body's start), and the body's offset in the file.
    static func edited(_ shaping: VoiceShaping, _ edit: (inout [UInt8], Int) -> Void) throws -> (bytes: [UInt8], body: Int) {
        var bank = Self.bank([shaping])
        bank.instruments[0].zones[0].playCondition = nil
        var bytes = bank.serialized()
        let body = try TestBanks.chunk("izvs", in: bytes, list: "zext").dataOffset
        edit(&bytes, body)
        return (bytes, body)
    }

    @Test func malformedShapingsAreErrorsNamingChunkAndOffset() throws {
        // An LFO-only shaping: bag u16 at 8, length u32 at 10, flags from 14 (volumeLFO's at 18),
        // its wave at 19, frequency f32 at 20.
        var lfo = VoiceShaping()
        lfo.volumeLFO = LFOShape(.sine, frequency: 4, depth: 6)
        // A flex-envelope shaping: the lists' counts from 22 (flex envelopes' at 28), then its
        // points' count at 30, its sustain i32 at 32.
        var flex = VoiceShaping()
        flex.flexEnvelopes = [FlexEnvelopeShape(points: [], sustain: 0, routes: [])]
        let cases: [(String, VoiceShaping, (inout [UInt8], Int) -> Void, Int)] = [
            ("record count past the chunk", lfo, { b, o in b[o + 4] = 0xFF; b[o + 7] = 0x7F }, 4),
            ("bag of no zone", lfo, { b, o in b[o + 8] = 40 }, 8),
            ("length past the chunk", lfo, { b, o in b[o + 13] = 0x10 }, 10),
            ("length not the record's", lfo, { b, o in b[o + 10] -= 1 }, 10),
            ("flag neither 0 nor 1", lfo, { b, o in b[o + 18] = 7 }, 18),
            ("unknown wave", lfo, { b, o in b[o + 19] = 9 }, 19),
            ("non-finite frequency", lfo, { b, o in b[o + 23] = 0x7F; b[o + 22] = 0xC0 }, 20),
            ("list longer than the chunk", flex, { b, o in b[o + 28] = 0xFF; b[o + 29] = 0xFF }, 28),
            ("points longer than the chunk", flex, { b, o in b[o + 31] = 0x10 }, 30),
            ("sustain index out of bounds", flex, { b, o in b[o + 35] = 0x7F }, 32),
        ]
        for (what, shaping, edit, at) in cases {
            let (bytes, body) = try Self.edited(shaping, edit)
            let error = try #require(ZoneRulesChunkTests.error(bytes), "\(what)")
            #expect(error.chunk == "izvs", "\(what): \(error)")
            #expect(error.offset == body + at, "\(what): \(error)")
            #expect(error.description.hasPrefix("bad.sf2: izvs at byte "), "\(error)")
        }
        // Another version, earlier (a twin written by an older Polyphon, laid out otherwise) or
        // later, is skipped with a warning: the zone plays its SF2 generators alone.
        for version: UInt8 in [1, 3] {
            let (other, _) = try Self.edited(lfo) { b, o in b[o] = version }
            let read = try SoundFont(bytes: other, name: "other.sf2")
            #expect(read.instruments[0].zones[0].shaping == nil)
            #expect(read.warnings.map(\.chunk) == ["izvs"])
            #expect(read.warnings.first?.description.contains("version \(version) ignored (this reader knows 2)") == true,
                    "\(read.warnings)")
        }
    }
}
