import Foundation
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth
import Testing

/// A song rendered on 1, 2, 3 and 4 threads (``RenderThreads``, ``RenderOptions/threads``)
/// gives the same bytes every time: every output sample is summed in voice-pool order,
/// whichever thread rendered its voices.
@Suite struct RenderThreadsTests {
    /// Jobs of numbered tasks, each job writing cells the next reads, on pools of 2 to 8
    /// threads (more threads than cores, so threads are preempted mid-job): every task runs
    /// exactly once, and a job sees everything the one before it wrote.
    @Test func everyTaskRunsOnceAndSeesTheJobBefore() {
        final class Cells: ParallelRenderWork, @unchecked Sendable {
            let values = UnsafeMutablePointer<Int>.allocate(capacity: 4096)
            let runs = UnsafeMutablePointer<Int>.allocate(capacity: 64)
            let stale = UnsafeMutablePointer<Int>.allocate(capacity: 8 * 16)
            var job = 0, taskCount = 1, writing = true
            init() {
                values.initialize(repeating: -1, count: 4096)
                runs.initialize(repeating: 0, count: 64)
                stale.initialize(repeating: 0, count: 8 * 16)
            }
            func performTask(_ index: Int, thread: Int) {
                runs[index] += 1
                let per = 4096 / taskCount
                if writing {
                    for i in (index * per)..<((index + 1) * per) { values[i] = job }
                } else {
                    for i in (index * per)..<((index + 1) * per) where values[i] != job { stale[thread * 16] += 1 }
                }
            }
        }
        for threads in [2, 3, 8] {
            let pool = RenderThreads(count: threads)
            #expect(pool.threadCount == threads)
            let cells = Cells()
            var repeated = 0
            for job in 0..<20_000 {
                cells.job = job
                cells.taskCount = 1 + job % 16
                for writing in [true, false] {
                    cells.writing = writing
                    cells.runs.update(repeating: 0, count: 64)
                    pool.perform(cells, taskCount: cells.taskCount)
                    for t in 0..<cells.taskCount where cells.runs[t] != 1 { repeated += 1 }
                }
            }
            let stale = (0..<threads).reduce(0) { $0 + cells.stale[$1 * 16] }
            #expect(repeated == 0 && stale == 0, "\(threads) threads: \(repeated) tasks not run once, \(stale) stale reads")
        }
    }

    /// The render and the most voices that sounded at once.
    static func render(_ file: MIDIFile, bank: SoundFont, threads: Int, effects: Bool, block: Int) throws -> (RenderCapture, voices: Int) {
        var options = RenderOptions()
        options.threads = threads
        options.blockSize = block
        options.synthesizer.reverbEnabled = effects
        options.synthesizer.chorusEnabled = effects
        let capture = RenderCapture()
        let summary = try OfflineRenderer(soundBank: bank, options: options).render(file, into: capture.sink)
        return (capture, summary.maxVoices)
    }

    static func expectSameBytes(_ file: MIDIFile, bank: SoundFont, effects: Bool, block: Int, _ name: String,
                                voices: Int = 1) throws {
        let (one, mostVoices) = try render(file, bank: bank, threads: 1, effects: effects, block: block)
        #expect(one.left.count > 44_100 && one.left.contains { abs($0) > 0.01 }, "\(name): silent")
        #expect(mostVoices >= voices, "\(name): \(mostVoices) voices at most")
        for threads in 2...4 {
            let (out, _) = try render(file, bank: bank, threads: threads, effects: effects, block: block)
            #expect(out.left.count == one.left.count, "\(name): \(threads) threads, another length")
            let same = out.left.withUnsafeBytes { a in one.left.withUnsafeBytes { b in a.elementsEqual(b) } }
                && out.right.withUnsafeBytes { a in one.right.withUnsafeBytes { b in a.elementsEqual(b) } }
            #expect(same, "\(name): \(threads) threads give other bytes")
        }
    }

