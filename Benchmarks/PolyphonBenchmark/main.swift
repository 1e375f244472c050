// Side-by-side benchmark: Polyphon vs FluidSynth (when installed) on the same files, same
// bank, 44.1 kHz, 4-point interpolation, effects off (unless --effects). Prints ratios.
//
//   swift run -c release PolyphonBenchmark [--soundfont F] [--effects] [--songs DIR] [--quick] [--engine]
//                                          [--repeat N] [--exact-timing]
//
// --engine: songs are rendered in this process with the output discarded, timing the engine
// alone (no file writing, no loudness meter, no bank loading), against FluidSynth's whole run.
// --repeat N: every measurement is taken N times, alternating the two renderers, and the best
// time of each is kept (machine noise only ever adds time); peak memory is the largest seen.
// Polyphon plays each song with its events where FluidSynth's file player plays them
// (`render --align-to-fluidsynth`) and with FluidSynth's whole-cent pitch and block-timed
// envelopes (`--fluidsynth-compatible`), so the fidelity columns measure synthesis, not
// FluidSynth's event timing; --exact-timing renders with Polyphon's own sample-accurate timing
// and exact pitch (its defaults) instead.
// --thread-threshold: where spreading voices over two threads starts to pay (ThreadThreshold.swift).
// --thread-profile --song FILE [--effects] [--real-threads] [--threshold V]: where one song's
// render time goes, and how much of it the threads share (--real-threads: timed on two real
// threads); --thread-sweep: the song on one thread and on two under several round thresholds;
// --thread-ceiling: the song rendered twice at once on two threads against once alone, what the
// machine's cores give work that shares nothing (ThreadProfile.swift).
// --picture-cost: only what a render picture adds per minute of audio, on the songs
// (PictureCost.swift).
// --web DIR --song FILE.mid: only the native figures Benchmarks/wasm.sh compares the
// WebAssembly module with, and the bank subset and song events its runs play, into DIR
// (WebComparison.swift).
import Foundation
import PolyphonAudio
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth

struct Arguments {
    var soundfont = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
    var songs = "/usr/share/planetblupi/music"
    var effects = false
    var quick = false
    var engineOnly = false
    var repeats = 1
    var rate = 44100.0
    var exactTiming = false
    var web: String?
    var threadThreshold = false
    var threadProfile = false
    var threadSweep = false
    var threadCeiling = false
    var realThreads = false
    var threshold: Int?
    var pictureCost = false
    var webSong = "/usr/share/planetblupi/music/music004.mid"
    var songGiven = false

    init() {
        var it = CommandLine.arguments.dropFirst().makeIterator()
        while let a = it.next() {
            switch a {
            case "--soundfont": soundfont = it.next() ?? soundfont
            case "--songs": songs = it.next() ?? songs
            case "--effects": effects = true
            case "--quick": quick = true
            case "--engine": engineOnly = true
            case "--repeat": repeats = max(1, Int(it.next() ?? "") ?? 1)
            case "--exact-timing": exactTiming = true
            case "--web": web = it.next()
            case "--thread-threshold": threadThreshold = true
            case "--thread-profile": threadProfile = true
            case "--thread-sweep": threadSweep = true
            case "--thread-ceiling": threadCeiling = true
            case "--real-threads": realThreads = true
            case "--threshold": threshold = Int(it.next() ?? "")
            case "--picture-cost": pictureCost = true
            case "--song": webSong = it.next() ?? webSong; songGiven = true
            default: FileHandle.standardError.write("unknown argument \(a)\n".data(using: .utf8)!)
            }
        }
    }
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

func which(_ tool: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
        let p = "\(dir)/\(tool)"
        if FileManager.default.isExecutableFile(atPath: p) { return p }
    }
    return nil
}

