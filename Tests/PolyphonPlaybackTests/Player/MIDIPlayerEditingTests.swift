import Foundation
import Testing
import PolyphonMIDI
@testable import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth

/// Editing the song while it plays.
@Suite struct MIDIPlayerEditingTests {
    @Test func editsTakeEffectAtTheNextBlockWithoutLosingNotes() throws {
        let song = seedSong()
        let player = try MIDIPlayer(song: song, soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry)
        var started: [(frame: Int64, key: UInt8)] = []
        player.onEvent(PlayerEventFilter(categories: [.note])) { callback in
            if case .event(let event, _) = callback.kind, case .note(let note) = event.kind {
                started.append((callback.frame, note.key))
            }
        }
        player.play()
        var audio = Capture()
        player.capture(frames: 12_000, block: 480, into: &audio)  // the note at beat 1 (key 63) sounds
        #expect(player.synthesizer.activeVoiceCount > 0)

        let notes = song.events(categories: [.note])
        player.edit { song in
            song.removeEvent(notes[1].id)  // sounding now: must still get its note-off
            song.removeEvent(notes[5].id)  // beat 5, key 59: never plays
            song.changeEvent(notes[7].id) { kind in
                if case .note(var note) = kind { note.key = 48; kind = .note(note) }
            }
            song.addNote(72, duration: 0.5, at: 6.5, toTrack: 0)
        }
        let rest = try player.bounce(block: 480)
        let beat = 11025
        #expect(started.map(\.key) == [64, 63, 64, 63, 64, 62, 72, 48, 57, 45])
        #expect(started.map(\.frame) == [0, 1, 2, 3, 4, 6].map { Int64($0 * beat) } + [frame(atBeat: 6.5, of: song)]
                + [7, 8, 8].map { Int64($0 * beat) })
        // Had the removed note lost its note-off, its looped sample would ring to the 10 s cap.
        let total = 12_000 + rest.count
        let songEnd = Int(frame(atBeat: 11, of: song)) + 1
        #expect(total > songEnd && total < songEnd + 44100)
        #expect(!player.isPlaying)
    }

    @Test func aTempoChangeWhilePlayingKeepsTheBeat() throws {
        let song = seedSong()  // 240 BPM: a beat every 11025 frames
        let player = try MIDIPlayer(song: song, soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry)
        var starts: [Int64] = []
        player.onEvent(PlayerEventFilter(categories: [.note])) { starts.append($0.frame) }
        player.play()
        var audio = Capture()
        player.capture(frames: 11_025, block: 1_000, into: &audio)  // up to beat 1
        player.edit { $0.replaceTempo(120) }
        player.capture(frames: 3 * 22050 + 1000, block: 1000, into: &audio)
        // From beat 1 on, a beat lasts 22050 frames.
        let expected: [Int64] = [0, 11025, 33075, 55125, 77175]
        #expect(starts == expected)
        #expect(abs(player.currentBeat - (4 + 1000.0 / 22050)) < 1e-9)
    }

    @Test func addingTracksAndChangingTheSongWhileStoppedIsDeferred() throws {
        let player = try MIDIPlayer(song: Song(), soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry)
        #expect(player.duration == 0)
        player.edit { song in
            song.replaceTempo(60)
            song.addTrack(program: 0) { $0.notes([60, 62], beats: 1) }
        }
        #expect(player.duration == 2)
        var keys: [UInt8] = []
        player.onEvent(PlayerEventFilter(categories: [.note])) { callback in
            if case .event(let event, _) = callback.kind, case .note(let note) = event.kind { keys.append(note.key) }
        }
        try player.bounce()
        #expect(keys == [60, 62])
        // Played again from the end: starts over.
        keys = []
        player.song.addNote(64, duration: 1, at: 2, toTrack: 0)
        try player.bounce()
        #expect(keys == [60, 62, 64])
    }

    @Test func thePlayerReadsAMIDIFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("polyphon-player-\(UUID().uuidString).mid")
        defer { try? FileManager.default.removeItem(at: url) }
        try seedSong().write(to: url)
        let player = try MIDIPlayer(contentsOf: url, soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry)
        #expect(abs(player.duration - 2.75) < 1e-12)
        let fromFile = try player.bounce()
        let fromSong = try MIDIPlayer(song: seedSong(), soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry).bounce()
        #expect(fromFile.count == fromSong.count)
        #expect(fromFile.maximumDifference(from: 0, to: fromSong) == 0)
    }

    @Test func asyncPlayReturnsAtCompletion() async throws {
        let player = try MIDIPlayer(song: seedSong(), soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry)
        player.startDeliveringCallbacks(on: DispatchQueue(label: "callbacks"), interval: 0.001)
        defer { player.stopDeliveringCallbacks() }
        // Something must pull audio: here a thread standing in for an audio device.
        let renderer = Thread {
            let l = UnsafeMutablePointer<Float>.allocate(capacity: 512)
            let r = UnsafeMutablePointer<Float>.allocate(capacity: 512)
            defer { l.deallocate(); r.deallocate() }
            // The thread may start long before the test's task calls play() on a busy machine:
            // it waits for play (up to minutes, against a hang), then renders at most ~23 s of
            // audio, far more than the song.
            var blocks = 0, idle = 0
            while blocks < 2000 && idle < 300_000 {
                if !player.isPlaying && player.lastCompletionFrame.load(ordering: .acquiring) < 0 {
                    idle += 1
                    usleep(1000)
                    continue
                }
                player.render(left: l, right: r, frameCount: 512)
                blocks += 1
                if player.lastCompletionFrame.load(ordering: .acquiring) >= 0 { break }
            }
        }
        renderer.start()
        await player.play()
        #expect(!player.isPlaying)
        #expect(player.lastCompletionFrame.load(ordering: .acquiring) > 0)
    }
}
