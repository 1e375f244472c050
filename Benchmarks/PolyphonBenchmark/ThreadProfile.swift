import Foundation
import PolyphonMIDI
@_spi(Testing) import PolyphonPlayback
import PolyphonSoundFont
@_spi(Testing) import PolyphonSynth

/// `--thread-profile --song FILE [--effects]`: why one song scales as it does over threads.
/// Renders the song (engine only, output discarded) through a pool that reports two threads but
/// runs every task on the calling thread, so the rounds take their two-thread shape while all
/// the work is timed on one: how many rounds and voice frames go to the threads and how many
/// stay on the render thread (and why), and the render thread's CPU time in each part of a
/// chunk. The parts that stay serial bound the speed-up (Amdahl): printed for 2, 4 and 16
/// threads. The CPU clock counts only this thread's time, so a loaded machine leaves the
/// figures as they are. A render without the profile gives its cost. With `--real-threads` the
/// profiled render runs on a real pool of two threads instead: the threaded steps then show what
/// they cost the render thread (its share of the tasks and its wait for the other's), to set
/// beside the inline figures and the machine's ceiling (``ThreadCeiling``); Amdahl's line then
/// means nothing. `--threshold V` profiles rounds of at least V voices on the threads (and 8192
/// voice frames, or none below 8 voices) instead of the engine's threshold.
enum ThreadProfile {
    /// Two threads on paper, one in fact: tasks run in order on the caller.
    final class InlinePool: RenderThreadPool {
        let threadCount = 2
        func perform(_ work: any ParallelRenderWork, taskCount: Int) {
            for i in 0..<taskCount { work.performTask(i, thread: i % threadCount) }
        }
    }

