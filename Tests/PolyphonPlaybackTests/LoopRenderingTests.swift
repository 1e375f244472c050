import Foundation
import Testing
import PolyphonMIDI
@testable import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth

/// A song with a marked loop: 120 BPM (22 050 frames a beat), an intro of two beats, the loop
/// over beats 2–6 (88 200 frames), an outro of two beats. In the loop: notes whose release
/// rings across the loop's end, a note still held at the end, and a volume change the jump
/// must undo.
enum LoopSong {
    static let beat = 22_050
    static let start = 2 * beat
    static let length = 4 * beat

    /// A sine with a one-second release, so what rings past the loop's end is long.
    static let bank: SoundFont = {
        let pcm = (0..<2000).map { Int16((12000 * sin(2 * Double.pi * Double($0) / 100)).rounded()) }
        return SoundFont.singleSample(pcm, originalPitch: 69, loop: 100..<2000,
                                      instrumentGenerators: [Generator(.releaseVolEnv, 0)])
    }()

    static func song(effects: Bool) -> Song {
        var song = Song()
        song.replaceTempo(120)
        let track = song.addTrack(program: 0) { track in
            if effects {
                track.controller(91, value: 127)
                track.controller(93, value: 127)
            }
            track.note(57, beats: 2)
            track.marker("loopStart")
            track.note(64, beats: 1)
            track.note(67, beats: 1)
            track.controller(7, value: 80)
            track.note(72, beats: 1.5)
            track.rest(beats: 0.5)
            track.marker("loopEnd")
            track.note(48, beats: 2)
        }
        // Held across the loop's end: released at the jump, ringing into the next pass.
        song.addNote(76, duration: 1, channel: 0, at: 5.5, toTrack: track)
        return song
    }

    static func options(effects: Bool, loop: LoopRendering?) -> RenderOptions {
        var options = RenderOptions()
        options.synthesizer.reverbEnabled = effects
        options.synthesizer.chorusEnabled = effects
        options.loop = loop
        return options
    }

    static func render(effects: Bool, loop: LoopRendering?, length: Double? = nil) throws -> (Capture, RenderSummary) {
        var options = options(effects: effects, loop: loop)
        options.length = length
        var audio = Capture()
        let summary = try OfflineRenderer(soundBank: bank, options: options)
            .render(song(effects: effects), into: { l, r, n in audio.append(l, r, n) })
        return (audio, summary)
    }
}

extension Capture {
    /// The frames `range` of the capture.
    func slice(_ range: Range<Int>) -> Capture {
        Capture(left: Array(left[range]), right: Array(right[range]))
    }

    /// The energy of `self − reference` against the reference's, in dB.
    func decibels(from reference: Capture) -> Double {
        var error = 0.0, signal = 0.0
        for i in 0..<min(count, reference.count) {
            let l = Double(left[i] - reference.left[i]), r = Double(right[i] - reference.right[i])
            error += l * l + r * r
            signal += Double(reference.left[i] * reference.left[i] + reference.right[i] * reference.right[i])
        }
        return 10 * log10(max(error, 1e-300) / max(signal, 1e-300))
    }
}

@Suite struct LoopRenderingTests {
    @Test func theTimelineFindsTheMarkedLoopOnItsFrames() {
        let file = LoopSong.song(effects: false).midiFile(ticksPerQuarterNote: 480)
        let loop = Timeline(file: file, sampleRate: 44_100).loop
        #expect(loop?.startFrame == Int64(LoopSong.start))
        #expect(loop?.length == Int64(LoopSong.length))
        #expect(loop?.marked?.source == .markers)
    }

