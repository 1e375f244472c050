import Foundation
import PolyphonAudio
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth
import Testing

@Suite("Offline renderer")
struct OfflineRendererTests {
    func options(effects: Bool = false) -> RenderOptions {
        var o = RenderOptions()
        o.synthesizer.reverbEnabled = effects
        o.synthesizer.chorusEnabled = effects
        return o
    }

    @Test func tailEndsWithinOneBlockOfInaudibility() throws {
        // Release 2^(−600/1200) ≈ 0.71 s: the voice ends when it falls under the noise floor.
        let bank = Fixtures.sineBank(generators: [Generator(.releaseVolEnv, -600)])
        let song = Fixtures.song([(0, 69, 0, 480)])  // 0.5 s
        let capture = RenderCapture()
        let summary = try OfflineRenderer(soundBank: bank, options: options()).render(song, into: capture.sink)
        // Independently: drive a synthesizer frame by frame and find when its last voice ends.
        let synth = try Synthesizer(soundBank: bank, configuration: options().synthesizer)
        synth.startNote(69, withVelocity: 100, onChannel: 0)
        synth.stopNote(69, onChannel: 0, atFrame: 22050)
        var frame = 0
        var scratch = [Float](repeating: 0, count: 2)
        while synth.activeVoiceCount > 0 || frame < 22050 {
            scratch.withUnsafeMutableBufferPointer { p in synth.render(left: p.baseAddress!, right: p.baseAddress! + 1, frameCount: 1) }
            frame += 1
        }
        #expect(Int(summary.frames) >= frame)
        #expect(Int(summary.frames) - frame < 64, "file has \(summary.frames) frames, voice ended at \(frame)")
        // And the end is genuinely quiet: the last 10 ms are below −85 dBFS.
        let tail = capture.left.suffix(441).map { abs($0) }.max() ?? 1
        #expect(20 * log10(max(Double(tail), 1e-12)) < -85)
    }

    @Test func maxTailCapsTheRender() throws {
        let bank = Fixtures.sineBank(generators: [Generator(.releaseVolEnv, 3000)])  // 5.6 s
        var o = options()
        o.maxTail = 0.5
        let summary = try OfflineRenderer(soundBank: bank, options: o).render(Fixtures.song([(0, 69, 0, 960)]), into: { _, _, _ in })
        #expect(summary.frames == 44100 + 22050)
    }

    @Test func endAtLastEventAndLeadIn() throws {
        let bank = Fixtures.sineBank(generators: [Generator(.releaseVolEnv, 1200)])
        var o = options()
        o.endAtLastEvent = true
        o.leadIn = 0.25
        let capture = RenderCapture()
        let summary = try OfflineRenderer(soundBank: bank, options: o).render(Fixtures.song([(0, 69, 0, 960)]), into: capture.sink)
        #expect(summary.frames == 44100 + 11025)
        // Nothing before the lead-in ends.
        #expect(capture.left[..<11025].allSatisfy { $0 == 0 })
        #expect(capture.left[11025..<11200].contains { $0 != 0 })
    }

    @Test func eventsLandOnTheirExactFrame() throws {
        // Instant attack: a note at tick t starts at frame round(t / 960 × 44100) exactly.
        let bank = Fixtures.sineBank(generators: [Generator(.delayVolEnv, -32768), Generator(.attackVolEnv, -32768)])
        for tick in [1, 7, 100, 963] {
            let capture = RenderCapture()
            var o = options()
            o.blockSize = 1024
            _ = try OfflineRenderer(soundBank: bank, options: o).render(Fixtures.song([(0, 69, tick, 480)]), into: capture.sink)
            let expected = Int((Double(tick) / 960 * 44100).rounded())
            let first = capture.left.firstIndex { $0 != 0 } ?? -1
            // The sine's first point is 0, so the first non-zero output is one frame later.
            #expect(first == expected + 1, "tick \(tick): expected frame \(expected + 1), got \(first)")
        }
    }