    static func threadCPUNanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    static func run(bank: SoundFont, song: String, effects: Bool, repeats: Int, realThreads: Bool = false,
                    threshold: (voices: Int, voiceFrames: Int)? = nil) throws {
        let midi = try MIDIFile(contentsOf: URL(fileURLWithPath: song))
        var options = RenderOptions()
        options.synthesizer.reverbEnabled = effects
        options.synthesizer.chorusEnabled = effects
        var profile: RenderProfile?
        var plainCPU = UInt64.max, profiledCPU = UInt64.max
        var audio = 0.0
        for _ in 0..<repeats {
            let plain = OfflineRenderer(soundBank: bank, options: options)
            plain.threadPool = InlinePool()
            var t0 = threadCPUNanoseconds()
            audio = try plain.render(midi, into: { _, _, _ in }).duration
            plainCPU = min(plainCPU, threadCPUNanoseconds() - t0)

            let profiled = OfflineRenderer(soundBank: bank, options: options)
            profiled.threadPool = realThreads ? RenderThreads(count: 2) : InlinePool()
            let p = RenderProfile(clock: threadCPUNanoseconds)
            profiled.prepareSynthesizer = {
                $0.renderProfile = p
                if let threshold { $0.threadedRoundMinimum = threshold }
            }
            t0 = threadCPUNanoseconds()
            try profiled.render(midi, into: { _, _, _ in })
            let cpu = threadCPUNanoseconds() - t0
            if cpu < profiledCPU { profiledCPU = cpu; profile = p }
        }
        guard let p = profile else { return }
        print("\(URL(fileURLWithPath: song).lastPathComponent), \(String(format: "%.0f", audio)) s, effects \(effects ? "on" : "off"), "
              + "best of \(repeats) by CPU time (render thread), "
              + (realThreads ? "on 2 real threads (the render thread's share of the threaded steps, its waits included)"
                             : "a round's shape as with 2 threads"))
        print(String(format: "chunks %d, %.0f frames on average", p.chunks, Double(p.chunkFrames) / Double(max(1, p.chunks))))
        let voiceFrames = Double(p.threadedVoiceFrames + p.serialVoiceFrames)
        func share(_ x: Int) -> String { String(format: "%5.1f %%", 100 * Double(x) / max(1, voiceFrames)) }
        print("rounds: \(p.threadedRounds) threaded, \(p.serialRounds) on the render thread "
              + "(\(p.fewVoicesRounds) with < \(p.minimumVoices) voices, \(p.shortChunkRounds) with too few frames)")
        print("voice frames: threaded \(share(p.threadedVoiceFrames)), render thread \(share(p.serialVoiceFrames)) "
              + "(few voices \(share(p.fewVoicesVoiceFrames)), short chunks \(share(p.shortChunkVoiceFrames)))")
        var sizes = "voice frames by voices per round:"
        for (i, n) in p.voiceFramesByRoundSize.enumerated() where n > 0 {
            sizes += " \(1 << i)–\(i == 7 ? "" : String((2 << i) - 1)): \(share(n).trimmingCharacters(in: .whitespaces))"
        }
        print(sizes)
        let parts = p.dispatchTime + p.threadedRenderTime + p.threadedMixTime + p.serialRenderTime + p.serialMixTime
            + p.routeTime + p.sharedFilterTime + p.effectsTime
        let rest = profiledCPU - min(profiledCPU, parts)
        let rows: [(String, UInt64, Bool)] = [
            ("threaded rounds: render + filter", p.threadedRenderTime, true),
            ("threaded rounds: mix", p.threadedMixTime, true),
            ("render-thread rounds: render + filter", p.serialRenderTime, false),
            ("render-thread rounds: mix", p.serialMixTime, false),
            ("between the steps: routing, meter", p.routeTime, false),
            ("shared filters", p.sharedFilterTime, false),
            ("effect units side by side", p.parallelEffectsTime, true),
            ("effects on one thread, master volume, bus sum", p.effectsTime - p.parallelEffectsTime, false),
            ("events", p.dispatchTime, false),
            ("the rest: buses cleared, output copied, timeline, sink", rest, false),
        ]
        print("| part | CPU s | share | on the threads |")
        print("|---|---|---|---|")
        for (name, t, parallel) in rows {
            print("| \(name) | " + String(format: "%.2f | %.1f %%", Double(t) / 1e9, 100 * Double(t) / Double(profiledCPU))
                  + " | \(parallel ? "yes" : "no") |")
        }
        print(String(format: "| whole render | %.2f | 100 %% | |", Double(profiledCPU) / 1e9))
        print(String(format: "tasks of the threaded rounds, CPU summed over the threads that ran them: %.2f s",
                     Double(p.threadedTaskTime) / 1e9))
        if realThreads {
            print(String(format: "the same render inline on one thread: %.2f s CPU", Double(plainCPU) / 1e9))
            return
        }
        let voices = Double(p.threadedRenderTime + p.threadedMixTime), effectUnits = Double(p.parallelEffectsTime)
        let total = Double(profiledCPU), serial = total - voices - effectUnits
        // One bus: the reverb and the chorus, two tasks at most.
        var bounds = "Amdahl's bound (no hand-off cost, the effects two tasks at most):"
        for n in [2, 4, 16] {
            bounds += String(format: " %d threads %.2f×,", n, total / (serial + voices / Double(n) + effectUnits / Double(min(n, 2))))
        }
        print(bounds.dropLast())
        print(String(format: "render without the profile: %.2f s CPU (the profile's clock reads add %.1f %%)",
                     Double(plainCPU) / 1e9, 100 * (Double(profiledCPU) / Double(plainCPU) - 1)))
    }
}

/// `--thread-sweep --song FILE [--effects] [--repeat N]`: the song rendered (engine only, output
/// discarded) on one thread and on two under several thresholds
/// (``Synthesizer/threadedRoundMinimum``), interleaved, best of N by wall-clock time — what a
/// threshold is worth on a whole song. Wall-clock ratios mean something only on free cores.
enum ThreadSweep {
    static let thresholds: [(voices: Int, voiceFrames: Int)] = [(32, 8192), (16, 8192), (8, 4096), (4, 2048)]

