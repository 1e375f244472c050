import Foundation
import Testing
import PolyphonMIDI
@testable import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth

/// Seek with chase, loops, mute and solo.
@Suite struct MIDIPlayerTransportTests {
    /// 120 BPM: a note, then at beat 1 controller, program-independent state (volume, pan,
    /// expression, pitch bend), then notes from beat 3 on that sound through that state.
    func chaseSong(withState: Bool = true) -> Song {
        var song = Song()
        song.replaceTempo(120)
        song.addTrack(program: 0) { track in
            track.note(60, beats: 0.5)
            track.cursor = 1
            if withState {
                track.controller(7, value: 70)
                track.controller(10, value: 20)
                track.controller(11, value: 90)
                track.pitchBend(12000)
            }
            track.cursor = 3
            track.notes([69, 72, 76], beats: 0.5)
        }
        return song
    }

    @Test func seekAndChaseSoundLikePlayingFromTheStart() throws {
        let song = chaseSong()
        let full = try MIDIPlayer(song: song, soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry).bounce()
        let seekFrame = 44100  // beat 2: the first note and its release are over

        let sought = try MIDIPlayer(song: song, soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry)
        sought.currentPosition = 1.0
        #expect(sought.currentPosition == 1.0)
        #expect(abs(sought.currentBeat - 2) < 1e-12)
        let fromSeek = try sought.bounce()
        #expect(fromSeek.count == full.count - seekFrame)
        let difference = full.maximumDifference(from: seekFrame, to: fromSeek)
        #expect(difference <= 1e-6)
        #expect(fromSeek.peak > 0.001)

        // Without the chased state the same notes sound different: the comparison can fail.
        let plain = try MIDIPlayer(song: chaseSong(withState: false), soundBank: PlayerTestBank.sine,
                                   configuration: PlayerTestBank.dry)
        plain.currentPosition = 1.0
        let unchased = try plain.bounce()
        #expect(full.maximumDifference(from: seekFrame, to: unchased) > 1e-3)
        print("seek + chase: max difference \(difference) over \(fromSeek.count) frames")
    }

    @Test func seekingWhilePlayingSilencesTheOldNotesAndChases() throws {
        let song = chaseSong()
        let full = try MIDIPlayer(song: song, soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry).bounce()
        let player = try MIDIPlayer(song: song, soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry)
        player.play()
        var before = Capture()
        player.capture(frames: 8000, block: 500, into: &before)  // the first note sounds
        #expect(before.peak > 0.001)
        player.currentPosition = 1.0
        var after = Capture()
        player.capture(frames: full.count - 44100, block: 500, into: &after)
        #expect(full.maximumDifference(from: 44100, to: after) <= 1e-6)
        player.deliverCallbacks()
        #expect(!player.isPlaying)
    }

    @Test func aLoopOfNBarsPlaysNTimes() throws {
        var song = Song()
        song.replaceTempo(120)
        let track = song.addTrack(program: 0) { track in
            track.note(69, beats: 1)
            track.rest(beats: 1)
            track.note(72, beats: 1)
        }
        song.setEnd(ofTrack: track, to: 4)
        let bar = 88200  // 4 beats at 120 BPM
        let player = try MIDIPlayer(song: song, soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry)
        var starts: [Int64] = []
        var bars: [Int64] = []
        player.onEvent(PlayerEventFilter(categories: [.note])) { starts.append($0.frame) }
        player.onBar { bars.append($0.frame) }
        player.loop = PlayerLoop(beats: 0..<4, count: .times(3))
        let audio = try player.bounce(block: 1000)
        #expect(starts == [0, 44100, 88200, 132300, 176400, 220500])
        #expect(bars == [0, 88200, 176400])
        // Three identical passes, and nothing after: the song ends with the third.
        #expect(audio.count == 3 * bar)
        let first = Capture(left: Array(audio.left[0..<bar]), right: Array(audio.right[0..<bar]))
        #expect(audio.maximumDifference(from: bar, to: first) <= 1e-6)
        #expect(audio.maximumDifference(from: 2 * bar, to: first) <= 1e-6)
        #expect(first.peak > 0.001)

        // Forever, capped by the caller.
        let forever = try MIDIPlayer(song: song, soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry)
        var count = 0
        forever.onEvent(PlayerEventFilter(categories: [.note])) { _ in count += 1 }
        forever.loop = PlayerLoop(beats: 0..<4, count: .forever)
        let capped = try forever.bounce(block: 1000, maximumDuration: 10)
        #expect(capped.count == 441_000)
        #expect(count == 10)  // 5 passes of 2 s, two notes each
        #expect(forever.isPlaying)
    }

    @Test func aLoopCutsNotesThatCrossItsEnd() throws {
        var song = Song()
        song.replaceTempo(120)
        song.addTrack(program: 0) { $0.note(69, beats: 6) }
        let player = try MIDIPlayer(song: song, soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry)
        player.loop = PlayerLoop(beats: 0..<2, count: .times(2))
        player.maximumTail = 3
        let audio = try player.bounce()
        // Two passes of 1 s, then the note plays on from its start until beat 6 of the song: if a
        // note-off had been lost at the loop, the looped sine would ring until the 3 s tail cap.
        let end = 2 * 44100 + Int(frame(atBeat: 6, of: song)) - 44100
        #expect(audio.count > end)
        #expect(audio.count < end + 44100)
    }

