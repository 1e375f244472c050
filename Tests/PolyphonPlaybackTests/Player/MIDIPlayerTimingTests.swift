import Foundation
import Testing
import PolyphonAudio
import PolyphonMIDI
@testable import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth

/// The player against the offline renderer, and callbacks on their exact frames.
@Suite struct MIDIPlayerTimingTests {
    @Test(arguments: [false, true])
    func completionComesExactlyAtTheTailsEnd(effects: Bool) throws {
        var configuration = PlayerTestBank.dry
        configuration.reverbEnabled = effects
        configuration.chorusEnabled = effects
        var song = seedSong()
        // Full reverb and chorus sends, so with effects on the tail is theirs.
        if effects {
            song.add(.controlChange(channel: 0, controller: 91, value: 127), at: 0, toTrack: 0)
            song.add(.controlChange(channel: 0, controller: 93, value: 127), at: 0, toTrack: 0)
        }
        let player = try MIDIPlayer(song: song, soundBank: PlayerTestBank.sine, configuration: configuration)
        var completionFrames: [Int64] = []
        player.onEvent(PlayerEventFilter(categories: []), nil)
        player.prepareToPlay()
        var completed = false
        player.play { completed = true }
        var collected: [PlayerCallback] = []
        player.onEvent(PlayerEventFilter(categories: [.note])) { collected.append($0) }
        // Dry, the block size does not matter (777 against the offline renderer's 1024); with
        // effects the engine's tail detection runs per render call, so the blocks must match.
        let played = try player.bounce(block: effects ? 1024 : 777)
        #expect(completed)
        #expect(!player.isPlaying)
        completionFrames.append(player.lastCompletionFrame.load(ordering: .relaxed))

        var options = RenderOptions()
        options.synthesizer = configuration
        var offline = Capture()
        let summary = try OfflineRenderer(soundBank: PlayerTestBank.sine, options: options)
            .render(song, into: { l, r, n in offline.append(l, r, n) })
        #expect(Int64(played.count) == summary.frames)
        #expect(completionFrames == [summary.frames])
        #expect(played.count == offline.count)
        #expect(played.maximumDifference(from: 0, to: offline) < 1e-6)
        // The song ends at beat 11 (frame 121275 + 1); the tail lasts until the release died.
        let songEnd = Int(frame(atBeat: 11, of: song)) + 1
        #expect(played.count > songEnd)
        #expect(played.count < songEnd + 44100 * (effects ? 10 : 1))
        print("completion (effects \(effects)): frame \(played.count), song end \(songEnd), tail \(played.count - songEnd) frames")
    }

    @Test func callbacksCarryTheirExactFrames() throws {
        var song = seedSong()
        song.add(.meta(.text(.marker, MIDIText("Chorus"))), at: 2, toTrack: 0)
        song.add(.meta(.text(.lyric, MIDIText("la"))), at: 3, toTrack: 0)
        let other = song.addTrack()
        song.addNote(80, duration: 1, channel: 1, at: 0.5, toTrack: other)
        let player = try MIDIPlayer(song: song, soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry)
        var notes: [(Int64, UInt8, Int)] = [], beats: [(Int64, PlayerBeat)] = [], bars: [(Int64, Int)] = []
        var markers: [(Int64, String)] = [], lyrics: [(Int64, String)] = []
        player.onEvent(PlayerEventFilter(categories: [.note], tracks: [0])) { callback in
            if case .event(let event, let track) = callback.kind, case .note(let note) = event.kind {
                notes.append((callback.frame, note.key, track))
                #expect(abs(callback.time - song.seconds(atBeat: event.beat)) < 1e-12)
            }
        }
        player.onBeat { if case .beat(let beat) = $0.kind { beats.append(($0.frame, beat)) } }
        player.onBar { if case .bar(let beat) = $0.kind { bars.append(($0.frame, beat.bar)) } }
        player.onMarker { if case .marker(let text, _) = $0.kind { markers.append(($0.frame, text.string)) } }
        player.onLyric { if case .lyric(let text, _) = $0.kind { lyrics.append(($0.frame, text.string)) } }
        player.play()
        var capture = Capture()
        player.capture(frames: 44100 * 4, block: 333, into: &capture)

        let beat = 11025  // 240 BPM at 44.1 kHz
        #expect(notes.map(\.0) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 8].map { Int64($0 * beat) })
        #expect(notes.map(\.1) == [64, 63, 64, 63, 64, 59, 62, 60, 57, 45])
        #expect(notes.allSatisfy { $0.2 == 0 })  // the filter kept track 1 out
        #expect(beats.map(\.0) == (0..<11).map { Int64($0 * beat) })
        #expect(beats.map(\.1.beatInBar) == [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2])
        #expect(bars.map(\.0) == [0, 4, 8].map { Int64($0 * beat) })
        #expect(bars.map(\.1) == [0, 1, 2])
        #expect(markers.map(\.0) == [Int64(2 * beat)] && markers.map(\.1) == ["Chorus"])
        #expect(lyrics.map(\.0) == [Int64(3 * beat)] && lyrics.map(\.1) == ["la"])
        #expect(player.droppedCallbacks == 0)
        // The sound starts on the first note's frame: silence before would mean a late note.
        #expect(capture.left[0..<64].contains { $0 != 0 } || capture.left[64..<128].contains { $0 != 0 })
    }

    @Test func rateTwoHalvesTheDuration() throws {
        let song = seedSong()
        func noteFrames(rate: Double) throws -> (frames: [Int64], length: Int) {
            let player = try MIDIPlayer(song: song, soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry)
            var frames: [Int64] = []
            player.onEvent(PlayerEventFilter(categories: [.note])) { frames.append($0.frame) }
            player.rate = rate
            let audio = try player.bounce(block: 512)
            return (frames, audio.count)
        }
        let normal = try noteFrames(rate: 1)
        let double = try noteFrames(rate: 2)
        #expect(double.frames == normal.frames.map { Int64((Double($0) / 2).rounded(.up)) })
        // The song (beat 11 at 240 BPM) takes half as long; the release tail is the same length.
        let songEnd = Double(frame(atBeat: 11, of: song))
        let normalTail = Double(normal.length) - songEnd
        let doubleTail = Double(double.length) - songEnd / 2
        #expect(abs(normalTail - doubleTail) <= 128)
        print("rate 1: \(normal.length) frames, rate 2: \(double.length) frames")
    }

    @Test func aSongRendersToAFileThroughThePlayerAndTheOfflineRenderer() throws {
        let song = seedSong()
        let directory = FileManager.default.temporaryDirectory
        let viaPlayer = directory.appendingPathComponent("polyphon-player-\(UUID().uuidString).wav").path
        let viaOffline = directory.appendingPathComponent("polyphon-offline-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: viaPlayer); try? FileManager.default.removeItem(atPath: viaOffline) }
        let player = try MIDIPlayer(song: song, soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry)
        let frames = try player.render(to: AudioFileTarget(path: viaPlayer, format: .wav, sampleFormat: .float32))
        var options = RenderOptions()
        options.synthesizer = PlayerTestBank.dry
        _ = try OfflineRenderer(soundBank: PlayerTestBank.sine, options: options)
            .render(song, to: AudioFileTarget(path: viaOffline, format: .wav, sampleFormat: .float32))
        let a = try AudioFile(contentsOf: viaPlayer)
        let b = try AudioFile(contentsOf: viaOffline)
        #expect(a.frameCount == Int(frames))
        #expect(a.frameCount == b.frameCount)
        #expect(a.channels == b.channels)
        #expect(a.channels[0].contains { $0 != 0 })
    }
}
