import Testing
@testable import PolyphonSFZCore

/// Headers and how their opcodes reach the regions: control → global → master → group → region,
/// each later level overriding, as sfizz builds regions.
@Suite struct SFZInheritanceTests {
    /// An instrument from `text` at `/i/root.sfz`, with empty files for `samples` (paths from
    /// `/i`), so regions naming them are kept.
    static func instrument(_ text: String, samples: [String] = ["a.wav", "b.wav", "c.wav"],
                           files: [String: String] = [:]) throws -> SFZInstrument {
        let fileSystem = SFZMemoryFileSystem()
        for sample in samples { fileSystem.write([0], to: "/i/" + sample) }
        for (path, content) in files { fileSystem.write(content, to: path) }
        fileSystem.write(text, to: "/i/root.sfz")
        return try SFZInstrument(path: "/i/root.sfz", fileSystem: fileSystem)
    }

    @Test func laterLevelsOverrideEarlierOnes() throws {
        let i = try Self.instrument("""
            <global> volume=-1 pan=10 amp_veltrack=50 sample=a.wav
            <master> volume=-2 tune=5
            <group> volume=-3 transpose=1
            <region> volume=-4 lokey=10
            <region> hikey=20
            """)
        #expect(i.regions.count == 2)
        #expect(i.regions[0].amplitude.volume.value == -4)
        #expect(i.regions[1].amplitude.volume.value == -3)
        for region in i.regions {
            #expect(region.amplitude.pan.value == 10)
            #expect(region.amplitude.velocityTracking.value == 50)
            #expect(region.pitch.tune.value == 5)
            #expect(region.pitch.transpose == 1)
            #expect(region.playback.sample == .file("a.wav"))
        }
        #expect(i.regions[0].selection.keys == SFZRange(10, 127))
        #expect(i.regions[1].selection.keys == SFZRange(0, 20))
    }

