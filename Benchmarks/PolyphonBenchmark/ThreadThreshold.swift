import Foundation
@_spi(Testing) import PolyphonSynth
import PolyphonPlayback
import PolyphonSoundFont

/// `--thread-threshold`: where spreading a round of voices over two threads starts to pay.
/// Renders held string voices (FluidR3_GM's ensemble, effects off) in blocks of 64 to 1024
/// frames, once on one thread and once with every round spread over a pool of two
/// (``Synthesizer/spreadsEveryRoundOverThreads``), best of `repeats` each, interleaved, and
/// prints the time per block and the ratio. For each block size it names the smallest work per
/// round (voices × frames) from which two threads win at that voice count and every larger one
/// (a single lucky win below a loss is noise, not a threshold); ``VoiceRenderer``'s
/// `minimumThreadedWork` is set from these.
enum ThreadThreshold {
    static func run(bank: SoundFont, repeats: Int) throws {
        let pool = RenderThreads(count: 2)
        print("voices  block   1 thread µs/block   2 threads µs/block   ratio   (best of \(repeats))")
        var crossing: [Int: Int] = [:]
        for block in [64, 128, 256, 512, 1024] {
            // Up to a whole threaded round (VoiceRenderer.threadedWindow).
            for voices in [2, 4, 8, 16, 32, 48, 64, 96, 128] {
                var single = Double.infinity, threaded = Double.infinity
                for _ in 0..<repeats {
                    single = min(single, try time(bank: bank, voices: voices, block: block, threads: nil))
                    threaded = min(threaded, try time(bank: bank, voices: voices, block: block, threads: pool))
                }
                let ratio = single / threaded
                print(String(format: "%6d  %5d   %17.1f   %18.1f   %5.2f×", voices, block, single * 1e6, threaded * 1e6, ratio))
                if ratio <= 1.05 { crossing[block] = nil } else if crossing[block] == nil { crossing[block] = voices * block }
            }
        }
        for block in [64, 128, 256, 512, 1024] {
            if let work = crossing[block] {
                print("block \(block): two threads win by 5% from \(work) voice frames per round (\(work / block) voices) on")
            } else {
                print("block \(block): two threads do not win by 5% at the largest round measured")
            }
        }
    }

    /// Seconds per block of `voices` held voices, over 2 s of audio after a warm-up.
    static func time(bank: SoundFont, voices: Int, block: Int, threads: RenderThreads?) throws -> Double {
        var config = SynthesizerConfiguration()
        config.reverbEnabled = false
        config.chorusEnabled = false
        let synth = try Synthesizer(soundBank: bank, configuration: config, threads: threads)
        synth.spreadsEveryRoundOverThreads = threads != nil
        synth.sendProgramChange(48, onChannel: 0)
        let l = UnsafeMutablePointer<Float>.allocate(capacity: block), r = UnsafeMutablePointer<Float>.allocate(capacity: block)
        defer { l.deallocate(); r.deallocate() }
        var key: UInt8 = 36
        while synth.activeVoiceCount < voices && key < 120 {
            synth.startNote(key, withVelocity: 100, onChannel: 0)
            synth.render(left: l, right: r, frameCount: 1)
            key += 1
        }
        for _ in 0..<(8192 / block) { synth.render(left: l, right: r, frameCount: block) }
        let blocks = max(1, 88_200 / block)
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<blocks { synth.render(left: l, right: r, frameCount: block) }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 / Double(blocks)
    }
}