/// Runs a command; returns (wall seconds, peak RSS of the child in KiB).
func run(_ path: String, _ args: [String]) -> (Double, Int)? {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    // GNU time's format gives the child's max RSS; fall back to wall time only.
    let timeTool = FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil
    let statsFile = NSTemporaryDirectory() + "polyphon-bench-time.txt"
    if let timeTool {
        p.arguments = [timeTool, "-f", "%M", "-o", statsFile, path] + args
    } else {
        p.arguments = [path] + args
    }
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    let t0 = now()
    do { try p.run() } catch { return nil }
    p.waitUntilExit()
    let t = now() - t0
    guard p.terminationStatus == 0 else { return nil }
    let rss = (try? String(contentsOfFile: statsFile, encoding: .utf8))
        .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").last ?? "") } ?? 0
    return (t, rss)
}

func peakRSSKiB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue &* 1, &usage)
    return usage.ru_maxrss
}

func fluidSynthArgs(bank: String, midi: String, out: String, effects: Bool, rate: Double) -> [String] {
    var a = ["-n", "-i", "-q", "-r", String(Int(rate)), "-F", out]
    if !effects { a += ["-R", "0", "-C", "0"] }
    return a + [bank, midi]
}

let args = Arguments()
guard FileManager.default.fileExists(atPath: args.soundfont) else {
    print("SoundFont \(args.soundfont) not found (apt install fluid-soundfont-gm, or --soundfont F)")
    exit(1)
}
let t0 = now()
let bank = try SoundFont(contentsOf: args.soundfont)
print(String(format: "bank: %@ (%d presets), opened in %.1f ms", (args.soundfont as NSString).lastPathComponent,
             bank.presets.count, (now() - t0) * 1000))
if args.threadThreshold {
    try ThreadThreshold.run(bank: bank, repeats: args.repeats)
    exit(0)
}
if args.threadProfile || args.threadSweep || args.threadCeiling {
    let song = args.songGiven ? args.webSong : "/usr/share/planetblupi/music/music001.mid"
    if args.threadProfile {
        try ThreadProfile.run(bank: bank, song: song, effects: args.effects, repeats: args.repeats,
                              realThreads: args.realThreads, threshold: args.threshold.map { ($0, $0 < 8 ? 0 : 8192) })
    }
    if args.threadSweep { try ThreadSweep.run(bank: bank, song: song, effects: args.effects, repeats: args.repeats) }
    if args.threadCeiling { try ThreadCeiling.run(bank: bank, song: song, effects: args.effects, repeats: args.repeats) }
    exit(0)
}
if let dir = args.web {
    try WebComparison.run(bank: bank, song: args.webSong, into: dir, repeats: args.repeats)
    exit(0)
}
if args.pictureCost {
    let songs = ((try? FileManager.default.contentsOfDirectory(atPath: args.songs)) ?? [])
        .filter { $0.lowercased().hasSuffix(".mid") }.sorted().map { args.songs + "/" + $0 }
    try PictureCost.run(bank: bank, songs: args.quick ? Array(songs.prefix(3)) : songs, repeats: args.repeats)
    exit(0)
}
let fluid = which("fluidsynth")
if fluid == nil { print("fluidsynth not installed: Polyphon figures only") }
let tmp = NSTemporaryDirectory() + "polyphon-bench-\(getpid())"
try? FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: tmp) }

var config = SynthesizerConfiguration()
config.interpolation = .cubic
config.reverbEnabled = args.effects
config.chorusEnabled = args.effects
config.fluidSynthCompatible = !args.exactTiming

