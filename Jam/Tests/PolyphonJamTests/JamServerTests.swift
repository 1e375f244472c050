import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import PolyphonAudio
import PolyphonMIDI
import PolyphonSoundFont
import PolyphonSynth
import PolyphonTestSupport
@testable import PolyphonJam

/// The jam server on its router: banks and presets, per-preset subsets, exports that equal a
/// native render, and requests it must refuse without falling over.
@Suite struct JamServerTests {
    /// Two presets: a looped sine at 0:0 and a short noise burst kit at 128:0.
    static func bank() -> SoundFont {
        var b = SoundFont.Builder(name: "Jam test")
        let sine = (0..<4_410).map { Int16((10_000 * sin(2 * Double.pi * Double($0) / 100)).rounded()) }
        var seed: UInt64 = 7
        let noise = (0..<8_000).map { i -> Int16 in
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int16(truncatingIfNeeded: Int64(seed >> 33) % 20_000 - 10_000) / Int16(1 + i / 1_000)
        }
        let s = b.addSample(sine, name: "sine", sampleRate: 44_100, originalPitch: 69, loop: 100..<4_400)
        let n = b.addSample(noise, name: "noise", sampleRate: 44_100, originalPitch: 60)
        let tone = b.addInstrument("Tone", zones: [Zone(generators: [Generator(.sampleModes, 1), Generator(.releaseVolEnv, -1200),
                                                                    Generator(.sampleID, Int16(s))])])
        let kit = b.addInstrument("Kit", zones: [Zone(generators: [Generator(.sampleID, Int16(n))])])
        b.addPreset("Tone", program: 0, zones: [Zone(generators: [Generator(.instrument, Int16(tone))])])
        b.addPreset("Kit", bank: 128, program: 0, zones: [Zone(generators: [Generator(.instrument, Int16(kit))])])
        return b.build()
    }

    /// A server offering the test bank (as a file) and the built-in bank.
    static func withServer(limits: JamLimits = JamLimits(),
                           _ body: @Sendable (any TestClientProtocol, String) async throws -> Void) async throws {
        let dir = NSTemporaryDirectory() + "polyphon-jam-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/Jam Test.sf2"
        try Data(bank().serialized()).write(to: URL(fileURLWithPath: path))
        let entries = try BankCatalog.discover(paths: [path], locator: SoundBankLocator(environment: [:], homeDirectory: dir, systemRoot: dir))
        let files = StaticFiles.standard(kit: .thisCheckout, page: StaticFiles.pageFolder)
        let server = JamServer(catalog: BankCatalog(entries: entries), files: files, limits: limits)
        let app = Application(router: server.router())
        try await app.test(.router) { client in try await body(client, path) }
    }

    /// A take of two layers: the sine (two notes, a bend) and the kit, on their own channels.
    static let take = Take(sampleRate: 44_100, tempo: 100, reverb: true, chorus: false, layers: [
        Take.Layer(name: "Tone", events: [[0, 0xC0, 0], [0, 0xB0, 91, 60], [441, 0x90, 69, 100], [30_000, 0x90, 76, 64],
                                          [40_000, 0xE0, 0, 80], [44_100, 0x80, 69, 0], [60_000, 0x80, 76, 0]]),
        Take.Layer(name: "Kit", events: [[0, 0xC9, 0], [22_050, 0x99, 36, 120], [23_000, 0x89, 36, 0],
                                         [0, 0xF0, 0x41, 0x10, 0x42, 0x12, 0x40, 0x12, 0x15, 0x02, 0x17, 0xF7], [33_075, 0x91, 40, 90],
                                         [40_000, 0x81, 40, 0]]),
    ])

    static func body(_ value: some Encodable) throws -> ByteBuffer {
        ByteBuffer(data: try JSONEncoder().encode(value))
    }