    static func run(bank: SoundFont, song: String, effects: Bool, repeats: Int) throws {
        let midi = try MIDIFile(contentsOf: URL(fileURLWithPath: song))
        var options = RenderOptions()
        options.synthesizer.reverbEnabled = effects
        options.synthesizer.chorusEnabled = effects
        let pool = RenderThreads(count: 2)
        // nil: one thread.
        let contenders: [(voices: Int, voiceFrames: Int)?] = [nil] + thresholds.map { $0 }
        var best = [Double](repeating: .infinity, count: contenders.count)
        var audio = 0.0
        for _ in 0..<repeats {
            for (i, threshold) in contenders.enumerated() {
                let renderer = OfflineRenderer(soundBank: bank, options: options)
                if let threshold {
                    renderer.threadPool = pool
                    renderer.prepareSynthesizer = { $0.threadedRoundMinimum = threshold }
                }
                let t0 = now()
                audio = try renderer.render(midi, into: { _, _, _ in }).duration
                best[i] = min(best[i], now() - t0)
            }
        }
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
        print("\(URL(fileURLWithPath: song).lastPathComponent), \(String(format: "%.0f", audio)) s, effects \(effects ? "on" : "off"), "
              + "engine only, best of \(repeats), load after: \(load)")
        print("| threads | round threshold (voices, voice frames) | seconds | × one thread |")
        print("|---|---|---|---|")
        for (i, threshold) in contenders.enumerated() {
            let name = threshold.map { "\($0.voices), \($0.voiceFrames)" } ?? "–"
            print("| \(threshold == nil ? 1 : 2) | \(name) | " + String(format: "%.2f | %.2f× |", best[i], best[0] / best[i]))
        }
    }
}

/// `--thread-ceiling --song FILE [--effects] [--repeat N]`: what this machine's cores give work
/// that shares nothing — the song rendered (engine only) alone, then twice at once on two
/// threads of its own, each with its own synthesizer. Two renders in the time of one would be
/// 2×; shared caches, memory bandwidth, the hypervisor and the clock falling as more cores are
/// busy take their share. No split of one song over two threads can beat this ratio.
enum ThreadCeiling {
    /// Each thread's time, in a property of its own (no two threads touch the same one).
    final class Result: @unchecked Sendable { var first = 0.0, second = 0.0 }

    static func run(bank: SoundFont, song: String, effects: Bool, repeats: Int) throws {
        let midi = try MIDIFile(contentsOf: URL(fileURLWithPath: song))
        var options = RenderOptions()
        options.synthesizer.reverbEnabled = effects
        options.synthesizer.chorusEnabled = effects
        var alone = Double.infinity, together = Double.infinity, slowest = 0.0
        var audio = 0.0
        for _ in 0..<repeats {
            let t0 = now()
            audio = try OfflineRenderer(soundBank: bank, options: options).render(midi, into: { _, _, _ in }).duration
            alone = min(alone, now() - t0)
            let result = Result()
            let group = DispatchGroup()
            let t1 = now()
            let shared = options
            for i in 0..<2 {
                let thread = Thread {
                    let start = now()
                    _ = try? OfflineRenderer(soundBank: bank, options: shared).render(midi, into: { _, _, _ in })
                    if i == 0 { result.first = now() - start } else { result.second = now() - start }
                    group.leave()
                }
                group.enter()
                thread.stackSize = 1 << 22
                thread.start()
            }
            group.wait()
            let both = now() - t1
            if both < together { together = both; slowest = max(result.first, result.second) }
        }
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
        print("\(URL(fileURLWithPath: song).lastPathComponent), \(String(format: "%.0f", audio)) s, effects \(effects ? "on" : "off"), "
              + "engine only, best of \(repeats), load after: \(load)")
        print(String(format: "one render alone: %.2f s; two at once: %.2f s (the slower); throughput %.2f× one core's",
                     alone, max(together, slowest), 2 * alone / max(together, slowest)))
    }
}
