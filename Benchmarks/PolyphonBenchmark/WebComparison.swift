import Foundation
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth

/// The native half of `Benchmarks/wasm.sh` (`--web DIR --song FILE.mid`): writes what the
/// WebAssembly runs play — `bank.sf2`, the presets they use cut out of the bank, and
/// `song.json`, the song's messages on their frames at 44.1 kHz up to ``songSeconds`` — and
/// measures the native engine on exactly those: the same workloads as
/// `WebAssembly/benchmark.mjs`, figures in `native.json`.
enum WebComparison {
    /// How much of the song is played: its first minute.
    static let songSeconds = 60

    /// The song's channel and SysEx messages of port 0 as `[frame, [bytes…]]`, frame-ordered.
    static func songEvents(_ file: MIDIFile, rate: Double) -> [(frame: Int, bytes: [UInt8])] {
        Timeline(file: file, sampleRate: rate).events.compactMap { e in
            guard e.port == 0 else { return nil }
            let frame = Int(e.frame)
            switch e.message {
            case .noteOff(let c, let k, let v): return (frame, [0x80 | c, k, v])
            case .noteOn(let c, let k, let v): return (frame, [0x90 | c, k, v])
            case .polyphonicKeyPressure(let c, let k, let p): return (frame, [0xA0 | c, k, p])
            case .controlChange(let c, let n, let v): return (frame, [0xB0 | c, n, v])
            case .programChange(let c, let p): return (frame, [0xC0 | c, p])
            case .channelPressure(let c, let p): return (frame, [0xD0 | c, p])
            case .pitchBend(let c, let v): return (frame, [0xE0 | c, UInt8(v & 0x7F), UInt8(v >> 7)])
            case .systemExclusive(let body): return (frame, [0xF0] + body)
            case .sysExContinuation, .meta: return nil
            }
        }
    }

    /// The presets of `bank` the song plays, plus the string ensemble of the sustained and
    /// quantum runs.
    static func presets(_ file: MIDIFile, in bank: SoundFont) -> [Int] {
        var used = Set(Timeline(file: file, sampleRate: 44_100).presetsPlayed(in: bank))
        if let strings = bank.presets.firstIndex(where: { $0.bank == 0 && $0.program == 48 }) { used.insert(strings) }
        return used.sorted()
    }

    static func synthesizer(_ bank: SoundFont, rate: Double, effects: Bool) throws -> Synthesizer {
        var config = SynthesizerConfiguration()
        config.interpolation = .cubic
        config.reverbEnabled = effects
        config.chorusEnabled = effects
        return try Synthesizer(soundBank: bank, sampleRate: rate, configuration: config)
    }

    /// Seconds and voice-samples of rendering `frames` frames in `block`-frame calls, sending
    /// `events` on their frames; the voices sounding after each call count for all its frames.
    static func timeRender(_ synth: Synthesizer, events: [(frame: Int, bytes: [UInt8])], frames: Int, block: Int)
        -> (seconds: Double, voiceSamples: Int) {
        let l = UnsafeMutablePointer<Float>.allocate(capacity: block), r = UnsafeMutablePointer<Float>.allocate(capacity: block)
        defer { l.deallocate(); r.deallocate() }
        var next = 0, voiceSamples = 0, start = 0
        let s0 = now()
        while start < frames {
            let n = min(block, frames - start)
            while next < events.count && events[next].frame < start + n {
                let e = events[next]
                if e.bytes[0] == 0xF0 {
                    synth.sendMIDISysExEvent(e.bytes, atFrame: e.frame - start)
                } else {
                    synth.sendMIDIEvent(e.bytes[0], data1: e.bytes[1], data2: e.bytes.count > 2 ? e.bytes[2] : 0,
                                        atFrame: e.frame - start)
                }
                next += 1
            }
            synth.render(left: l, right: r, frameCount: n)
            voiceSamples += synth.activeVoiceCount * n
            start += n
        }
        return (now() - s0, voiceSamples)
    }

    static func run(bank full: SoundFont, song path: String, into dir: String, repeats: Int) throws {
        let file = try MIDIFile(contentsOfFile: path)
        let subset = try full.subset(presetIndexes: presets(file, in: full))
        let bytes = subset.serialized()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/bank.sf2"))
        let bank = try SoundFont(bytes: bytes, name: "bank.sf2")
        let songFrames = songSeconds * 44_100
        let events = songEvents(file, rate: 44_100).filter { $0.frame < songFrames }
        let json = "[" + events.map { "[\($0.frame),[\($0.bytes.map(String.init).joined(separator: ","))]]" }
            .joined(separator: ",\n") + "]\n"
        try Data(json.utf8).write(to: URL(fileURLWithPath: dir + "/song.json"))

        // Sustained: 48 held string-ensemble notes, 10 s after a warm-up block (effects off).
        let held = (36..<84).map { (frame: 0, bytes: [UInt8(0x90), UInt8($0), 100]) }
        var sustained = Double.infinity, sustainedVoices = 0
        for _ in 0..<repeats {
            let synth = try synthesizer(bank, rate: 44_100, effects: false)
            _ = timeRender(synth, events: [(0, [0xC0, 48])] + held, frames: 1024, block: 1024)
            sustainedVoices = synth.activeVoiceCount
            let (t, vs) = timeRender(synth, events: [], frames: 441_000, block: 1024)
            sustained = min(sustained, t * 1e9 / Double(vs))
        }
        // The song (effects off).
        var song = Double.infinity
        for _ in 0..<repeats {
            let (t, vs) = timeRender(try synthesizer(bank, rate: 44_100, effects: false), events: events,
                                     frames: songFrames, block: 1024)
            song = min(song, t * 1e9 / Double(vs))
        }
        // One 128-frame quantum at 48 kHz with 64 and 256 voices (looped strings, two voices a
        // note), reverb and chorus on as a page plays: the mean over 4,000 quanta.
        var quanta: [(voices: Int, ms: Double)] = []
        for notes in [32, 128] {
            var best = Double.infinity, voices = 0
            let starts = (0..<notes).flatMap { i -> [(frame: Int, bytes: [UInt8])] in
                let channel = UInt8(i % 15 == 9 ? 15 : i % 15)
                return [(0, [0xC0 | channel, 48]), (0, [0x90 | channel, UInt8(30 + i % 64), 100])]
            }
            for _ in 0..<repeats {
                let synth = try synthesizer(bank, rate: 48_000, effects: true)
                _ = timeRender(synth, events: starts, frames: 1280, block: 128)
                voices = synth.activeVoiceCount
                let (t, _) = timeRender(synth, events: [], frames: 4000 * 128, block: 128)
                best = min(best, t * 1000 / 4000)
            }
            quanta.append((voices, best))
        }
        let figures = """
            {"runtime": "native", "sustained": {"voices": \(sustainedVoices), "ns": \(sustained)},
             "song": {"file": "\((path as NSString).lastPathComponent)", "seconds": \(Double(songFrames) / 44_100), "ns": \(song)},
             "quanta": [\(quanta.map { "{\"voices\": \($0.voices), \"ms\": \($0.ms)}" }.joined(separator: ", "))],
             "repeats": \(repeats)}

            """
        try Data(figures.utf8).write(to: URL(fileURLWithPath: dir + "/native.json"))
        print(figures, terminator: "")
    }
}