    /// Thirty-two overlapping notes on four channels, filtered (shared filters join and leave)
    /// and panned, with sustain, bends and controller changes.
    @Test func aSongBuiltInCodeRendersTheSameBytesOnAnyNumberOfThreads() throws {
        let bank = Fixtures.sineBank(generators: [Generator(.initialFilterFc, 7000), Generator(.initialFilterQ, 40),
                                                  Generator(.releaseVolEnv, -2000)])
        var notes: [(channel: UInt8, key: UInt8, start: Int, length: Int)] = []
        for k in 0..<160 {
            notes.append((channel: UInt8(k % 4), key: UInt8(36 + (k * 5) % 48), start: 120 * k, length: 2_000 + 37 * (k % 9)))
        }
        var extra: [MIDIEvent] = []
        for channel in UInt8(0)..<4 {
            extra.append(MIDIEvent(tick: 0, message: .controlChange(channel: channel, controller: 10, value: 20 + 30 * channel)))
            extra.append(MIDIEvent(tick: 5_000 + Int(channel) * 700, message: .pitchBend(channel: channel, value: 9_000)))
            extra.append(MIDIEvent(tick: 9_000, message: .controlChange(channel: channel, controller: 64, value: 127)))
            extra.append(MIDIEvent(tick: 12_000, message: .controlChange(channel: channel, controller: 64, value: 0)))
            extra.append(MIDIEvent(tick: 14_000, message: .controlChange(channel: channel, controller: 91, value: 90)))
        }
        let song = Fixtures.song(notes, extra: extra)
        try Self.expectSameBytes(song, bank: bank, effects: true, block: 1024, "built-in song")
        try Self.expectSameBytes(song, bank: bank, effects: false, block: 300, "built-in song, block 300")
    }

    /// 270 notes begun within 0.3 s on the fifteen melodic channels, each panned and sent to
    /// the reverb: the 256-voice pool full (the last notes steal), filtered voices settling
    /// into shared filters, effects on.
    @Test func aFullPoolOf256VoicesRendersTheSameBytesOnAnyNumberOfThreads() throws {
        let bank = Fixtures.sineBank(generators: [Generator(.initialFilterFc, 6000), Generator(.initialFilterQ, 60),
                                                  Generator(.releaseVolEnv, -2400)])
        let channels = (UInt8(0)..<16).filter { $0 != 9 }
        var notes: [(channel: UInt8, key: UInt8, start: Int, length: Int)] = []
        for k in 0..<270 {
            notes.append((channel: channels[k % 15], key: UInt8(30 + k / 15 * 3), start: k, length: 700 + 3 * (k % 11)))
        }
        var extra: [MIDIEvent] = []
        for (i, channel) in channels.enumerated() {
            extra.append(MIDIEvent(tick: 0, message: .controlChange(channel: channel, controller: 10, value: UInt8(i * 9))))
            extra.append(MIDIEvent(tick: 0, message: .controlChange(channel: channel, controller: 91, value: UInt8(20 + i * 7))))
        }
        try Self.expectSameBytes(Fixtures.song(notes, extra: extra), bank: bank, effects: true, block: 512, "256 voices",
                                 voices: 256)
    }

    static let songs = ["music000.mid", "music005.mid", "music009.mid"]
    static var realFilesAvailable: Bool {
        RealFiles.available(RealFiles.fluidR3) && RealFiles.available(RealFiles.timGM6mb)
            && RealFiles.available(RealFiles.planetblupiMusic)
    }

    /// The first five seconds of three planetblupi songs through FluidR3_GM with effects and
    /// TimGM6mb without, in blocks of 1024 and of 300 frames. Five seconds hold 28, 66 and 48
    /// voices at once through FluidR3_GM (twenty seconds, 30, 66 and 94): past the 16 that
    /// spread a round over threads, at a quarter of the render.
    @Test(.enabled(if: realFilesAvailable))
    func realSongsRenderTheSameBytesOnAnyNumberOfThreads() throws {
        let fluid = try SoundFont(contentsOf: RealFiles.fluidR3)
        let tim = try SoundFont(contentsOf: RealFiles.timGM6mb)
        for name in Self.songs {
            let file = try MIDIFile(contentsOfFile: RealFiles.planetblupiMusic + "/" + name)
            let excerpt = RealSongTests.excerpt(file, seconds: 5)
            try Self.expectSameBytes(excerpt, bank: fluid, effects: true, block: 1024, "\(name), FluidR3_GM", voices: 24)
            try Self.expectSameBytes(excerpt, bank: tim, effects: false, block: 300, "\(name), TimGM6mb")
        }
    }
}