// (a) Sustained notes: 48 string-ensemble notes held for 10 s (looped samples).
do {
    let seconds = args.quick ? 4.0 : 10.0
    let keys = Array(36..<84).map(UInt8.init)
    var track = MIDITrack()
    track.events.append(MIDIEvent(tick: 0, message: .programChange(channel: 0, program: 48)))
    for k in keys { track.events.append(MIDIEvent(tick: 0, message: .noteOn(channel: 0, note: k, velocity: 100))) }
    let endTick = Int(seconds * 960)  // 120 BPM, 480 PPQN: 960 ticks per second
    for k in keys { track.events.append(MIDIEvent(tick: endTick, message: .noteOff(channel: 0, note: k, velocity: 0))) }
    track.events.append(MIDIEvent(tick: endTick, message: .meta(.endOfTrack)))
    let file = MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480), tracks: [track])
    let midiPath = tmp + "/sustained.mid"
    try file.write(to: URL(fileURLWithPath: midiPath))

    // Polyphon: render the held part only (no release tail) and count voice-samples.
    let block = 1024
    let l = UnsafeMutablePointer<Float>.allocate(capacity: block), r = UnsafeMutablePointer<Float>.allocate(capacity: block)
    defer { l.deallocate(); r.deallocate() }
    func polyphonOnce() throws -> (time: Double, voiceSamples: Int, voices: Int) {
        let synth = try Synthesizer(soundBank: bank, sampleRate: args.rate, configuration: config)
        synth.sendProgramChange(48, onChannel: 0)
        for k in keys { synth.startNote(k, withVelocity: 100, onChannel: 0) }
        synth.render(left: l, right: r, frameCount: block)  // warm up
        let voices = synth.activeVoiceCount
        let frames = Int(seconds * args.rate)
        var done = 0
        var voiceSamples = 0
        let s0 = now()
        while done < frames {
            synth.render(left: l, right: r, frameCount: block)
            voiceSamples += synth.activeVoiceCount * block
            done += block
        }
        return (now() - s0, voiceSamples, voices)
    }
    var best = try polyphonOnce()
    var fluidTime: Double?
    for round in 0..<args.repeats {
        if round > 0 {
            let again = try polyphonOnce()
            if again.time < best.time { best = again }
        }
        if let fluid, let (ft, _) = run(fluid, fluidSynthArgs(bank: args.soundfont, midi: midiPath, out: tmp + "/f.wav",
                                                                effects: args.effects, rate: args.rate)) {
            fluidTime = min(fluidTime ?? ft, ft)
        }
    }
    let nsPerVoiceSample = best.time * 1e9 / Double(best.voiceSamples)
    print(String(format: "\nsustained: %d notes → %d voices, %.0f s of audio%@", keys.count, best.voices, seconds,
                 args.repeats > 1 ? " (best of \(args.repeats))" : ""))
    print(String(format: "  polyphon   %.3f s  %.2f ns/voice-sample  %.0f× real time", best.time, nsPerVoiceSample,
                 seconds / best.time))
    if let ft = fluidTime {
        // FluidSynth's time includes loading the bank and the release tail: report both the
        // raw time and the per-voice-sample figure from the same voice count.
        let fluidNs = ft * 1e9 / Double(best.voiceSamples)
        print(String(format: "  fluidsynth %.3f s  %.2f ns/voice-sample (upper bound)  ratio %.2f×", ft, fluidNs, ft / best.time))
    }
}

// (b) Real songs.
let songFiles = ((try? FileManager.default.contentsOfDirectory(atPath: args.songs)) ?? [])
    .filter { $0.lowercased().hasSuffix(".mid") }.sorted()
