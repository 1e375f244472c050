// The code of PolyphonPlayback's article "Build and edit a song in code and play it", and the
// README's library example.
import Foundation
import Testing
import PolyphonAudio
import PolyphonTestSupport
// snippet: seed-song
import PolyphonMIDI

/// The seed's MusicSequence example: one track of String Ensemble 1 at 240 BPM.
func makeSeedSong() -> Song {
    var song = Song()                                    // 480 ticks per quarter note
    song.replaceTempo(240)                               // every tempo event replaced by one
    song.addTrack(program: 48) { track in               // String Ensemble 1, channel 0, velocity 64
        track.notes([64, 63, 64, 63, 64, 59, 62, 60], beats: 1)
        track.chord([57, 45], beats: 3)
    }
    return song
}
// end snippet

// snippet: edit-song
/// Edits a song by event ID: a note added, moved, made louder and removed again; a slower end.
func editSong(_ song: inout Song) {
    let id = song.addNote(72, duration: 1, at: 8, toTrack: 0)     // C5 on beat 8, velocity 64
    song.moveEvent(id, to: 7.5)                                   // half a beat earlier
    song.changeEvent(id) { kind in
        if case .note(var note) = kind { note.velocity = 100; kind = .note(note) }
    }
    let secondBar = song.events(in: 4..<8, track: 0, categories: [.note])
    print("beats 4–8 hold \(secondBar.count) notes")
    song.removeEvent(id)
    song.setTempo(120, at: 8)                                     // the last chord at half speed
}
// end snippet

// snippet: write-song
import Foundation

/// Writes a song as a Standard MIDI File (type 1, 480 ticks per quarter note) and reads it back.
func saveAndReload(_ song: Song, at url: URL) throws -> Song {
    try song.write(to: url)
    return try Song(contentsOf: url)
}
// end snippet

// snippet: play-song
import Foundation
import PolyphonPlayback
import PolyphonSoundFont

/// Plays a song through a SoundFont into a WAV file as fast as the CPU allows, printing each
/// note as it sounds.
func playSong(_ song: Song, soundFont bankURL: URL, to wavPath: String) throws {
    let bank = try SoundFont(contentsOf: bankURL)
    let player = try MIDIPlayer(song: song, soundBank: bank)
    player.prepareToPlay()
    player.onEvent(PlayerEventFilter(categories: [.note])) { callback in
        if case .event(let event, _) = callback.kind { print("note at beat \(event.beat), frame \(callback.frame)") }
    }
    try player.render(to: AudioFileTarget(path: wavPath, format: .wav, sampleFormat: .int16))
}
// end snippet

@Suite struct SongInCodeSnippets {
    @Test func theSeedSongHasItsTenNotesAtTwoHundredFortyBeatsPerMinute() {
        let song = makeSeedSong()
        let notes = song.events(categories: [.note])
        #expect(notes.count == 10)
        #expect(notes.map(\.beat) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 8])
        #expect(song.tempoChanges.map(\.beatsPerMinute) == [240])
        #expect(abs(song.duration - 2.75) < 1e-9)         // 11 beats at 240 BPM
        #expect(song.events(categories: [.programChange]).first?.kind
                == .programChange(channel: 0, program: 48, bankMSB: nil, bankLSB: nil))
    }

    @Test func editsLeaveTheNotesAsTheyWereAndSlowTheEnd() {
        var song = makeSeedSong()
        let before = song.events(categories: [.note])
        editSong(&song)
        #expect(song.events(categories: [.note]) == before)
        #expect(song.tempoChanges.map(\.beatsPerMinute) == [240, 120])
        #expect(abs(song.duration - (2 + 1.5)) < 1e-9)    // 8 beats at 240, 3 at 120
    }

    @Test func aWrittenSongReadsBackWithTheSameNotesAndTempo() throws {
        let directory = try TemporaryDirectory()
        let song = makeSeedSong()
        let reloaded = try saveAndReload(song, at: URL(fileURLWithPath: directory.file("seed.mid")))
        #expect(reloaded.events(categories: [.note]).map(\.kind) == song.events(categories: [.note]).map(\.kind))
        #expect(reloaded.tempoChanges == song.tempoChanges)
    }

    @Test func theSeedSongPlaysIntoAWAVFile() throws {
        let directory = try TemporaryDirectory()
        let bank = URL(fileURLWithPath: try SnippetFixtures.sineBankFile(in: directory))
        try playSong(makeSeedSong(), soundFont: bank, to: directory.file("seed.wav"))
        let audio = try AudioFile(contentsOf: directory.file("seed.wav"))
        #expect(audio.duration > 2.75 && audio.duration < 14)
        #expect((audio.channels[0].map(abs).max() ?? 0) > 0.01)
    }

    /// The README's example as a user runs it, with the bank Debian's fluid-soundfont-gm installs.
    @Test(.enabled(if: RealFiles.available(RealFiles.fluidR3)))
    func theSeedSongPlaysWithFluidR3sStrings() throws {
        try #require(FileManager.default.fileExists(atPath: RealFiles.fluidR3), "fluid-soundfont-gm is not installed")
        let directory = try TemporaryDirectory()
        try playSong(makeSeedSong(), soundFont: URL(fileURLWithPath: RealFiles.fluidR3), to: directory.file("seed.wav"))
        let player = try MIDIPlayer(song: makeSeedSong(), soundBank: SoundFont(contentsOf: RealFiles.fluidR3))
        _ = try player.renderToCompletion { _, _, _ in }
        #expect(player.synthesizer.presetName(onChannel: 0) == "Strings")
        let audio = try AudioFile(contentsOf: directory.file("seed.wav"))
        // 11 beats at 240 BPM = 2.75 s, then the strings' release and the reverb tail.
        #expect(audio.duration > 2.75 && audio.duration < 12)
        #expect((audio.channels.flatMap { $0 }.map(abs).max() ?? 0) > 0.01)
    }
}