    @Test func listsBanksByIDWithoutPaths() async throws {
        try await Self.withServer { client, path in
            try await client.execute(uri: "/api/banks", method: .get) { response in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                #expect(!text.contains(path) && !text.contains("\"path\""))
                let listing = try JSONDecoder().decode(BankListing.self, from: Data(buffer: response.body))
                #expect(listing.banks.map(\.id) == ["jam-test", "builtin"])
                #expect(listing.defaultBank == "jam-test")
            }
            try await client.execute(uri: "/api/banks/jam-test/presets", method: .get) { response in
                let presets = try JSONDecoder().decode([BankCatalog.PresetInfo].self, from: Data(buffer: response.body))
                #expect(presets == [.init(bank: 0, program: 0, name: "Tone"), .init(bank: 128, program: 0, name: "Kit")])
            }
            try await client.execute(uri: "/api/banks/nope/presets", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/banks/jam-test/presets/0/5", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/banks/jam-test/presets/0/300", method: .get) { #expect($0.status == .badRequest) }
        }
    }

    struct BankListing: Decodable { var banks: [BankCatalog.Entry]; var defaultBank: String }

    @Test func listsTheMIDIFolderBySongIDWithoutPaths() async throws {
        let dir = NSTemporaryDirectory() + "polyphon-jam-songs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/Private Folder", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let song = MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(96), tracks: [MIDITrack(events: [
            MIDIEvent(tick: 0, message: .noteOn(channel: 0, note: 60, velocity: 100)),
            MIDIEvent(tick: 96, message: .noteOff(channel: 0, note: 60, velocity: 0))])]).serialized()
        for name in ["a.mid", "Private Folder/b.KAR", "notes.txt", "big.mid"] {
            try Data(name == "big.mid" ? [UInt8](repeating: 0, count: 2_000) : song).write(to: URL(fileURLWithPath: dir + "/" + name))
        }
        let songs = try SongFolder.scan(dir, maxFileBytes: 1_000)
        #expect(throws: SongFolder.Failure.self) { try SongFolder.scan(dir + "/a.mid") }
        let server = JamServer(catalog: BankCatalog(entries: []), files: StaticFiles(table: []), songs: songs)
        try await Application(router: server.router()).test(.router) { client in
            var listing: [SongFolder.Entry] = []
            try await client.execute(uri: "/api/songs", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(!text.contains(dir) && !text.contains("Private") && !text.contains("\"path\""))
                listing = try JSONDecoder().decode([SongFolder.Entry].self, from: Data(buffer: response.body))
            }
            // Sorted by path; the oversized file and the text file are not offered.
            #expect(listing.map(\.name) == ["Private Folder/b.KAR", "a.mid"].map { ($0 as NSString).lastPathComponent })
            for entry in listing {
                try await client.execute(uri: "/api/songs/\(entry.id)", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect([UInt8](Data(buffer: response.body)) == song)
                }
            }
            try await client.execute(uri: "/api/songs/0123456789abcdef", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/songs/..%2Fa.mid", method: .get) { #expect($0.status == .notFound) }
        }
    }

    @Test func aPresetSubsetParsesAndPlaysLikeTheFullBank() async throws {
        try await Self.withServer { client, _ in
            let version = try await client.execute(uri: "/api/banks", method: .get) { response in
                try JSONDecoder().decode(BankListing.self, from: Data(buffer: response.body)).banks[0].version
            }
            try await client.execute(uri: "/api/banks/jam-test/presets/0/0?v=\(version)", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl]?.contains("immutable") == true)
                let subset = try SoundFont(bytes: Array(buffer: response.body), name: "subset.sf2")
                #expect(subset.presets.map(\.name) == ["Tone"])
                func play(_ bank: SoundFont) throws -> [Float] {
                    let synth = try Synthesizer(soundBank: bank, sampleRate: 44_100)
                    synth.startNote(69, withVelocity: 100, onChannel: 0)
                    let (l, r) = synth.render(frameCount: 8_820)
                    return l + r
                }
                let expected = try play(Self.bank())
                #expect(Measure.db(Measure.rms(expected[...])) > -40)
                #expect(try play(subset) == expected)
            }
            // Without the bank's current version the browser must ask again.
            try await client.execute(uri: "/api/banks/jam-test/presets/128/0", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] == "no-cache")
            }
        }
    }

    @Test func exportedMIDIFileHoldsTheTakesNotesOneTrackPerLayer() async throws {
        try await Self.withServer { client, _ in
            try await client.execute(uri: "/api/export/midi", method: .post, body: try Self.body(Self.take)) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "audio/midi")
                let file = try MIDIFile(bytes: Array(buffer: response.body), name: "take.mid")
                #expect(file.format == .multipleTracks)
                #expect(file.tracks.count == 3)
                #expect(file.tracks.dropFirst().map(\.name) == ["Tone", "Kit"])
                #expect(file.timedEvents().contains { if case .meta(.tempo(let t)) = $0.message { t == 600_000 } else { false } })
                // Every note of the take, on its channel, at its time (to half a tick at 100 bpm).
                let tick = 60.0 / 100 / Double(TakeExport.ticksPerQuarterNote)
                for (l, layer) in Self.take.layers.enumerated() {
                    let expected = layer.events.compactMap { e -> (Double, [Int])? in
                        (e[1] & 0xE0) == 0x80 ? (Double(e[0]) / 44_100, Array(e[1...])) : nil
                    }
                    let got = file.timedEvents().filter { $0.trackIndex == l + 1 }.compactMap { e -> (Double, [Int])? in
                        switch e.message {
                        case .noteOn(let c, let k, let v): return (e.seconds, [0x90 | Int(c), Int(k), Int(v)])
                        case .noteOff(let c, let k, let v): return (e.seconds, [0x80 | Int(c), Int(k), Int(v)])
                        default: return nil
                        }
                    }
                    #expect(got.map(\.1) == expected.sorted { $0.0 < $1.0 }.map(\.1), "layer \(l + 1)")
                    for (g, e) in zip(got, expected.sorted { $0.0 < $1.0 }) { #expect(abs(g.0 - e.0) <= tick / 2 + 1e-9) }
                }
            }
        }
    }

    /// A song's take carries its tempo map: the file keeps the song's resolution, tempo changes
    /// and meters, and each event lands on the tick its frame has under them — here 120 bpm, then
    /// 60 bpm from beat 2 (frame 22 050), in 3/4; a tempo map no file could hold is refused.
    @Test func exportedMIDIFileKeepsTheSongsTempoMap() async throws {
        var song = Self.take
        song.tempoMap = .init(ticksPerQuarterNote: 96,
                              tempos: [.init(frame: 0, tick: 0, microsecondsPerQuarterNote: 500_000),
                                       .init(frame: 22_050, tick: 96, microsecondsPerQuarterNote: 1_000_000)],
                              meters: [.init(tick: 0, numerator: 3, denominator: 4)])
        var bad = song
        bad.tempoMap?.tempos[1].frame = -5
        let (take, refused) = (song, bad)
        try await Self.withServer { client, _ in
            try await client.execute(uri: "/api/export/midi", method: .post, body: try Self.body(take)) { response in
                #expect(response.status == .ok)
                let file = try MIDIFile(bytes: Array(buffer: response.body), name: "song.mid")
                #expect(file.ticksPerQuarterNote == 96)
                let meta = file.timedEvents().compactMap { e -> String? in
                    switch e.message {
                    case .meta(.tempo(let t)): return "\(e.tick) tempo \(t)"
                    case .meta(.timeSignature(let s)): return "\(e.tick) meter \(s.numerator)/\(1 << s.denominatorExponent)"
                    default: return nil
                    }
                }
                #expect(meta == ["0 tempo 500000", "0 meter 3/4", "96 tempo 1000000"])
                // Frame 441 (10 ms at 120 bpm: 1.92 ticks), 30 000 (96 + 0.18 s at 60 bpm), 60 000 (96 + 0.86 s).
                let notes = file.timedEvents().filter { $0.trackIndex == 1 && ($0.message.isNoteOn || $0.message.isNoteOff) }.map(\.tick)
                #expect(notes == [2, 113, 144, 179])
            }
            try await client.execute(uri: "/api/export/midi", method: .post, body: try Self.body(refused)) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("tempoMap: tempo 2"))
            }
        }
    }

    /// The exported audio is the native engine's render of the events on their frames: here
    /// played again by hand through a synthesizer, 128 frames at a time as a worklet does.
    @Test func exportedAudioEqualsANativeRenderOfTheTake() async throws {
        try await Self.withServer { client, path in
            let bytes = try await client.execute(uri: "/api/export/audio?format=wav&bits=32f", method: .post,
                                                 body: try Self.body(Self.take)) { response in
                #expect(response.status == .ok)
                return Data(buffer: response.body)
            }
            let file = NSTemporaryDirectory() + "jam-export-\(UUID().uuidString).wav"
            try bytes.write(to: URL(fileURLWithPath: file))
            defer { try? FileManager.default.removeItem(atPath: file) }
            let audio = try AudioFile(contentsOf: file)
            #expect(audio.sampleRate == 44_100 && audio.channels.count == 2)
            let frames = audio.channels[0].count
            #expect(frames > 60_000 && frames < 60_000 + 10 * 44_100)

            var configuration = SynthesizerConfiguration()
            configuration.chorusEnabled = false
            let synth = try Synthesizer(soundBank: try SoundFont(contentsOf: path), sampleRate: 44_100, configuration: configuration)
            let events = Self.take.layers.flatMap { $0.events }.enumerated()
                .sorted { ($0.element[0], $0.offset) < ($1.element[0], $1.offset) }.map(\.element)
            var left = [Float](repeating: 0, count: frames), right = left
            var next = 0
            for start in stride(from: 0, to: frames, by: 128) {
                let n = min(128, frames - start)
                while next < events.count, events[next][0] < start + n {
                    let e = events[next].map { UInt8($0 & 0xFF) }
                    if e[1] == 0xF0 { synth.sendMIDISysExEvent(Array(e[1...]), atFrame: Int(events[next][0]) - start) }
                    else { synth.sendMIDIEvent(e[1], data1: e[2], data2: e.count > 3 ? e[3] : 0, atFrame: Int(events[next][0]) - start) }
                    next += 1
                }
                left.withUnsafeMutableBufferPointer { l in
                    right.withUnsafeMutableBufferPointer { r in
                        synth.render(left: l.baseAddress! + start, right: r.baseAddress! + start, frameCount: n)
                    }
                }
            }
            #expect(Measure.db(Measure.rms(left[441..<44_100])) > -40)
            let differing = zip(left + right, audio.channels[0] + audio.channels[1]).filter { $0 != $1 }.count
            #expect(differing == 0, "\(differing) samples differ")
        }
    }

    /// FLAC goes through libsndfile, loaded at run time: a FLAC stream where it is installed
    /// (always under CI), else a one-line reason naming the library.
    @Test func flacExportNeedsOnlyLibsndfileAtRunTime() async throws {
        let available = (try? Libsndfile.load()) != nil
        try await Self.withServer { client, _ in
            try await client.execute(uri: "/api/export/audio?format=flac&bits=24", method: .post,
                                     body: try Self.body(Self.take)) { response in
                if available || RealFiles.isCI {
                    #expect(response.status == .ok)
                    #expect(Array(response.body.readableBytesView.prefix(4)) == Array("fLaC".utf8))
                } else {
                    #expect(response.status == .internalServerError)
                    #expect(String(buffer: response.body).contains("libsndfile"))
                }
            }
        }
    }

    @Test func badAndOversizedTakesGetTheir4xxAndTheServerGoesOn() async throws {
        var limits = JamLimits()
        limits.maxRequestBytes = 64 << 10
        limits.maxEvents = 1_000
        try await Self.withServer(limits: limits) { client, _ in
            func post(_ uri: String, _ text: String) async throws -> (HTTPResponse.Status, String) {
                try await client.execute(uri: uri, method: .post, body: ByteBuffer(string: text)) { ($0.status, String(buffer: $0.body)) }
            }
            let cases: [(String, HTTPResponse.Status, String)] = [
                ("{", .badRequest, "not a take"),
                ("[]", .badRequest, "not a take"),
                (#"{"sampleRate": 44100}"#, .badRequest, "layers"),
                (#"{"sampleRate": 1, "layers": [{"name": "x", "events": []}]}"#, .badRequest, "sampleRate"),
                (#"{"sampleRate": 44100, "layers": []}"#, .badRequest, "no layers"),
                (#"{"sampleRate": 44100, "layers": [{"name": "x", "events": [[0, 144, 60]]}]}"#, .badRequest, "event 1"),
                (#"{"sampleRate": 44100, "layers": [{"name": "x", "events": [[0, 144, 60, 300]]}]}"#, .badRequest, "0–255"),
                (#"{"sampleRate": 44100, "layers": [{"name": "x", "events": [[-5, 144, 60, 100]]}]}"#, .badRequest, "outside the take"),
                (#"{"sampleRate": 44100, "layers": [{"name": "x", "events": [[99999999999, 144, 60, 100]]}]}"#, .badRequest, "outside the take"),
                (#"{"sampleRate": 44100, "layers": [{"name": "x", "events": [[0, 240, 1, 2]]}]}"#, .badRequest, "SysEx"),
            ]
            for (text, status, reason) in cases {
                for uri in ["/api/export/midi", "/api/export/audio"] {
                    let (got, message) = try await post(uri, text)
                    #expect(got == status, "\(uri) \(text)")
                    #expect(message.contains(reason), "\(text): \(message)")
                }
            }
            let many = "{\"sampleRate\": 44100, \"layers\": [{\"name\": \"x\", \"events\": ["
                + Array(repeating: "[0, 144, 60, 100]", count: 1_001).joined(separator: ",") + "]}]}"
            #expect(try await post("/api/export/midi", many).1.contains("at most 1000"))
            let huge = String(repeating: " ", count: 70 << 10) + "{}"
            #expect(try await post("/api/export/midi", huge).0 == .contentTooLarge)
            #expect(try await post("/api/export/audio?format=mp3", "{}").0 == .badRequest)
            #expect(try await post("/api/export/audio?bits=8", "{}").0 == .badRequest)
            // Still serving.
            let (status, _) = try await post("/api/export/midi", String(decoding: try JSONEncoder().encode(Self.take), as: UTF8.self))
            #expect(status == .ok)
        }
    }

    @Test func servesThePageAndNothingOutsideItsTable() async throws {
        try await Self.withServer { client, _ in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("<title>Polyphon jam</title>"))
            }
            for uri in ["/jam.js", "/jam.css", "/gm.js", "/polyphon.js", "/polyphon-worklet.js", "/polyphon-midi-player.js"] {
                try await client.execute(uri: uri, method: .get) { #expect($0.status == .ok, "\(uri)") }
            }
            for uri in ["/../Package.swift", "/%2e%2e/Package.swift", "/jam.js/../../../Package.swift", "/Page/index.html",
                        "/etc/passwd", "/..%2f..%2fPackage.swift", "/index.html/.."] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(!String(buffer: response.body).contains("swift-tools-version"))
                }
            }
        }
    }

    @Test func bindsToLoopbackUnlessToldOtherwise() throws {
        #expect(try JamCommand.parse([]).host == "127.0.0.1")
        #expect(try JamCommand.parse(["--host", "0.0.0.0"]).host == "0.0.0.0")
        #expect(JamCommand.isLoopback("127.0.0.1") && JamCommand.isLoopback("::1") && !JamCommand.isLoopback("0.0.0.0"))
        #expect(throws: (any Error).self) { try JamCommand.parse(["--port", "70000"]) }
    }
}

/// An SFZ instrument offered like a SoundFont: listed, its preset sent as an SF2 subset that plays
/// its sound.
@Suite struct JamSFZTests {
    @Test func sfzInstrumentIsABankWhosePresetPlaysItsPitch() async throws {
        let dir = NSTemporaryDirectory() + "polyphon-jam-sfz-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/Sine Lead.sfz"
        // A generated sine sounding 440 Hz at key 69, held by the loop of its cycle.
        try "<region> sample=*sine pitch_keycenter=69 ampeg_release=0.1\n".write(toFile: path, atomically: true, encoding: .utf8)
        let entries = try BankCatalog.discover(paths: [path], locator: SoundBankLocator(environment: [:], homeDirectory: dir, systemRoot: dir))
        let catalog = BankCatalog(entries: entries)
        #expect(entries.first?.id == "sine-lead")
        let presets = try await catalog.presets("sine-lead")
        #expect(presets.map { "\($0.bank):\($0.program)" } == ["0:0", "128:0"], "\(presets)")
        let subset = try await catalog.subset("sine-lead", bank: 0, program: 0)
        let synthesizer = try Synthesizer(soundBank: try SoundFont(bytes: [UInt8](subset), name: "subset.sf2"))
        synthesizer.startNote(76, withVelocity: 100, onChannel: 0)
        let out = synthesizer.renderSeconds(0.3)
        let f = Measure.frequency(out.left[out.frame(0.1)..<out.frame(0.3)], rate: out.rate)
        #expect(abs(Measure.cents(f, 440 * pow(2, 7.0 / 12))) < 1, "\(f) Hz")
    }

    /// The preset the page is sent keeps the SFZ's play-time rules: on the SF2 subset, read as
    /// the page's engine reads it, key 69 alternates between its two round-robin regions (A4,
    /// then a fifth up) and its note-off starts the release region (an octave up).
    @Test func sfzRoundRobinAndReleaseRegionsTravelToThePage() async throws {
        let directory = try TemporaryDirectory(prefix: "polyphon-jam-sfz-rules")
        let path = directory.path + "/Rules.sfz"
        try """
            <global> sample=*sine ampeg_release=0.05
            <group> seq_length=2
            <region> seq_position=1
            <region> seq_position=2 transpose=7
            <group> trigger=release ampeg_sustain=0 ampeg_decay=0.3
            <region> transpose=12
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let entries = try BankCatalog.discover(paths: [path], locator: SoundBankLocator(environment: [:], homeDirectory: directory.path,
                                                                                         systemRoot: directory.path))
        let subset = try await BankCatalog(entries: entries).subset("rules", bank: 0, program: 0)
        let bank = try SoundFont(bytes: [UInt8](subset), name: "subset.sf2")
        #expect(bank.instruments.flatMap(\.zones).compactMap(\.playCondition).map(\.trigger) == [.attack, .attack, .release])
        let synthesizer = try Synthesizer(soundBank: bank)
        var heard: [Double] = []
        for _ in 0..<2 {
            synthesizer.startNote(69, withVelocity: 100, onChannel: 0)
            let held = synthesizer.renderSeconds(0.25)
            heard.append(Measure.frequency(held.left[held.frame(0.08)..<held.frame(0.25)], rate: held.rate))
            synthesizer.stopNote(69, onChannel: 0)
            let released = synthesizer.renderSeconds(0.15)
            heard.append(Measure.frequency(released.left[released.frame(0.06)..<released.frame(0.15)], rate: released.rate))
        }
        let expected = [440, 880, 440 * pow(2, 7.0 / 12), 880]
        for (f, e) in zip(heard, expected) { #expect(abs(Measure.cents(f, e)) < 2, "\(heard) Hz") }
    }

    /// The preset the page is sent keeps the SFZ's voice shaping (filter, pitch envelope, LFOs,
    /// flex envelope) exactly as the SFZ bank holds it: read as the page's engine reads it, the
    /// pitch envelope's octave sounds for its 0.1 s hold, then the note.
    @Test func sfzVoiceShapingTravelsToThePage() async throws {
        let directory = try TemporaryDirectory(prefix: "polyphon-jam-sfz-shaping")
        let path = directory.path + "/Shaped.sfz"
        try """
            <region> sample=*sine pitch_keycenter=69 fil_type=lpf_2p cutoff=3000 pitcheg_depth=1200 pitcheg_hold=0.1
              pitcheg_sustain=0 amplfo_freq=5 amplfo_depth=3 eg1_time0=0 eg1_level0=1 eg1_time1=0.1 eg1_level1=0
              eg1_sustain=1 eg1_cutoff=-1200 lfo1_freq=3 lfo1_pan=20
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let entries = try BankCatalog.discover(paths: [path], locator: SoundBankLocator(environment: [:], homeDirectory: directory.path,
                                                                                         systemRoot: directory.path))
        let catalog = BankCatalog(entries: entries)
        let subset = try await catalog.subset("shaped", bank: 0, program: 0)
        let bank = try SoundFont(bytes: [UInt8](subset), name: "subset.sf2")
        let native = try await catalog.bank("shaped")
        let shapings = native.instruments.flatMap(\.zones).compactMap(\.shaping)
        let shaping = try #require(shapings.first)
        #expect(shaping.filter != nil && shaping.pitchEnvelope != nil && shaping.volumeLFO != nil)
        #expect(shaping.flexEnvelopes.count == 1 && shaping.routedLFOs.count == 1)
        #expect(bank.instruments.flatMap(\.zones).compactMap(\.shaping) == shapings)
        let synthesizer = try Synthesizer(soundBank: bank)
        synthesizer.startNote(69, withVelocity: 100, onChannel: 0)
        let out = synthesizer.renderSeconds(0.3)
        let octave = Measure.frequency(out.left[out.frame(0.01)..<out.frame(0.09)], rate: out.rate)
        let note = Measure.frequency(out.left[out.frame(0.15)..<out.frame(0.3)], rate: out.rate)
        #expect(abs(Measure.cents(octave, 880)) < 5, "\(octave) Hz")
        #expect(abs(Measure.cents(note, 440)) < 2, "\(note) Hz")
    }
}

/// `--soundfont Piano.sfz@0:0 --soundfont GM.sf2` in jam: the two offered first as one stack,
/// as `render` plays them — the piano on 0:0, every other program from the bank below — then
/// one by one, the piano on the program `@` names.
@Suite struct JamSFZStackTests {
    @Test func anSFZPlacedWithAtIsOfferedStackedOverTheOtherBanks() async throws {
        let directory = try TemporaryDirectory(prefix: "polyphon-jam-sfz-stack")
        let library = try SFZPianoLibrary(in: directory.path)
        let gm = directory.file("Sines.sf2")
        try Data(SineBank.everyProgram().serialized()).write(to: URL(fileURLWithPath: gm))
        let entries = try BankCatalog.discover(paths: [library.path + "@0:0", gm],
                                               locator: SoundBankLocator(environment: [:], homeDirectory: directory.path,
                                                                         systemRoot: directory.path))
        #expect(entries.map(\.id) == ["stack", "upright-piano", "sines", "builtin"])
        #expect(entries[0].name == "Upright Piano.sfz@0:0 + Sines.sf2")
        #expect(entries[1].name == "Upright Piano.sfz@0:0")
        // The page is told names, never paths.
        let listed = entries.map(\.listed)
        #expect(listed.allSatisfy { $0.path == nil } && listed.allSatisfy { $0.stack == nil } && listed.allSatisfy { $0.placement == nil })
        let catalog = BankCatalog(entries: entries)

        let stacked = try await catalog.presets("stack")
        #expect(stacked.filter { $0.bank == 0 }.count == 128, "program 0 from the piano, 1–127 from the sines")
        #expect(try await catalog.presets("upright-piano").map { "\($0.bank):\($0.program)" } == ["0:0"])

        func pitch(_ id: String, program: Int, key: Int, velocity: Int) async throws -> Double {
            let subset = try await catalog.subset(id, bank: 0, program: program)
            let synthesizer = try Synthesizer(soundBank: try SoundFont(bytes: [UInt8](subset), name: "subset.sf2"))
            synthesizer.sendProgramChange(UInt8(program), onChannel: 0)
            synthesizer.startNote(UInt8(key), withVelocity: UInt8(velocity), onChannel: 0)
            let out = synthesizer.renderSeconds(0.3)
            return Measure.frequency(out.left[out.frame(0.1)..<out.frame(0.3)], rate: out.rate)
        }
        // The piano's two layers on 0:0, the stacked bank's sine on 0:40.
        let soft = try await pitch("stack", program: 0, key: 60, velocity: 40)
        let loud = try await pitch("stack", program: 0, key: 72, velocity: 110)
        let below = try await pitch("stack", program: 40, key: 69, velocity: 100)
        #expect(abs(Measure.cents(soft, SFZPianoLibrary.frequency(key: 60, detune: SFZPianoLibrary.softDetune))) < 1, "\(soft) Hz")
        #expect(abs(Measure.cents(loud, SFZPianoLibrary.frequency(key: 72, detune: SFZPianoLibrary.loudDetune))) < 1, "\(loud) Hz")
        #expect(abs(Measure.cents(below, 441)) < 1, "\(below) Hz")
        let alone = try await pitch("upright-piano", program: 0, key: 60, velocity: 40)
        #expect(abs(Measure.cents(alone, soft)) < 0.01)
    }

    @Test func atOnAnythingButAnSFZIsRefused() async throws {
        let directory = try TemporaryDirectory(prefix: "polyphon-jam-sfz-stack")
        let gm = directory.file("Sines.sf2")
        try Data(SineBank.everyProgram().serialized()).write(to: URL(fileURLWithPath: gm))
        let entries = try BankCatalog.discover(paths: [gm + "@0:0"],
                                               locator: SoundBankLocator(environment: [:], homeDirectory: directory.path,
                                                                         systemRoot: directory.path))
        await #expect(throws: BankCatalog.Failure.self) { try await BankCatalog(entries: entries).presets(entries[0].id) }
    }
}