    @Test func loopsRepeatTheSectionExactly() throws {
        let (audio, _) = try LoopSong.render(effects: false, loop: .passes(3))
        let s = LoopSong.start, l = LoopSong.length
        let second = audio.slice(s + l..<s + 2 * l), third = audio.slice(s + 2 * l..<s + 3 * l)
        let difference = third.decibels(from: second)
        print("loops 3, effects off: pass 3 against pass 2 \(difference) dB")
        #expect(difference <= -100)
        #expect(second.peak > 0.01)
        // The outro follows the last pass: the song as written is one pass shorter per repeat.
        let (plain, _) = try LoopSong.render(effects: false, loop: nil)
        #expect(audio.count == plain.count + 2 * l)
        let (once, _) = try LoopSong.render(effects: false, loop: .passes(1))
        #expect(once.left == plain.left)
    }

    @Test(arguments: [false, true])
    func theLoopReadyFilePlayedAsAGameWouldMatchesTheSongPlayedThrough(effects: Bool) throws {
        let (file, summary) = try LoopSong.render(effects: effects, loop: .loopReady)
        let s = LoopSong.start, l = LoopSong.length
        let loop = try #require(summary.loop)
        #expect(loop.start == Int64(s + l))
        #expect(loop.end == Int64(s + 2 * l))
        #expect(file.count == s + 2 * l)  // nothing after the loop: no outro
        // The game: the file to the loop's end, then the loop again and again.
        var game = file
        for _ in 0..<4 { game.append(file.slice(Int(loop.start)..<Int(loop.end))) }
        let (reference, _) = try LoopSong.render(effects: effects, loop: .passes(6))
        var worst = -Double.infinity
        for pass in 1...6 {
            let range = s + (pass - 1) * l..<s + pass * l
            let difference = game.slice(range).decibels(from: reference.slice(range))
            print("loop-ready, effects \(effects ? "on" : "off"): pass \(pass) \(difference) dB")
            if pass > 1 { worst = max(worst, difference) }
        }
        #expect(worst <= (effects ? -35 : -50))
        #expect(game.slice(0..<s + l).decibels(from: reference.slice(0..<s + l)) <= -100)
    }

    @Test func lengthIsExactToTheSample() throws {
        for seconds in [1.23456, 30.0] {
            let (audio, summary) = try LoopSong.render(effects: false, loop: nil, length: seconds)
            #expect(audio.count == Int((seconds * 44_100).rounded()))
            #expect(summary.frames == Int64(audio.count))
        }
        let (cut, _) = try LoopSong.render(effects: false, loop: nil, length: 1.23456)
        #expect(abs(cut.left.last!) < 1e-3)  // the cut fades out
        let (padded, _) = try LoopSong.render(effects: false, loop: nil, length: 30)
        #expect(padded.slice(padded.count - 44_100..<padded.count).peak == 0)
    }

    @Test func aFadeOutEndsWithTheFade() throws {
        let (audio, _) = try LoopSong.render(effects: false, loop: .fadeOut(passes: 2, seconds: 1))
        #expect(audio.count == LoopSong.start + 2 * LoopSong.length + 44_100)
        #expect(audio.slice(audio.count - 200..<audio.count).peak < 1e-3)
        #expect(audio.slice(LoopSong.start + 2 * LoopSong.length..<LoopSong.start + 2 * LoopSong.length + 4410).peak > 0.01)
    }

