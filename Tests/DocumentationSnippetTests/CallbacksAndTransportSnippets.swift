// The code of PolyphonPlayback's article "Callbacks and the transport" and PolyphonLive's
// overview.
import Foundation
import Testing
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
// snippet: transport
/// The transport: prepare, start, pause, seek, speed, loop, mute, stop.
func driveTheTransport(_ player: MIDIPlayer) {
    player.prepareToPlay()               // timeline built, SF3 samples decoded: play starts at once
    player.play { print("the song and its tail have ended") }
    player.pause()                       // sounding notes released; play() resumes here
    player.currentPosition = 1.5         // seek to 1.5 s: controllers, programs and bends are chased
    player.rate = 2                      // twice as fast, same pitch
    player.loop = PlayerLoop(beats: 0..<4, count: .times(2))
    player.setMuted(true, track: 1)      // the track's other events still play
    player.play()
    print("beat \(player.currentBeat): \(player.currentPosition) s of \(player.duration) s")
    player.stop()
}
// end snippet

// snippet: callbacks
/// Beat, note and lyric callbacks, each with the exact output frame it happened on, run on
/// the main queue.
func followTheSong(_ player: MIDIPlayer) {
    player.onBeat { callback in
        if case .beat(let beat) = callback.kind { print("bar \(beat.bar + 1), beat \(beat.beatInBar + 1)") }
    }
    player.onEvent(PlayerEventFilter(categories: [.note], tracks: [0])) { callback in
        if case .event(let event, _) = callback.kind { print("\(event.kind) at \(callback.time) s") }
    }
    player.onLyric { callback in
        if case .lyric(let text, _) = callback.kind { print(text.string) }
    }
    player.startDeliveringCallbacks(on: .main)
}
// end snippet

// snippet: edit-while-playing
/// Changes the song while it plays: the render thread switches at its next block, sounding notes
/// keep their note-offs and a tempo change keeps the musical position.
func slowDown(_ player: MIDIPlayer) {
    player.edit { song in
        song.setTempo(120, at: player.currentBeat.rounded(.up))
    }
}
// end snippet

// snippet: play-live
import PolyphonLive

/// Plays a song through the sound card (PulseAudio, ALSA or Core Audio) and returns when it
/// and its tail have ended.
func playLive(_ song: Song, bank: SoundFont) async throws {
    let output = try LiveOutput()                         // the first backend that works
    let player = try MIDIPlayer(song: song, soundBank: bank, sampleRate: output.sampleRate)
    player.prepareToPlay()
    try output.start { left, right, frameCount in         // the render thread
        player.render(left: left, right: right, frameCount: frameCount)
    }
    player.startDeliveringCallbacks(on: .main)
    await player.play()
    output.stop()                                         // drains what the device still holds
}
// end snippet

@Suite struct CallbacksAndTransportSnippets {
    /// Renders a player in blocks, delivering callbacks after each, until `frames` are done.
    static func pull(_ player: MIDIPlayer, frames: Int) {
        let left = UnsafeMutablePointer<Float>.allocate(capacity: 512)
        let right = UnsafeMutablePointer<Float>.allocate(capacity: 512)
        defer { left.deallocate(); right.deallocate() }
        for _ in 0..<(frames / 512) {
            player.render(left: left, right: right, frameCount: 512)
            _ = player.deliverCallbacks()
        }
    }

    @Test func theTransportEndsStoppedAtTheSeekPositionWithTheLoopAndRateSet() throws {
        let player = try MIDIPlayer(song: makeSeedSong(), soundBank: SnippetFixtures.sineBank())
        driveTheTransport(player)
        Self.pull(player, frames: 4096)
        #expect(!player.isPlaying)
        #expect(player.rate == 2)
        #expect(player.loop == PlayerLoop(beats: 0..<4, count: .times(2)))
        #expect(player.isMuted(track: 1))
    }

    @Test func beatAndNoteCallbacksArriveWithTheirFrames() throws {
        let player = try MIDIPlayer(song: makeSeedSong(), soundBank: SnippetFixtures.sineBank())
        followTheSong(player)
        player.stopDeliveringCallbacks()               // delivered here instead, after each block
        var notes: [Int64] = []
        player.onEvent(PlayerEventFilter(categories: [.note])) { notes.append($0.frame) }
        player.prepareToPlay()
        player.play()
        Self.pull(player, frames: 44_100 * 3)
        // One note per beat at 240 BPM: 11,025 frames apart; the chord's two notes together.
        #expect(notes == [0, 1, 2, 3, 4, 5, 6, 7, 8, 8].map { Int64($0 * 11_025) })
    }

    @Test func aTempoChangeWhilePlayingLengthensTheSong() throws {
        let player = try MIDIPlayer(song: makeSeedSong(), soundBank: SnippetFixtures.sineBank())
        player.prepareToPlay()
        player.play()
        Self.pull(player, frames: 11_025 * 2)
        slowDown(player)
        #expect(player.song.tempoChanges.last?.beatsPerMinute == 120)
        #expect(player.duration > 2.75)
    }
}
