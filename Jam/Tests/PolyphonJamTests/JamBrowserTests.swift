import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import PolyphonAudio
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonTestSupport
import PolyphonWebKit
@testable import PolyphonJam

/// The jam page in real headless Chromium (Debian `chromium`, `chromium-driver`,
/// `python3-selenium`), scripted through `window.jam` by `jam-in-chromium.py` against a live
/// server: A4's pitch, another instrument's different sound, a recorded take and a layer over it
/// exported as MIDI, the playback against a native render, the take surviving a reload, and
/// screenshots at a desktop's and a phone's size. Required under `CI=true`. One browser at a time (serialized).
@Suite(.serialized) struct JamBrowserTests {
    static var chromiumAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("jam-in-chromium.py").path

    /// The strongest component's frequency between `low` and `high` Hz: a Hann-windowed
    /// transform scanned in 0.5 Hz steps, then in 0.005 Hz steps around the best.
    static func peakFrequency(_ x: ArraySlice<Float>, rate: Double, low: Double, high: Double) -> Double {
        let samples = Array(x)
        let n = Double(samples.count)
        let window = samples.indices.map { Double(samples[$0]) * (0.5 - 0.5 * cos(2 * Double.pi * Double($0) / n)) }
        func magnitude(_ f: Double) -> Double {
            var re = 0.0, im = 0.0
            let w = 2 * Double.pi * f / rate
            for (i, v) in window.enumerated() { re += v * cos(w * Double(i)); im -= v * sin(w * Double(i)) }
            return re * re + im * im
        }
        var best = low
        for f in stride(from: low, through: high, by: 0.5) where magnitude(f) > magnitude(best) { best = f }
        var fine = best
        for f in stride(from: best - 0.5, through: best + 0.5, by: 0.005) where magnitude(f) > magnitude(fine) { fine = f }
        return fine
    }