    @Test func aGlobalClearsTheMasterAndGroupAboveItAndAMasterClearsTheGroup() throws {
        let i = try Self.instrument("""
            <global> sample=a.wav
            <master> volume=-6
            <group> pan=50
            <region> key=1
            <master> tune=7
            <region> key=2
            <global> sample=b.wav
            <region> key=3
            """)
        #expect(i.regions.map { $0.amplitude.volume.value } == [-6, 0, 0])
        #expect(i.regions.map { $0.amplitude.pan.value } == [50, 0, 0])
        #expect(i.regions.map { $0.pitch.tune.value } == [0, 7, 0])
        #expect(i.regions[2].playback.sample == .file("b.wav"))
        #expect(i.regions.map(\.parents) == [SFZParentHeaders(global: 0, master: 0, group: 0),
                                             SFZParentHeaders(global: 0, master: 1, group: nil),
                                             SFZParentHeaders(global: 1, master: nil, group: nil)])
    }

    @Test func aGroupReplacesTheGroupBeforeIt() throws {
        let i = try Self.instrument("""
            <group> sample=a.wav volume=-6
            <region> key=1
            <group> sample=b.wav
            <region> key=2
            """)
        #expect(i.regions.map { $0.amplitude.volume.value } == [-6, 0])
        #expect(i.regions.map { $0.playback.sample } == [.file("a.wav"), .file("b.wav")])
    }

    @Test func regionsStartFromSfzDefaults() throws {
        let region = try Self.instrument("<region> sample=a.wav").regions[0]
        #expect(region.selection.keys == SFZRange(0, 127))
        #expect(region.selection.velocities == SFZRange(0, 127))
        #expect(region.pitch.keycenter == 60)
        #expect(region.pitch.keytrack == 100)
        #expect(region.amplitude.velocityTracking.value == 100)
        #expect(region.amplitudeEnvelope.release == 0.001)
        #expect(region.amplitudeEnvelope.sustain == 100)
        #expect(region.pitch.bendUp == 200 && region.pitch.bendDown == -200)
        #expect(region.trigger.kind == .attack)
        #expect(region.playback.loopMode == nil)
        #expect(region.filters.isEmpty && region.pitchEnvelope == nil && region.amplitudeLFO == nil)
    }

    @Test func keyAlsoSetsTheKeycenterUnlessItIsGivenAfter() throws {
        let i = try Self.instrument("""
            <region> sample=a.wav key=c5
            <region> sample=a.wav key=c5 pitch_keycenter=48
            <region> sample=a.wav pitch_keycenter=48 key=c5
            """)
        #expect(i.regions.map(\.pitch.keycenter) == [72, 48, 72])
        #expect(i.regions.allSatisfy { $0.selection.keys == SFZRange(72, 72) })
    }

    @Test func noteAndOctaveOffsetsMoveTheKeysOfTheRegionsAfterThem() throws {
        let i = try Self.instrument("""
            <region> sample=a.wav key=60
            <control> note_offset=2 octave_offset=-1
            <region> sample=a.wav lokey=60 hikey=64 pitch_keycenter=62 sw_last=24
            <region> sample=a.wav
            """)
        #expect(i.regions[0].selection.keys == SFZRange(60, 60))
        #expect(i.regions[1].selection.keys == SFZRange(50, 54))
        #expect(i.regions[1].pitch.keycenter == 52)
        #expect(i.regions[1].selection.keyswitch.last == 14)
        #expect(i.regions[2].selection.keys == SFZRange(0, 127))  // the full range stays full
        #expect(i.control.noteOffset == 2 && i.control.octaveOffset == -1)
    }

    @Test func everyHeaderKindIsRead() throws {
        let i = try Self.instrument("""
            <control> set_cc7=100 set_hdcc11=0.5 label_cc7=Volume label_key60=Middle C hint_ram_based=1
            <global> sw_default=c1
            <master>
            <group>
            <region> sample=a.wav
            <curve> curve_index=17 v000=0 v063=1 v127=0
            <curve> v000=1 v127=1
            <effect> type=lofi bus=fx1
            <sample> name=x.wav base64data=AAAA
            <midi> foo=1
            """)
        #expect(i.headerCounts == ["control": 1, "global": 1, "master": 1, "group": 1, "region": 1, "curve": 2,
                                   "effect": 1, "sample": 1, "midi": 1])
        #expect(i.control.controllerDefaults == [7: 100, 11: 63.5])
        #expect(i.control.controllerLabels == [7: "Volume"])
        #expect(i.control.keyLabels == [60: "Middle C"])
        #expect(i.control.hints == ["hint_ram_based": "1"])
        #expect(i.defaultKeyswitch == 24)
        let curve = i.curves.curve(at: 17)
        #expect(curve.values[0] == 0 && curve.values[63] == 1 && curve.values[127] == 0)
        #expect(abs(curve.value(at: 31.5) - 0.5) < 1e-6)
        // A curve without an index after one with an index is dropped, as in sfizz.
        #expect(i.curves.curves.count == SFZCurve.predefined.count + 1)
        #expect(i.warnings.map(\.kind).sorted { $0.rawValue < $1.rawValue }
                == [.ignoredHeader, .ignoredHeader, .invalidValue, .unknownHeader])
    }

    @Test func predefinedCurvesAreSfizzs() {
        let curves = SFZCurveSet()
        #expect(curves.curve(at: 0).values[127] == 1 && curves.curve(at: 0).values[0] == 0)
        #expect(curves.curve(at: 1).values[0] == -1)
        #expect(curves.curve(at: 2).values[0] == 1 && curves.curve(at: 2).values[127] == 0)
        #expect(abs(curves.curve(at: 4).values[64] - Float((64.0 / 127) * (64.0 / 127))) < 1e-6)
        #expect(abs(curves.curve(at: 5).values[64] - Float((64.0 / 127).squareRoot())) < 1e-6)
        #expect(curves.curve(at: 99) == curves.curve(at: 0))
    }

    @Test func unknownOpcodesAreOneWarningEachWhereverTheyAppear() throws {
        let i = try Self.instrument("""
            <global> frobnicate=1 sample=a.wav
            <region> frobnicate=2 key=1 default_path=x/
            <region> frobnicate=3 key=2 Frobnicate=4 wibble=1
            """)
        #expect(i.regions.count == 2)
        let unknown = i.warnings.filter { $0.kind == .unknownOpcode }
        #expect(unknown.count == 3)
        #expect(unknown[0].location?.line == 1 && unknown[0].message.contains("'frobnicate'"))
        #expect(unknown[1].message.contains("belongs in <control>"))
    }

    @Test func opcodesBeforeAnyHeaderAreIgnoredWithOneWarning() throws {
        let i = try Self.instrument("lokey=1 hikey=2\n<region> sample=a.wav")
        #expect(i.regions[0].selection.keys == SFZRange(0, 127))
        #expect(i.warnings.count == 1)
    }
}
