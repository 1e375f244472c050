// Render fingerprints: renders a fixed matrix of songs × banks × interpolation × effects ×
// block sizes in process and prints a 64-bit FNV-1a hash of every output sample's bits. A
// refactoring of the engine that must not change the sound compares these lines before and
// after (`diff`): any changed bit anywhere changes the hash.
//
//   swift run -c release RenderHashes [--songs DIR] [--bank F ...] [--quick] [--fluidsynth-compatible]
//                                      [--jobs N] [--threads N] [--channel-metering] > hashes.txt
//
// --quick renders the first 60 s of each song only; --fluidsynth-compatible renders with
// `SynthesizerConfiguration.fluidSynthCompatible` on. --threads spreads each render's voices over
// N threads (the hashes must not change); --channel-metering renders with the channel level
// meters on (they only read: the hashes must not change). Lines are sorted, so runs with different --jobs
// compare equal.
import Foundation
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth

var songsDir = "/usr/share/planetblupi/music"
var banks: [String] = []
var quick = false
var fluidSynthCompatible = false
var jobs = ProcessInfo.processInfo.activeProcessorCount
var threads = 1
var channelMetering = false
var it = CommandLine.arguments.dropFirst().makeIterator()
while let a = it.next() {
    switch a {
    case "--songs": songsDir = it.next() ?? songsDir
    case "--bank": if let b = it.next() { banks.append(b) }
    case "--quick": quick = true
    case "--fluidsynth-compatible": fluidSynthCompatible = true
    case "--jobs": jobs = max(1, Int(it.next() ?? "") ?? jobs)
    case "--threads": threads = max(1, Int(it.next() ?? "") ?? threads)
    case "--channel-metering": channelMetering = true
    default: FileHandle.standardError.write("unknown argument \(a)\n".data(using: .utf8)!); exit(64)
    }
}
if banks.isEmpty {
    banks = ["/usr/share/sounds/sf2/FluidR3_GM.sf2", "/usr/share/sounds/sf2/TimGM6mb.sf2",
             "/usr/share/sounds/sf3/MuseScore_General.sf3"].filter { FileManager.default.fileExists(atPath: $0) }
}
let songs = ((try? FileManager.default.contentsOfDirectory(atPath: songsDir)) ?? [])
    .filter { $0.lowercased().hasSuffix(".mid") }.sorted()
guard !songs.isEmpty, !banks.isEmpty else {
    FileHandle.standardError.write("no songs in \(songsDir) or no banks\n".data(using: .utf8)!)
    exit(1)
}

struct Job: Sendable {
    var song: String, bank: String, interpolation: Interpolation, effects: Bool, block: Int
    /// Track stems (each stem's hash, then the mix's) and a lead-in: the paths that route
    /// events to buses and shift frames.
    var stems = false, leadIn = 0.0
    /// Played by a `MIDIPlayer` bounce instead of the offline renderer.
    var player = false
}
var matrix: [Job] = []
for bank in banks {
    for song in songs {
        for interpolation in Interpolation.allCases {
            for effects in [false, true] {
                matrix.append(Job(song: song, bank: bank, interpolation: interpolation, effects: effects, block: 1024))
            }
        }
        // Block-size independence: odd and small blocks on the default kernel.
        for block in [64, 300] {
            matrix.append(Job(song: song, bank: bank, interpolation: .cubic, effects: true, block: block))
        }
        matrix.append(Job(song: song, bank: bank, interpolation: .cubic, effects: true, block: 1024, stems: true))
        matrix.append(Job(song: song, bank: bank, interpolation: .cubic, effects: false, block: 1000, leadIn: 0.25))
        matrix.append(Job(song: song, bank: bank, interpolation: .cubic, effects: true, block: 512, player: true))
    }
}