    /// Levels (dB, relative to the fundamental) of harmonics 2…8 of `f`.
    static func harmonicProfile(_ x: ArraySlice<Float>, rate: Double, fundamental f: Double) -> [Double] {
        let samples = Array(x)
        func level(_ h: Double) -> Double {
            var re = 0.0, im = 0.0
            let w = 2 * Double.pi * h / rate
            for (i, v) in samples.enumerated() {
                let hann = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(samples.count))
                re += Double(v) * hann * cos(w * Double(i)); im -= Double(v) * hann * sin(w * Double(i))
            }
            return 10 * log10(re * re + im * im + 1e-30)
        }
        let base = level(f)
        return (2...8).map { level(f * Double($0)) - base }
    }

    static func floats(_ path: String) throws -> (left: [Float], right: [Float]) {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let all = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        return (Array(all[..<(all.count / 2)]), Array(all[(all.count / 2)...]))
    }

    /// Width and height from a PNG's header.
    static func pngSize(_ path: String) throws -> (Int, Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(24))
        try #require(bytes.count == 24 && bytes[1...3] == [0x50, 0x4E, 0x47])
        func word(_ i: Int) -> Int { bytes[i...(i + 3)].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    /// Runs `script` against a live server on a General MIDI bank (FluidR3_GM, required under
    /// CI, else the built-in one) with `out` as its folder; returns the bank and `result.json`.
    /// `offerSongs`: the server lists the MIDI files in `out` as `--midi` does.
    static func runPage(script: String, out: String, offerSongs: Bool = false) async throws -> (bank: SoundFont, result: [String: Any]) {
        let real = RealFiles.available(RealFiles.fluidR3)
        let entries = try BankCatalog.discover(paths: real ? [RealFiles.fluidR3] : [],
                                               locator: SoundBankLocator(environment: [:], homeDirectory: out, systemRoot: out))
        let catalog = BankCatalog(entries: entries)
        let kit = WebAssemblyKit.thisCheckout
        try kit.prepareModule { print($0) }
        let server = JamServer(catalog: catalog, files: .standard(kit: kit, page: StaticFiles.pageFolder),
                               songs: offerSongs ? try SongFolder.scan(out) : SongFolder())
        let app = Application(router: server.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        let status = try await app.test(.live) { client in
            let port = try #require(client.port)
            return try await Task.detached {
                try runProcess(RealFiles.python, [script, "http://127.0.0.1:\(port)/", out])
            }.value
        }
        #expect(status.status == 0, "\(status.stderr)")
        try #require(status.status == 0)
        let result = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/result.json"))) as! [String: Any]
        return (try await catalog.bank(entries[0].id), result)
    }

    /// Copies screenshots to the folder `POLYPHON_JAM_SCREENSHOTS` names, as `jam-NAME`.
    static func keepScreenshots(_ names: [String], from out: String) throws {
        guard let keep = ProcessInfo.processInfo.environment["POLYPHON_JAM_SCREENSHOTS"] else { return }
        for name in names {
            try? FileManager.default.removeItem(atPath: keep + "/jam-" + name)
            try FileManager.default.copyItem(atPath: out + "/" + name, toPath: keep + "/jam-" + name)
        }
    }

    /// A fresh folder for one test's files, removed when `body` returns.
    static func withFolder(_ body: (String) async throws -> Void) async throws {
        let out = NSTemporaryDirectory() + "polyphon-jam-browser-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: out) }
        try await body(out)
    }

    @Test(.enabled(if: RealFiles.isCI || chromiumAvailable), .timeLimit(.minutes(10)))
    func thePagePlaysRecordsLayersAndExportsInChromium() async throws {
        try await Self.withFolder { out in try await Self.playRecordAndExport(out) }
    }

    static func playRecordAndExport(_ out: String) async throws {
        let (bank, result) = try await runPage(script: script, out: out)
        let rate = try #require(result["sampleRate"] as? Double)

        // A4 at 440 Hz ± 5 cents, audible.
        let piano = try Self.floats(out + "/a4-piano.f32")
        let window = piano.left[Int(0.1 * rate)..<Int(0.9 * rate)]
        let pitch = Self.peakFrequency(window, rate: rate, low: 400, high: 480)
        let level = Measure.db(Measure.rms(window))
        print("jam A4 (piano): \(pitch) Hz, \(Measure.cents(pitch, 440)) cents, \(level) dBFS RMS")
        #expect(abs(Measure.cents(pitch, 440)) < 5)
        #expect(level > -50)

        // Another instrument sounds different: its harmonics differ by several dB on average.
        let violin = try Self.floats(out + "/a4-violin.f32")
        let violinWindow = violin.left[Int(0.1 * rate)..<Int(0.9 * rate)]
        #expect(abs(Measure.cents(Self.peakFrequency(violinWindow, rate: rate, low: 400, high: 480), 440)) < 5)
        let a = Self.harmonicProfile(window, rate: rate, fundamental: 440)
        let b = Self.harmonicProfile(violinWindow, rate: rate, fundamental: 440)
        let difference = sqrt(zip(a, b).map { ($0 - $1) * ($0 - $1) }.reduce(0, +) / Double(a.count))
        print("jam piano vs violin: harmonics 2–8 differ by \(difference) dB RMS")
        #expect(difference > 6)

        // A MIDI keyboard's message reaches the live channel whatever its own: the wheel bends
        // A4 up two semitones.
        let bent = try Self.floats(out + "/a4-bent.f32")
        let bentPitch = Self.peakFrequency(bent.left[Int(0.1 * rate)..<Int(0.9 * rate)], rate: rate, low: 470, high: 520)
        let expected = 440 * pow(2, 2.0 * 8191 / 8192 / 12)
        print("jam A4 bent by a MIDI input: \(bentPitch) Hz (\(Measure.cents(bentPitch, expected)) cents from \(expected))")
        #expect(abs(Measure.cents(bentPitch, expected)) < 5)

        // The recorded take exports to a .mid with its notes; the layer over it as a second track.
        let take1 = try JSONDecoder().decode(Take.self, from: Data(contentsOf: URL(fileURLWithPath: out + "/take1.json")))
        let take2 = try JSONDecoder().decode(Take.self, from: Data(contentsOf: URL(fileURLWithPath: out + "/take2.json")))
        #expect(take1.layers.count == 1 && take2.layers.count == 2)
        #expect(take2.layers[0] == take1.layers[0])
        func notes(_ layer: Take.Layer) -> [[Int]] {
            layer.events.filter { $0[1] & 0xF0 == 0x90 && $0[3] > 0 }.map { Array($0[1...]) }
        }
        #expect(notes(take1.layers[0]).map { $0[1] } == [60, 64, 67, 72, 48, 55])
        #expect(notes(take2.layers[1]).map { $0[1] } == [36, 42, 38, 42])
        for (name, take) in [("take1", take1), ("take2", take2)] {
            let file = try MIDIFile(contentsOfFile: out + "/\(name).mid")
            #expect(file.tracks.count == take.layers.count + 1, "\(name)")
            for (l, layer) in take.layers.enumerated() {
                let inFile = file.timedEvents().filter { $0.trackIndex == l + 1 }.compactMap { e -> [Int]? in
                    if case .noteOn(let c, let k, let v) = e.message, v > 0 { return [0x90 | Int(c), Int(k), Int(v)] }
                    return nil
                }
                #expect(inFile == notes(layer), "\(name) layer \(l + 1)")
            }
        }
        #expect(take2.layers[1].events.contains { $0[1] == 0x99 }, "the drum layer plays on channel 10")

        // What the page played back is what the native engine renders from the take.
        let playback = try Self.floats(out + "/playback.f32")
        let events = try take2.checkedEvents(limits: JamLimits())
        var native: [Float] = []
        _ = try OfflineRenderer(soundBank: bank, options: TakeExport.renderOptions(take2, limits: JamLimits()))
            .render(TakeExport.schedule(take2, events: events), into: { l, _, n in native.append(contentsOf: UnsafeBufferPointer(start: l, count: n)) })
        let count = min(native.count, playback.left.count)
        let worst = zip(native[..<count], playback.left[..<count]).map { abs($0 - $1) }.max() ?? 1
        let differing = zip(native[..<count], playback.left[..<count]).filter { $0 != $1 }.count
        print("jam playback vs native render: \(differing) of \(count) samples differ, worst \(Measure.db(Double(worst))) dBFS")
        #expect(Measure.db(Measure.rms(playback.left[...])) > -50)
        #expect(Measure.db(Double(worst)) < -120)

        // Newly chosen instruments load while the take plays (how fast is a benchmark figure, printed here and given
        // in the README for a release build; this only guards against a switch that hangs).
        let switches = try #require(result["instrumentSwitchMs"] as? [String: Double])
        print("jam instrument switch (ms, preset not fetched before): \(switches.sorted { $0.key < $1.key })")
        #expect(switches.count == 11 && switches.values.allSatisfy { $0 < 60_000 })
        // The banks were read and merged off the audio thread (a Worker), even with a take playing:
        // the audio thread only copied the synthesizer built.
        #expect(switches["audioThreadMerges"] == 0)

        // Recording runs from the click: a key played at once, while the new instrument still
        // loads, is in the layer (at its start), before the one played once all was set up.
        let early = try #require(result["earlyLayer"] as? [String: Any])
        let earlyNotes = (early["events"] as? [[Int]] ?? []).filter { $0[1] & 0xF0 == 0x90 && $0[3] > 0 }
        print("jam keys played right after Record: \(earlyNotes.map { "key \($0[2]) at frame \($0[0])" })")
        #expect(earlyNotes.map { $0[2] } == [76, 79] && earlyNotes[0][0] < earlyNotes[1][0])
        #expect((early["events"] as? [[Int]] ?? []).contains { $0[1] & 0xF0 == 0xC0 && $0[2] == 11 }, "the layer's instrument")

        // On a phone held sideways the keyboard keeps a playable height and its key labels.
        let phone = try #require(result["phoneKeyboard"] as? [String: Double])
        print("jam keyboard at 844 × 390: \(phone)")
        #expect((phone["height"] ?? 0) >= 150 && (phone["bottom"] ?? .infinity) <= 390.5)
        #expect((phone["labels"] ?? 0) >= 12)

        // The take survives a reload; the screenshots have the sizes asked for.
        #expect(result["layersAfterReload"] as? Int == 2)
        #expect(try Self.pngSize(out + "/desktop.png") == (1280, 800))
        #expect(try Self.pngSize(out + "/phone.png") == (844, 390))
        try keepScreenshots(["desktop.png", "phone.png"], from: out)
    }
}