if songFiles.isEmpty { print("\nno songs in \(args.songs) (apt install planetblupi-music-midi, or --songs DIR)") }
else {
    print("\nsongs (\(args.effects ? "effects on" : "effects off"), cubic, \(Int(args.rate)) Hz, "
          + (args.exactTiming ? "Polyphon's exact timing" : "events where FluidSynth plays them")
          + (args.repeats > 1 ? ", best of \(args.repeats)):" : "):"))
    print("file           audio s  polyphon ×RT  fluidsynth ×RT  ratio   RSS polyphon / fluidsynth   level dB  LSD dB  env r")
    var totalAudio = 0.0, totalPoly = 0.0, totalFluid = 0.0
    var fidelity: [AudioComparison] = []
    // Both renderers run as separate processes writing 16-bit WAV files, so wall time and peak
    // memory are measured the same way for both.
    let polyphon = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("polyphon").path
    guard FileManager.default.isExecutableFile(atPath: polyphon) else {
        print("build the CLI too: swift build -c release --product polyphon")
        exit(1)
    }
    for name in songFiles.prefix(args.quick ? 3 : songFiles.count) {
        let path = args.songs + "/" + name
        guard let file = try? MIDIFile(contentsOfFile: path) else { continue }
        let midi = args.exactTiming ? file : ((try? file.alignedToFluidSynthDispatch(sampleRate: Int(args.rate))) ?? file)
        let out = tmp + "/p.wav"
        var polyArgs = ["render", path, "-s", args.soundfont, "-o", out, "-q", "--rate", String(Int(args.rate))]
        if !args.exactTiming { polyArgs += ["--align-to-fluidsynth", "--fluidsynth-compatible"] }
        if !args.effects { polyArgs += ["--no-reverb", "--no-chorus"] }
        var pt = Double.infinity, prss = 0, duration = 0.0
        var fluidBest: (time: Double, rss: Int)?
        var failed = false
        for _ in 0..<args.repeats {
            if args.engineOnly {
                var options = RenderOptions()
                options.sampleRate = args.rate
                options.synthesizer = config
                let s0 = now()
                let summary = try OfflineRenderer(soundBank: bank, options: options).render(midi, into: { _, _, _ in })
                pt = min(pt, now() - s0)
                duration = summary.duration
            } else {
                guard let (t, rss) = run(polyphon, polyArgs) else { failed = true; break }
                pt = min(pt, t)
                prss = max(prss, rss)
                duration = (try? AudioFile(contentsOf: out).duration) ?? midi.duration
            }
            if let fluid, let (ft, rss) = run(fluid, fluidSynthArgs(bank: args.soundfont, midi: path, out: tmp + "/f.wav",
                                                                      effects: args.effects, rate: args.rate)) {
                fluidBest = (min(fluidBest?.time ?? ft, ft), max(fluidBest?.rss ?? rss, rss))
            }
        }
        if failed { print("\(name): polyphon failed"); continue }
        totalAudio += duration
        totalPoly += pt
        var line = name.padding(toLength: 14, withPad: " ", startingAt: 0)
            + String(format: "%7.1f  %12.0f", duration, duration / pt)
        if let (ft, rss) = fluidBest {
            totalFluid += ft
            line += String(format: "  %14.0f  %5.2f×  %6.1f MB / %6.1f MB", duration / ft, ft / pt,
                           Double(prss) / 1024, Double(rss) / 1024)
            if !args.engineOnly, let f = AudioComparison.compare(out, tmp + "/f.wav") {
                line += String(format: "   %+7.2f  %6.2f  %5.3f", f.levelDifference, f.spectralDistance, f.envelopeCorrelation)
                fidelity.append(f)
            }
        }
        print(line)
    }
    if totalPoly > 0 {
        var line = String(format: "total         %7.1f  %12.0f", totalAudio, totalAudio / totalPoly)
        if totalFluid > 0 { line += String(format: "  %14.0f  %5.2f×", totalAudio / totalFluid, totalFluid / totalPoly) }
        print(line)
        if !fidelity.isEmpty {
            let worstLevel = fidelity.map { abs($0.levelDifference) }.max() ?? 0
            let worstLSD = fidelity.map(\.spectralDistance).max() ?? 0
            let minCorr = fidelity.map(\.envelopeCorrelation).min() ?? 0
            print(String(format: "fidelity vs FluidSynth: worst |level| %.2f dB, worst spectral distance %.2f dB, lowest envelope r %.3f",
                         worstLevel, worstLSD, minCorr))
        }
    }
    print(args.engineOnly
          ? "(polyphon: engine only, in process, output discarded; fluidsynth: whole process)"
          : "(peak RSS per render process, measured with /usr/bin/time for both)")
}