    /// The labels (and the picture's piano roll) of a loop render show every pass on the frames
    /// the audio has it: the note held across the loop's end released at each jump, the outro
    /// after the last pass, nothing past a fade's or a loop-ready file's end or an exact length.
    /// Computed from the timeline alone: no render.
    @Test func noteLabelsFollowThePassesAndTheEnd() {
        let timeline = Timeline(file: LoopSong.song(effects: false).midiFile(ticksPerQuarterNote: 480), sampleRate: 44_100)
        func labels(_ loop: LoopRendering?, length: Double? = nil) -> [[Int64]] {
            var options = LoopSong.options(effects: false, loop: loop)
            options.length = length
            return timeline.noteLabels(for: options).map { [Int64($0.pitch), $0.onsetFrame, $0.offsetFrame] }
        }
        let s = Int64(LoopSong.start), l = Int64(LoopSong.length), e = s + l, beat = Int64(LoopSong.beat)
        /// One pass's notes, `pass` from 1; the note held across the end released at `release`.
        func pass(_ pass: Int64, release: Int64) -> [[Int64]] {
            let o = (pass - 1) * l
            return [[64, s + o, s + beat + o], [67, s + beat + o, s + 2 * beat + o],
                    [72, s + 2 * beat + o, s + 2 * beat + beat * 3 / 2 + o], [76, e - beat / 2 + o, release]]
        }
        let intro: [[Int64]] = [[57, 0, s]]
        // Three passes: the jumps release the held note; the last pass holds it as written.
        #expect(labels(.passes(3)) == intro + pass(1, release: e) + pass(2, release: e + l)
                    + pass(3, release: e + 2 * l + beat / 2) + [[48, e + 2 * l, e + 2 * l + 2 * beat]])
        #expect(labels(.passes(1)) == labels(nil))
        #expect(labels(.loopReady) == intro + pass(1, release: e) + pass(2, release: e + l))
        // Two passes, then a second's fade over the third: its notes that begin before the end.
        let third = pass(3, release: 0)
        #expect(labels(.fadeOut(passes: 2, seconds: 1)) == intro + pass(1, release: e) + pass(2, release: e + l)
                    + third[0...1])
        #expect(labels(nil, length: 1.2) == intro + [[64, s, 52_920]])
    }

    @Test func aLoopRenderNeedsALoop() throws {
        var song = Song()
        song.addTrack(program: 0) { $0.note(60, beats: 1) }
        let renderer = OfflineRenderer(soundBank: LoopSong.bank, options: LoopSong.options(effects: false, loop: .passes(2)))
        #expect(throws: LoopRenderingError.self) { try renderer.render(song, into: { _, _, _ in }) }
    }

    @Test func absurdPassCountsAreRefusedBeforeRendering() throws {
        let renderer = OfflineRenderer(soundBank: LoopSong.bank,
                                       options: LoopSong.options(effects: false, loop: .passes(1_000_000_000_000)))
        var frames = 0
        #expect(throws: LoopRenderingError.self) {
            try renderer.render(LoopSong.song(effects: false), into: { _, _, n in frames += n })
        }
        #expect(frames == 0)  // refused before the first block, not cut off at the limit
    }

    @Test func thePlayerJumpsSampleExactlyAndReportsEachPass() throws {
        let player = try MIDIPlayer(song: LoopSong.song(effects: false), soundBank: LoopSong.bank,
                                    configuration: LoopSong.options(effects: false, loop: nil).synthesizer)
        #expect(player.songLoop?.source == .markers)
        var jumps: [(pass: Int, frame: Int64)] = []
        player.onLoop { callback in
            if case .loop(let pass) = callback.kind { jumps.append((pass, callback.frame)) }
        }
        player.numberOfLoops = 2
        let played = try player.bounce(block: 777)
        let s = Int64(LoopSong.start), l = Int64(LoopSong.length)
        #expect(jumps.map(\.pass) == [2, 3])
        #expect(jumps.map(\.frame) == [s + l, s + 2 * l])
        // The same audio as the offline renderer's three passes.
        let (offline, _) = try LoopSong.render(effects: false, loop: .passes(3))
        #expect(played.count == offline.count)
        #expect(played.maximumDifference(from: 0, to: offline) < 1e-6)
    }

    @Test func thePlayerLoopsForEverWhenAsked() throws {
        let player = try MIDIPlayer(song: LoopSong.song(effects: false), soundBank: LoopSong.bank,
                                    configuration: LoopSong.options(effects: false, loop: nil).synthesizer)
        var passes = 0
        player.onLoop { _ in passes += 1 }
        player.numberOfLoops = -1
        let capped = try player.bounce(block: 1000, maximumDuration: 20)
        #expect(capped.count == 20 * 44_100)
        #expect(passes == (20 * 44_100 - LoopSong.start) / LoopSong.length)
        #expect(player.isPlaying)
    }
}

extension Capture {
    mutating func append(_ other: Capture) {
        left += other.left
        right += other.right
    }
}