let loadedBanks = try banks.map { try SoundFont(contentsOf: $0) }
nonisolated(unsafe) let bankByPath = Dictionary(uniqueKeysWithValues: zip(banks, loadedBanks))
nonisolated(unsafe) let files = try Dictionary(uniqueKeysWithValues: songs.map { ($0, try MIDIFile(contentsOfFile: songsDir + "/" + $0)) })
nonisolated(unsafe) let quickRun = quick
nonisolated(unsafe) let compatible = fluidSynthCompatible
let renderThreads = threads
let meteringOn = channelMetering
nonisolated(unsafe) let jobMatrix = matrix

final class Results: @unchecked Sendable {
    let lock = NSLock()
    var lines: [String] = []
    func add(_ s: String) { lock.lock(); lines.append(s); lock.unlock() }
}
let results = Results()
let next = NSLock()
nonisolated(unsafe) var cursor = 0

@Sendable func run(_ job: Job) throws -> String {
    var options = RenderOptions()
    options.blockSize = job.block
    options.threads = renderThreads
    options.synthesizer.interpolation = job.interpolation
    options.synthesizer.reverbEnabled = job.effects
    options.synthesizer.chorusEnabled = job.effects
    options.leadIn = job.leadIn
    if quickRun { options.endAtLastEvent = true }
    options.synthesizer.fluidSynthCompatible = compatible
    options.synthesizer.channelLevelMetering = meteringOn
    var hash: UInt64 = 0xcbf29ce484222325
    var frames: Int64 = 0
    let limit: Int64 = quickRun ? 60 * 44100 : .max
    let file = files[job.song]!
    struct Stop: Error {}
    let renderer = OfflineRenderer(soundBank: bankByPath[job.bank]!, options: options)
    var stemHashes: [UInt64] = []
    do {
        let mix: OfflineRenderer.Sink = { l, r, n in
            let n = Int(min(Int64(n), limit - frames))
            for i in 0..<n {
                hash = (hash ^ UInt64(l[i].bitPattern)) &* 0x100000001b3
                hash = (hash ^ UInt64(r[i].bitPattern)) &* 0x100000001b3
            }
            frames += Int64(n)
            if frames >= limit { throw Stop() }
        }
        if job.player {
            let player = try MIDIPlayer(song: Song(midiFile: file), soundBank: bankByPath[job.bank]!,
                                        configuration: options.synthesizer, threads: renderThreads)
            try player.renderToCompletion(blockSize: job.block, into: mix)
        } else if job.stems {
            try renderer.renderStems(file, mode: .track, stemSink: { _ in
                let k = stemHashes.count
                stemHashes.append(0xcbf29ce484222325)
                return { l, r, n in
                    for i in 0..<n {
                        stemHashes[k] = (stemHashes[k] ^ UInt64(l[i].bitPattern)) &* 0x100000001b3
                        stemHashes[k] = (stemHashes[k] ^ UInt64(r[i].bitPattern)) &* 0x100000001b3
                    }
                }
            }, mix: mix)
        } else {
            try renderer.render(file, into: mix)
        }
    } catch is Stop {}
    let bankName = (job.bank as NSString).lastPathComponent
    let stems = stemHashes.map { String($0, radix: 16) }.joined(separator: ",")
    return "\(job.song) \(bankName) \(job.interpolation.rawValue) \(job.effects ? "fx" : "dry") block\(job.block)" + (job.player ? " player" : "")
        + (job.leadIn > 0 ? " leadIn\(job.leadIn)" : "") + (job.stems ? " stems[\(stems)]" : "")
        + " \(String(hash, radix: 16)) \(frames)"
}

let group = DispatchGroup()
for _ in 0..<jobs {
    group.enter()
    Thread.detachNewThread {
        while true {
            next.lock()
            let i = cursor
            cursor += 1
            next.unlock()
            guard i < jobMatrix.count else { break }
            do { results.add(try run(jobMatrix[i])) } catch { results.add("\(jobMatrix[i]) error \(error)") }
        }
        group.leave()
    }
}
group.wait()
for line in results.lines.sorted() { print(line) }