    @Test func muteAndSoloSilenceWholeTracks() throws {
        var both = Song()
        both.replaceTempo(120)
        both.addTrack(program: 0) { $0.notes([69, 71], beats: 1) }
        both.addTrack(program: 0, channel: 1) { $0.notes([76, 74], beats: 1) }
        var onlyFirst = both
        for event in onlyFirst.events(track: 1, categories: [.note]) { onlyFirst.removeEvent(event.id) }

        let reference = try MIDIPlayer(song: onlyFirst, soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry).bounce()
        let muted = try MIDIPlayer(song: both, soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry)
        muted.setMuted(true, track: 1)
        #expect(muted.isMuted(track: 1))
        let mutedAudio = try muted.bounce()
        let soloed = try MIDIPlayer(song: both, soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry)
        soloed.setSoloed(true, track: 0)
        let soloedAudio = try soloed.bounce()
        let full = try MIDIPlayer(song: both, soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry).bounce()
        #expect(mutedAudio.count == reference.count && soloedAudio.count == reference.count)
        #expect(reference.maximumDifference(from: 0, to: mutedAudio) <= 1e-6)
        #expect(reference.maximumDifference(from: 0, to: soloedAudio) <= 1e-6)
        #expect(full.maximumDifference(from: 0, to: mutedAudio) > 1e-3)
    }

    @Test func muteWhilePlayingEndsTheTracksSoundingNotes() throws {
        var song = Song()
        song.replaceTempo(120)
        song.addTrack(program: 0) { $0.note(69, beats: 8) }
        let player = try MIDIPlayer(song: song, soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry)
        player.play()
        var audio = Capture()
        player.capture(frames: 22050, into: &audio)
        #expect(player.synthesizer.activeVoiceCount > 0)
        player.setMuted(true, track: 0)
        player.capture(frames: 22050, into: &audio)
        #expect(player.synthesizer.activeVoiceCount == 0)
        let lastQuarter = Capture(left: Array(audio.left[33075...]), right: Array(audio.right[33075...]))
        #expect(lastQuarter.peak == 0)
    }

    @Test func pauseStopAndResume() throws {
        let song = seedSong()
        let player = try MIDIPlayer(song: song, soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry)
        var starts: [Int64] = []
        player.onEvent(PlayerEventFilter(categories: [.note])) { starts.append($0.frame) }
        player.play()
        var audio = Capture()
        player.capture(frames: 20000, into: &audio)
        player.pause()
        #expect(!player.isPlaying)
        player.capture(frames: 30000, into: &audio)
        let position = player.currentPosition
        #expect(abs(position - 20000.0 / 44100) < 1e-9)
        player.play()
        #expect(player.isPlaying)
        player.capture(frames: 5000, into: &audio)
        // Resumed where it paused: the note at beat 2 (22050) comes 2050 frames after resuming.
        #expect(starts == [0, 11025, 50000 + 2050])
        player.stop()
        player.capture(frames: 1000, into: &audio)
        #expect(abs(player.currentPosition - 25000.0 / 44100) < 1e-9)
        #expect(!player.isPlaying)
    }

    @Test func commandsKeepTheirOrderWhenTheQueueOverflows() throws {
        let player = try MIDIPlayer(song: seedSong(), soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry)
        var starts: [Int64] = []
        player.onEvent(PlayerEventFilter(categories: [.note])) { starts.append($0.frame) }
        // Far more commands than the queue holds, with nothing rendering meanwhile.
        for index in 0..<1000 { player.rate = index % 2 == 0 ? 0.5 : 3 }
        player.rate = 2
        player.currentPosition = 0.5  // beat 2
        var audio = Capture()
        player.play()
        // Each delivery moves up to a queue's worth of the backlog; the render thread applies it
        // at its next block, so playback starts once the whole backlog has gone through.
        player.capture(frames: 20_000, block: 512, into: &audio)
        let first = try #require(starts.first)
        #expect(first > 0 && first % 512 == 0)
        // Beat 2 at once, then a beat every 11025 / 2 frames: the last rate and seek won.
        #expect(Array(starts.prefix(3)) == [first, first + 5513, first + 11025])
    }

    @Test func seekChasesProgramsOnEveryChannelAndIgnoresLaterOnes() throws {
        var song = Song()
        let track = song.addTrack()
        song.add(.programChange(channel: 0, program: 5, bankMSB: nil, bankLSB: nil), at: 0, toTrack: track)
        song.add(.programChange(channel: 0, program: 7, bankMSB: nil, bankLSB: nil), at: 1, toTrack: track)
        song.add(.programChange(channel: 3, program: 11, bankMSB: nil, bankLSB: nil), at: 1.5, toTrack: track)
        song.add(.programChange(channel: 0, program: 9, bankMSB: nil, bankLSB: nil), at: 3, toTrack: track)
        song.addNote(60, duration: 1, at: 3, toTrack: track)
        let player = try MIDIPlayer(song: song, soundBank: PlayerTestBank.sine, configuration: PlayerTestBank.dry)
        player.currentBeat = 2
        var audio = Capture()
        player.capture(frames: 64, into: &audio)  // the seek is applied at the next render
        #expect(player.synthesizer.program(onChannel: 0) == 7)
        #expect(player.synthesizer.program(onChannel: 3) == 11)
        player.currentBeat = 0.5
        player.capture(frames: 64, into: &audio)
        #expect(player.synthesizer.program(onChannel: 0) == 5)
        #expect(player.synthesizer.program(onChannel: 3) == 0)  // reset: not set before beat 0.5
    }
}
