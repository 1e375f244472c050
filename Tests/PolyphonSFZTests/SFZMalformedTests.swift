import Testing
@testable import PolyphonSFZCore

/// Bad input: values out of range, missing samples, files that are not SFZ. Each becomes a
/// warning that names the file and line (and the region is skipped) or, for a file that is not
/// SFZ at all, a typed error — never a crash or a hang.
@Suite struct SFZMalformedTests {
    typealias I = SFZInheritanceTests

    @Test func aBadValueSkipsTheRegionsItCoversWithOneWarning() throws {
        let i = try I.instrument("""
            <group> sample=a.wav lovel=300
            <region> key=1
            <region> key=2
            <group> sample=a.wav
            <region> key=3 trigger=sometimes
            <region> key=4 loop_mode=forever
            <region> key=5
            """)
        #expect(i.regions.map(\.selection.keys.lower) == [5])
        let invalid = i.warnings.filter { $0.kind == .invalidValue }
        #expect(invalid.count == 3)
        #expect(invalid[0].description == "/i/root.sfz:1: lovel=300: 300 is above the highest value, 127; 2 regions skipped")
        #expect(invalid[1].message.contains("'sometimes' is not one of attack, release"))
        #expect(invalid[2].location?.line == 6)
    }

    @Test(arguments: [
        "lokey=500", "hikey=h9", "pitch_keycenter=x", "seq_length=0", "seq_position=101", "lochan=17",
        "sample=*sinewave", "fil_type=lpf_9p", "lfo1_wave=9", "off_mode=slow", "xf_keycurve=cubic",
        "loop_start=-5", "effect1=150", "sw_vel=next", "amp_velcurve_64=soft",
    ])
    func absurdValuesAreRefused(opcode: String) throws {
        let i = try I.instrument("<region> sample=a.wav \(opcode)")
        #expect(i.regions.isEmpty)
        #expect(i.warnings.map(\.kind) == [.invalidValue])
    }

    @Test func permissiveAndClampedValues() throws {
        let i = try I.instrument("<region> sample=a.wav volume=60 pitch_keytrack=5000 polyphony=9999 loop_crossfade=0 ampeg_attack=1e300 transpose=1e300")
        let r = try #require(i.regions.first)
        #expect(i.warnings.isEmpty)
        #expect(r.amplitude.volume.value == 60)                                // permissive: kept
        #expect(r.pitch.keytrack == 5000)
        #expect(r.polyphony.limit == 256)                                      // clamped
        #expect(r.playback.loopCrossfade == 0.001)                             // clamped below
        #expect(r.amplitudeEnvelope.attack == .greatestFiniteMagnitude)        // finite, never infinity
        #expect(r.pitch.transpose.isFinite)
    }

    @Test func endZeroAndBackwardRangesLeaveRegionsThatCannotSound() throws {
        let i = try I.instrument("""
            <region> sample=a.wav end=-1
            <region> sample=a.wav lokey=72 hikey=60
            <region> sample=a.wav lovel=100 hivel=10
            <region>
            <region> sample=a.wav key=60
            """)
        #expect(i.regions.count == 1)
        #expect(i.warnings.map(\.kind) == Array(repeating: .unplayableRegion, count: 4))
        #expect(i.warnings.map { $0.location!.line } == [1, 2, 3, 4])
    }