    @Test func trimLeadingSilence() throws {
        let bank = Fixtures.sineBank(generators: [Generator(.releaseVolEnv, -1200)])
        // Notes at 1 s and 1.25 s on two channels: a second of silence, then sound.
        let song = Fixtures.song([(0, 69, 960, 480), (1, 64, 1200, 480)])
        var o = options()
        o.trimLeadingSilence = true
        let capture = RenderCapture()
        let summary = try OfflineRenderer(soundBank: bank, options: o).render(song, into: capture.sink)
        #expect(capture.left.first != 0 || capture.right.first != 0)
        // The same audio as the untrimmed render from its first sound on, and the summary says
        // how much was dropped.
        let full = RenderCapture()
        let untrimmed = try OfflineRenderer(soundBank: bank, options: options()).render(song, into: full.sink)
        let firstSound = try #require(full.left.indices.first { full.left[$0] != 0 || full.right[$0] != 0 })
        #expect(firstSound > 44_000)
        #expect(summary.trimmedFrames == Int64(firstSound))
        #expect(summary.frames + summary.trimmedFrames == untrimmed.frames)
        #expect(Array(full.left[firstSound...]) == capture.left)

        // The note labels (the piano roll of `render --picture --trim`) move with the audio.
        let labels = Timeline(file: song, sampleRate: 44_100).noteLabels(for: o, trimmedFrames: summary.trimmedFrames)
        // (The sine's first point is 0, so the audio starts a frame after the first note: that
        // note starts at the output's first frame.)
        #expect(labels.map(\.onsetFrame) == [max(0, 44_100 - summary.trimmedFrames), 55_125 - summary.trimmedFrames])
        #expect(labels[1].onsetSeconds == Double(labels[1].onsetFrame) / 44_100)
        // With a length, the output and the labels end together.
        o.length = 0.5
        let short = Timeline(file: song, sampleRate: 44_100).noteLabels(for: o, trimmedFrames: summary.trimmedFrames)
        // (The first note ends at its note-off, the second is cut where the output ends.)
        #expect(short.map(\.offsetFrame) == [66_150 - summary.trimmedFrames, 22_050])

        // Stems drop the mix's silence, every stem the same frames: they still add up to it.
        var stems: [Int: RenderCapture] = [:]
        let mix = RenderCapture()
        o.length = nil
        let stemSummary = try OfflineRenderer(soundBank: bank, options: o).renderStems(song, mode: .channel, stemSink: { stem in
            let c = RenderCapture()
            stems[stem.index] = c
            return c.sink
        }, mix: mix.sink)
        #expect(stemSummary.trimmedFrames == summary.trimmedFrames)
        #expect(mix.left == capture.left)
        #expect(stems.count == 2 && stems.values.allSatisfy { $0.left.count == mix.left.count })
        #expect(mix.largestDifference(fromSumOf: stems.values) < 1e-6)
    }

    @Test(arguments: [StemMode.channel, .track])
    func stemsAddUpToTheMix(mode: StemMode) throws {
        let bank = Fixtures.sineBank(generators: [Generator(.releaseVolEnv, -1200)])
        let song = Fixtures.song([(0, 60, 0, 480), (1, 64, 240, 480), (2, 67, 480, 960), (9, 69, 100, 200)],
                                 extra: [MIDIEvent(tick: 0, message: .controlChange(channel: 1, controller: 91, value: 100)),
                                         MIDIEvent(tick: 0, message: .controlChange(channel: 2, controller: 93, value: 127))])
        var stems: [Int: RenderCapture] = [:]
        let mix = RenderCapture()
        _ = try OfflineRenderer(soundBank: bank, options: options(effects: true)).renderStems(song, mode: mode, stemSink: { stem in
            let c = RenderCapture()
            stems[stem.index] = c
            return c.sink
        }, mix: mix.sink)
        #expect(stems.count == 4)
        #expect(mix.largestDifference(fromSumOf: stems.values) < 1e-6)
        // And the mix equals a plain render of the same song.
        let plain = RenderCapture()
        _ = try OfflineRenderer(soundBank: bank, options: options(effects: true)).render(song, into: plain.sink)
        #expect(plain.left.count == mix.left.count)
        let diff = zip(plain.left, mix.left).map { abs($0 - $1) }.max() ?? 1
        #expect(diff < 1e-5, "stem mix differs from the plain mix by \(diff)")
    }

    @Test func twoHourSongRendersWithFlatMemory() throws {
        // A note every second for two hours at 8 kHz, rendered in this process: the renderer's
        // own allocations must not grow with the length. (Other tests run in parallel, so the
        // process-wide figure is checked by the CLI test that renders in a child process.)
        var events: [MIDIEvent] = []
        for s in 0..<7200 {
            events.append(MIDIEvent(tick: s * 960, message: .noteOn(channel: 0, note: 60 + UInt8(s % 12), velocity: 90)))
            events.append(MIDIEvent(tick: s * 960 + 480, message: .noteOff(channel: 0, note: 60 + UInt8(s % 12), velocity: 0)))
        }
        events.append(MIDIEvent(tick: 7200 * 960, message: .meta(.endOfTrack)))
        let song = MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480), tracks: [MIDITrack(events: events)])
        var o = options()
        o.sampleRate = 8000
        o.blockSize = 4096
        var frames = 0
        let summary = try OfflineRenderer(soundBank: Fixtures.sineBank(), options: o).render(song, into: { _, _, n in
            frames += n
        })
        #expect(summary.duration >= 7200)
        #expect(frames == Int(summary.frames))
    }

    /// Current resident set size in KiB (from /proc; 0 where unavailable).
    static func residentKiB() -> Int {
        guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = s.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }
}
