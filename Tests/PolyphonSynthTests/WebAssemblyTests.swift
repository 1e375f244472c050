import Foundation
import Testing
import PolyphonSoundFont
import PolyphonMIDI
import PolyphonTestSupport
import PolyphonWebKit
@testable import PolyphonSynth

/// The engine compiled to WebAssembly (Scripts/build-wasm.sh) against the native engine: the
/// same bank bytes and events, rendered in Node through the JavaScript wrapper and in process.
@Suite(.serialized) struct WebAssemblyTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// The checkout's module (`.build-wasm`), built from the current sources once per test run
    /// when a source is newer than it (a minute or more) and otherwise used as it is, as the jam
    /// server and `export-web` use it: CI builds it first. Nil without a toolchain that can build
    /// it (it needs swiftc's Embedded wasm32 standard library, clang and wasm-ld).
    static let module: String? = try? WebAssemblyKit(packageRoot: packageRoot).prepareModule { print($0) }

    static var nodeAvailable: Bool { RealFiles.toolAvailable("node") }

    /// One scenario: a bank, timed MIDI messages, a length and the block size both render in.
    struct Scenario {
        var bank: SoundFont
        var events: [(frame: Int, bytes: [UInt8])]
        var frames: Int
        var block: Int
    }

    /// Renders in Node and natively; returns (left+right wasm, left+right native).
    static func render(_ scenario: Scenario) throws -> ([Float], [Float]) {
        let module = try #require(Self.module, "Scripts/build-wasm.sh failed")
        let dir = NSTemporaryDirectory() + "polyphon-wasm-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bankBytes = scenario.bank.serialized()
        try Data(bankBytes).write(to: URL(fileURLWithPath: dir + "/bank.sf2"))
        let json = "[" + scenario.events.map { "[\($0.frame),[\($0.bytes.map(String.init).joined(separator: ","))]]" }
            .joined(separator: ",") + "]"
        try Data(json.utf8).write(to: URL(fileURLWithPath: dir + "/events.json"))
        let r = try runProcess("/usr/bin/env", ["node", packageRoot + "/WebAssembly/render-node.mjs", module, dir + "/bank.sf2",
                                                dir + "/events.json", "\(scenario.frames)", "\(scenario.block)", dir + "/out.f32"])
        #expect(r.status == 0, "\(r.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/out.f32"))
        let wasm = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }

        // Native: the same bytes read back (so both play exactly the same bank), same blocks.
        let bank = try SoundFont(bytes: bankBytes, name: "bank.sf2")
        let synth = try Synthesizer(soundBank: bank, sampleRate: 44_100)
        var left = [Float](repeating: 0, count: scenario.frames), right = left
        var next = 0
        var start = 0
        while start < scenario.frames {
            let n = min(scenario.block, scenario.frames - start)
            while next < scenario.events.count && scenario.events[next].frame < start + n {
                let e = scenario.events[next]
                if e.bytes[0] == 0xF0 { synth.sendMIDISysExEvent(e.bytes, atFrame: e.frame - start) }
                else { synth.sendMIDIEvent(e.bytes[0], data1: e.bytes[1], data2: e.bytes.count > 2 ? e.bytes[2] : 0,
                                           atFrame: e.frame - start) }
                next += 1
            }
            left.withUnsafeMutableBufferPointer { l in
                right.withUnsafeMutableBufferPointer { r in
                    synth.render(left: l.baseAddress! + start, right: r.baseAddress! + start, frameCount: n)
                }
            }
            start += n
        }
        return (wasm, left + right)
    }

    /// Largest difference in dBFS (−∞ when identical) and how many samples differ.
    static func difference(_ a: [Float], _ b: [Float]) -> (decibels: Double, differing: Int) {
        var worst: Float = 0, count = 0
        for (x, y) in zip(a, b) where x != y {
            count += 1
            worst = max(worst, abs(x - y))
        }
        return (worst > 0 ? 20 * log10(Double(worst)) : -.infinity, count)
    }

    static var everything: Scenario {
        let bank = TestBank.sine(generators: [
            Generator(.attackVolEnv, -3000), Generator(.decayVolEnv, -1200), Generator(.sustainVolEnv, 100),
            Generator(.releaseVolEnv, -1800), Generator(.initialFilterFc, 5000), Generator(.initialFilterQ, 120),
            Generator(.modEnvToFilterFc, 2000), Generator(.attackModEnv, -2400), Generator(.vibLfoToPitch, 30),
            Generator(.delayVibLFO, -6000), Generator(.modLfoToVolume, 20), Generator(.reverbEffectsSend, 400),
            Generator(.chorusEffectsSend, 300),
        ])
        var events: [(Int, [UInt8])] = [(0, [0xC0, 0]), (0, [0xB0, 7, 110]), (3, [0x90, 69, 100]),
                                        (1_000, [0x90, 76, 80]), (5_123, [0xE0, 0, 80]), (7_000, [0xB0, 1, 90]),
                                        (9_001, [0xB0, 10, 20]), (11_025, [0x80, 69, 0]), (12_000, [0xB0, 64, 127]),
                                        (13_333, [0x80, 76, 0]), (15_000, [0x90, 57, 127]), (20_000, [0xB0, 64, 0]),
                                        (24_000, [0x80, 57, 0])]
        events.append((26_000, [0xF0, 0x7F, 0x7F, 0x04, 0x01, 0x00, 0x50, 0xF7]))  // master volume
        events.append((27_000, [0x90, 81, 64]))
        return Scenario(bank: bank, events: events, frames: 44_100, block: 128)
    }

    @Test(.enabled(if: RealFiles.isCI || nodeAvailable))
    func envelopesModulatorsFilterLoopsAndEffectsMatchNative() throws {
        // The only difference: the native engine builds its tables with the C library's pow
        // and sin, the module (no libc) with PortableMath's. Built natively with the portable
        // functions, the two renders are bit-identical (checked by hand, 0 of 88,200 samples).
        let (wasm, native) = try Self.render(Self.everything)
        #expect(wasm.count == native.count)
        let peak = native.map(abs).max() ?? 0
        #expect(peak > 0.05)
        let d = Self.difference(wasm, native)
        print("wasm vs native: \(d.differing) of \(native.count) samples differ, worst \(d.decibels) dBFS")
        #expect(d.decibels < -120, "worst difference \(d.decibels) dBFS over \(d.differing) samples")
    }

    @Test(.enabled(if: RealFiles.isCI || nodeAvailable))
    func stereoPairsMatchNative() throws {
        let bank = TestBank.stereoPair(generators: [Generator(.releaseVolEnv, -1200)])
        let scenario = Scenario(bank: bank, events: [(0, [0x90, 60, 100]), (20_000, [0x80, 60, 0])], frames: 30_000, block: 300)
        let (wasm, native) = try Self.render(scenario)
        let d = Self.difference(wasm, native)
        print("stereo pair: \(d.differing) of \(native.count) samples differ, worst \(d.decibels) dBFS")
        #expect(d.decibels < -120)
    }

    static var chromiumAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
    }

    /// The module in an AudioWorklet in headless Chromium (OfflineAudioContext, 48 kHz): A4 on
    /// the 440 Hz sine bank comes out at 440 Hz and at the native engine's level, sample for
    /// sample within −120 dBFS of a native render of the same events.
    @Test(.enabled(if: RealFiles.isCI || chromiumAvailable))
    func playsA4InAnAudioWorkletInChromium() throws {
        let module = try #require(Self.module, "Scripts/build-wasm.sh failed")
        let dir = NSTemporaryDirectory() + "polyphon-chromium-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bank = TestBank.sine(generators: [Generator(.releaseVolEnv, -1200)])
        let bankBytes = bank.serialized()
        try Data(bankBytes).write(to: URL(fileURLWithPath: dir + "/bank.sf2"))
        try Data("[[0,[144,69,100]],[0.8,[128,69,0]]]".utf8).write(to: URL(fileURLWithPath: dir + "/events.json"))
        let r = try runProcess(RealFiles.python, [Self.packageRoot + "/WebAssembly/test/run-in-chromium.py", module,
                                                  dir + "/bank.sf2", dir + "/events.json", "1", "48000", dir + "/out.f32"])
        #expect(r.status == 0, "\(r.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/out.f32"))
        let browser = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        try #require(browser.count == 96_000)

        let pitch = Measure.frequency(browser[4_800..<33_600], rate: 48_000)
        let cents = Measure.cents(pitch, 440)
        let level = Measure.db(Measure.rms(browser[4_800..<33_600]))
        print("Chromium: \(pitch) Hz (\(cents) cents), \(level) dBFS RMS")
        #expect(abs(cents) < 1)

        // Native: the same bytes and events at the same frames, in 128-frame quanta.
        let synth = try Synthesizer(soundBank: try SoundFont(bytes: bankBytes, name: "bank.sf2"), sampleRate: 48_000)
        var left = [Float](repeating: 0, count: 48_000), right = left
        for start in stride(from: 0, to: 48_000, by: 128) {
            if start == 0 { synth.startNote(69, withVelocity: 100, onChannel: 0) }
            if start == 38_400 { synth.stopNote(69, onChannel: 0) }
            left.withUnsafeMutableBufferPointer { l in
                right.withUnsafeMutableBufferPointer { r in
                    synth.render(left: l.baseAddress! + start, right: r.baseAddress! + start, frameCount: 128)
                }
            }
        }
        let nativeLevel = Measure.db(Measure.rms(left[4_800..<33_600]))
        #expect(abs(level - nativeLevel) < 0.01)
        #expect(nativeLevel > -40)
        let d = Self.difference(browser, left + right)
        print("Chromium vs native: \(d.differing) samples differ, worst \(d.decibels) dBFS")
        #expect(d.decibels < -120)
    }

    /// A real bank's preset subsets on a song excerpt: the first 8 s of a planetblupi song on
    /// the FluidR3_GM presets it uses, one subset holding them all, in Node and natively.
    @Test(.enabled(if: RealFiles.isCI || (nodeAvailable && FileManager.default.fileExists(atPath: RealFiles.fluidR3)
                                          && FileManager.default.fileExists(atPath: "/usr/share/planetblupi/music/music004.mid"))))
    func aSongExcerptOnRealPresetSubsetsMatchesNative() throws {
        let full = try SoundFont(contentsOf: RealFiles.fluidR3)
        let song = try MIDIFile(contentsOfFile: "/usr/share/planetblupi/music/music004.mid")
        var events: [(frame: Int, bytes: [UInt8])] = []
        var presets = Set<Int>()
        var programs = [UInt8](repeating: 0, count: 16)
        func use(_ channel: UInt8) {
            let bank: UInt16 = channel == 9 ? 128 : 0
            let program = UInt16(programs[Int(channel)])
            if let i = full.presets.firstIndex(where: { $0.bank == bank && $0.program == program })
                ?? full.presets.firstIndex(where: { $0.bank == bank && $0.program == 0 }) { presets.insert(i) }
        }
        for e in song.timedEvents() where e.seconds < 8 {
            let frame = Int((e.seconds * 44_100).rounded())
            switch e.message {
            case .noteOn(let c, let k, let v): use(c); events.append((frame, [0x90 | c, k, v]))
            case .noteOff(let c, let k, let v): events.append((frame, [0x80 | c, k, v]))
            case .controlChange(let c, let n, let v): events.append((frame, [0xB0 | c, n, v]))
            case .programChange(let c, let p): programs[Int(c)] = p; events.append((frame, [0xC0 | c, p]))
            case .pitchBend(let c, let v): events.append((frame, [0xE0 | c, UInt8(v & 0x7F), UInt8(v >> 7)]))
            default: break
            }
        }
        #expect(presets.count >= 2)
        let subset = try full.subset(presetIndexes: presets.sorted())
        let (wasm, native) = try Self.render(Scenario(bank: subset, events: events, frames: 9 * 44_100, block: 128))
        #expect((native.map(abs).max() ?? 0) > 0.05)
        let d = Self.difference(wasm, native)
        print("music004 excerpt on \(presets.count) FluidR3 presets: \(d.differing) of \(native.count) samples differ, worst \(d.decibels) dBFS")
        #expect(d.decibels < -120)
    }

    /// An SFZ-style instrument built in code: key 69 alternates between two round-robin zones
    /// (the sine at A4, then a fifth up) and a note-off starts a release zone an octave up.
    /// Its play conditions (and the preset's controller default they depend on) travel in the
    /// SF2 the page is sent (the `zext` list), so the module plays what native plays: each
    /// note's sample told by its pitch, the two renders equal.
    @Test(.enabled(if: RealFiles.isCI || nodeAvailable))
    func roundRobinAndReleaseZonesMatchNative() throws {
        var bank = TestBank.sine()
        let sine = bank.instruments[0].zones[0]
        func zone(tune: Int16, extra: [Generator] = [], _ condition: PlayCondition) -> Zone {
            var z = sine
            z.generators.insert(contentsOf: [Generator(.coarseTune, tune)] + extra, at: 0)
            z.playCondition = condition
            return z
        }
        var first = PlayCondition(), second = PlayCondition(), release = PlayCondition()
        first.sequenceLength = 2
        second.sequenceLength = 2
        second.sequencePosition = 2
        second.counter = 1
        second.region = 1
        release.trigger = .release
        release.counter = 2
        release.region = 2
        // The attack zones play from CC 20 = 64 up, which only the preset's controller default
        // (SFZ `set_cc20=100`, the `pcdf` chunk) sets: without it the module would stay silent.
        first.controllers = [.init(controller: 20, lower: 64, upper: 127)]
        second.controllers = first.controllers
        bank.presets[0].controllerDefaults = [ControllerDefault(controller: 20, value: 100)]
        bank.instruments[0].zones = [
            zone(tune: 0, first), zone(tune: 7, second),
            zone(tune: 12, extra: [Generator(.decayVolEnv, -2400), Generator(.sustainVolEnv, 1000)], release),
        ]
        let scenario = Scenario(bank: bank, events: [(0, [0x90, 69, 100]), (8_000, [0x80, 69, 0]),
                                                     (12_000, [0x90, 69, 100]), (20_000, [0x80, 69, 0])],
                                frames: 24_000, block: 128)
        let (wasm, native) = try Self.render(scenario)
        let left = wasm[0..<24_000]
        let heard = [2_000..<7_500, 8_500..<11_500, 15_000..<19_500].map {
            Measure.frequency(left[$0], rate: 44_100)
        }
        print("round robin and release in wasm: \(heard) Hz")
        #expect(abs(Measure.cents(heard[0], 440)) < 2)
        #expect(abs(Measure.cents(heard[1], 880)) < 2)
        #expect(abs(Measure.cents(heard[2], 440 * pow(2, 7.0 / 12))) < 2)
        let d = Self.difference(wasm, native)
        print("SFZ play conditions: \(d.differing) of \(native.count) samples differ, worst \(d.decibels) dBFS")
        #expect(d.decibels < -120)
    }

    /// An SFZ-style instrument built in code with its voice shaping: a low-pass filter whose
    /// cutoff a v2 flex envelope moves, a pitch envelope holding an octave up for 0.1 s, and a
    /// v1 LFO on the volume. The shaping travels in the SF2 the page is sent (`izvs` in the
    /// `zext` list), so the module plays what native plays from the bank built in code: the
    /// octave then the note, the LFO's swell, and the two renders equal.
    @Test(.enabled(if: RealFiles.isCI || nodeAvailable))
    func voiceShapingMatchesNative() throws {
        var bank = TestBank.sine()
        var shaping = VoiceShaping(filter: FilterShape(.lowPass, poles: 2, cutoff: 2_000, resonance: 3),
                                   volumeLFO: LFOShape(.sine, frequency: 5, depth: 6))
        var pitch = ModulationEnvelopeShape(depth: 1_200)
        pitch.hold = 0.1
        pitch.sustain = 0
        shaping.pitchEnvelope = pitch
        // The cutoff opens over the first 50 ms (a moving filter bends the phase, so the pitch is
        // measured after it).
        shaping.flexEnvelopes = [FlexEnvelopeShape(points: [.init(time: 0, level: 1), .init(time: 0.05, level: 0)],
                                                   sustain: 1, routes: [ModulationRoute(.cutoff, depth: -2_400)])]
        bank.instruments[0].zones[0].shaping = shaping
        // Native renders the bytes read back: they hold the shaping built here, field for field.
        #expect(try SoundFont(bytes: bank.serialized(), name: "shaped.sf2").instruments == bank.instruments)
        let scenario = Scenario(bank: bank, events: [(0, [0x90, 69, 100]), (20_000, [0x80, 69, 0])],
                                frames: 22_050, block: 128)
        let (wasm, native) = try Self.render(scenario)
        let left = wasm[0..<22_050]
        let octave = Measure.frequency(left[2_646..<4_190], rate: 44_100)
        let note = Measure.frequency(left[8_820..<19_845], rate: 44_100)
        let levels = stride(from: 8_820, to: 19_845, by: 441).map { Measure.db(Measure.rms(left[$0..<($0 + 441)])) }
        let swell = (levels.max() ?? 0) - (levels.min() ?? 0)
        print("shaped voice in wasm: \(octave) Hz then \(note) Hz, LFO swell \(swell) dB")
        #expect(abs(Measure.cents(octave, 880)) < 5)
        #expect(abs(Measure.cents(note, 440)) < 2)
        #expect(swell > 8 && swell < 13)
        let d = Self.difference(wasm, native)
        print("SFZ voice shaping: \(d.differing) of \(native.count) samples differ, worst \(d.decibels) dBFS")
        #expect(d.decibels < -120)
    }
}