    @Test func aMissingSampleIsOneWarningPerFileAndItsRegionsAreSkipped() throws {
        let i = try I.instrument("""
            <region> sample=gone.wav key=1
            <region> sample=gone.wav key=2
            <region> sample=a.wav key=3
            <region> sample=other/gone.flac key=4
            """)
        #expect(i.regions.map(\.selection.keys.lower) == [3])
        #expect(i.warnings.map(\.description) == [
            "/i/root.sfz:1: sample 'gone.wav' not found (looked for /i/gone.wav); 2 regions skipped",
            "/i/root.sfz:4: sample 'other/gone.flac' not found (looked for /i/other/gone.flac); 1 region skipped",
        ])
    }

    @Test func windowsPathsResolveWithBackslashesAndAnyLetterCase() throws {
        let i = try I.instrument("""
            <control> default_path=..\\Shared Samples\\
            <region> sample=Piano\\C4 Soft.WAV key=60
            <region> sample=piano/c4 soft.wav key=61
            """, samples: ["../shared samples/piano/c4 soft.wav"])
        #expect(i.warnings.isEmpty)
        #expect(i.regions.count == 2)
        // Two names, one file: decoded once.
        #expect(i.samples == [SFZSampleFile(name: "../Shared Samples/Piano/C4 Soft.WAV", path: "/shared samples/piano/c4 soft.wav")])
        #expect(i.regions.allSatisfy { $0.sampleIndex == 0 })
    }

    @Test func textWithoutAnyHeaderIsNotSFZ() {
        #expect(throws: SFZError.self) { try SFZInstrument(text: "hello world\nthis is a README", path: "/i/readme.sfz") }
        #expect(throws: SFZError.self) { try SFZInstrument(text: "", path: "/i/empty.sfz") }
        do {
            _ = try SFZInstrument(text: "lokey=1", path: "/i/x.sfz")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "/i/x.sfz: not an SFZ instrument (no <region>, <group>, <control> or other header)")
        }
    }

    @Test func binaryFilesAreNotSFZ() {
        let fileSystem = SFZMemoryFileSystem()
        fileSystem.write(Array("RIFF".utf8) + [4, 0, 0, 0] + Array("sfbk".utf8) + [0, 0, 0], to: "/i/bank.sfz")
        do {
            _ = try SFZInstrument(path: "/i/bank.sfz", fileSystem: fileSystem)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "/i/bank.sfz: not an SFZ instrument (binary data, not text (it starts with 'RIFF'))")
        }
    }

    @Test func aMissingRootFileIsAnError() {
        #expect(throws: SFZError(path: "/i/none.sfz", kind: .cannotRead("no such file"))) {
            try SFZInstrument(path: "/i/none.sfz", fileSystem: SFZMemoryFileSystem())
        }
    }

    @Test func hugeNumbersInOpcodeNamesAreUnknownNotAllocations() throws {
        let i = try I.instrument("<region> sample=a.wav lfo4000000000_freq=1 eg99999_time3=1 cutoff77_oncc9=1 volume_oncc70000=1 amp_velcurve_300=1")
        #expect(i.regions.count == 1)
        #expect(i.regions[0].lfos.isEmpty && i.regions[0].flexEnvelopes.isEmpty && i.regions[0].filters.isEmpty)
        #expect(i.warnings.count == 5 && i.warnings.allSatisfy { $0.kind == .unknownOpcode })
    }

    @Test func warningsAreCappedAtTheLimit() throws {
        var limits = SFZReadingLimits()
        limits.maximumWarningCount = 10
        let text = (0..<50).map { "<region> sample=a.wav opcode\($0)x=1" }.joined(separator: "\n")
        let fileSystem = SFZMemoryFileSystem(files: ["/i/a.wav": [0]])
        let i = try SFZInstrument(text: text, path: "/i/root.sfz", fileSystem: fileSystem, limits: limits)
        #expect(i.regions.count == 50)
        #expect(i.warnings.count == 11)
        #expect(i.warnings.last?.message == "… and 40 more warnings")
    }

    @Test func theRegionLimitDropsTheRestWithOneWarning() throws {
        var limits = SFZReadingLimits()
        limits.maximumRegionCount = 3
        let fileSystem = SFZMemoryFileSystem(files: ["/i/a.wav": [0]])
        let i = try SFZInstrument(text: "<group> sample=a.wav " + String(repeating: "<region> ", count: 10), path: "/i/root.sfz",
                                  fileSystem: fileSystem, limits: limits)
        #expect(i.regions.count == 3)
        #expect(i.warnings.map(\.kind) == [.limitReached])
    }

    @Test func randomBytesNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("<>=#$/*\"\\ \n\tabcdefgklmnoprstuvwxyz0123456789_-.".utf8)
        for _ in 0..<300 {
            let count = Int.random(in: 0..<400, using: &generator)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
            let fileSystem = SFZMemoryFileSystem(files: ["/i/a.wav": [0], "/i/x.sfzh": Array("<region> sample=a.wav #include \"x.sfzh\"".utf8)])
            _ = try? SFZInstrument(text: String(decoding: bytes, as: UTF8.self), path: "/i/r.sfz", fileSystem: fileSystem)
        }
    }
}
