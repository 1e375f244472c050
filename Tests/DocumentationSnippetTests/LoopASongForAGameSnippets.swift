// The code of PolyphonPlayback's article "Loop a song for a game", run on a bank and a song
// built in code.
import Foundation
import Testing
import PolyphonAudio
import PolyphonTestSupport
// snippet: loop-find
import PolyphonMIDI

/// Prints where a file's loop lies and which convention marked it.
func describeLoop(ofFileAt path: String) throws {
    let file = try MIDIFile(contentsOfFile: path)
    let search = file.findLoop()
    for warning in search.warnings { print("warning: \(warning)") }
    guard let loop = search.loop else { return print("no loop") }
    let map = file.tempoMap()
    print("loop \(map.seconds(atTick: loop.startTick)) s – \(map.seconds(atTick: loop.endTick)) s, from \(loop.source.name)")
}
// end snippet

// snippet: loop-ready-file
import PolyphonPlayback
import PolyphonSoundFont

/// Writes an Ogg Vorbis file a game engine loops for ever, its loop points in the file
/// (LOOPSTART, LOOPLENGTH) and in song.loop.json beside it.
func writeLoopReadyOgg(midiFile midiPath: String, bank: SoundFont, to oggPath: String) throws -> RenderedLoop? {
    var options = RenderOptions()
    options.loop = .loopReady
    let renderer = OfflineRenderer(soundBank: bank, options: options)
    let summary = try renderer.render(try MIDIFile(contentsOfFile: midiPath),
                                      to: AudioFileTarget(path: oggPath, format: .ogg, sampleFormat: .int16))
    return summary.render.loop                            // where the loop lies, in frames
}
// end snippet

// snippet: loop-soundtrack
/// Renders the song with its loop played three times and faded out over 8 seconds: a preview
/// or a soundtrack album's track.
func renderSoundtrack(_ song: MIDIFile, bank: SoundFont, to wavPath: String) throws {
    var options = RenderOptions()
    options.loop = .fadeOut(passes: 3, seconds: 8)
    _ = try OfflineRenderer(soundBank: bank, options: options)
        .render(song, to: AudioFileTarget(path: wavPath, format: .wav, sampleFormat: .int16))
}
// end snippet

// snippet: loop-player
/// Plays a song's marked loop for ever, counting the passes as they begin.
func playLooping(_ song: Song, bank: SoundFont) throws -> MIDIPlayer {
    let player = try MIDIPlayer(song: song, soundBank: bank)
    player.numberOfLoops = -1                             // as AVAudioPlayer: −1 repeats until stopped
    player.onLoop { callback in
        if case .loop(let pass) = callback.kind { print("pass \(pass) begins at frame \(callback.frame)") }
    }
    player.play(completion: nil)
    return player                                         // pull audio with player.render(left:right:frameCount:)
}
// end snippet

@Suite struct LoopASongForAGameSnippets {
    /// Two beats of intro, a four-beat loop between markers, two beats of outro, at 120 BPM.
    static func loopedSong() -> Song {
        var song = Song()
        song.replaceTempo(120)
        song.addTrack(program: 0) { track in
            track.note(57, beats: 2)
            track.marker("loopStart")
            track.notes([60, 64, 67, 72], beats: 1)
            track.marker("loopEnd")
            track.note(48, beats: 2)
        }
        return song
    }

    static func loopedFile(in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("looped.mid")
        try loopedSong().midiFile(ticksPerQuarterNote: 480).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theLoopIsFoundAndDescribed() throws {
        let directory = try TemporaryDirectory()
        try describeLoop(ofFileAt: try Self.loopedFile(in: directory))
        #expect(try MIDIFile(contentsOfFile: Self.loopedFile(in: directory)).loop?.startTick == 960)
    }

    @Test func aLoopReadyOggCarriesItsLoopPoints() throws {
        let libsndfile = try? Libsndfile.load()
        try #require(libsndfile != nil || !RealFiles.isCI, "libsndfile1 is not installed")
        guard libsndfile != nil else { return }
        let directory = try TemporaryDirectory()
        let loop = try #require(try writeLoopReadyOgg(midiFile: Self.loopedFile(in: directory), bank: SnippetFixtures.sineBank(),
                                                      to: directory.file("song.ogg")))
        #expect(loop.start == 44_100 + 88_200)
        #expect(loop.length == 88_200)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory.file("song.loop.json"))))
        #expect((json as? [String: Any])?["loopStart"] as? Int == 132_300)
    }

    @Test func aSoundtrackEndsWithItsFade() throws {
        let directory = try TemporaryDirectory()
        let song = try MIDIFile(contentsOfFile: Self.loopedFile(in: directory))
        try renderSoundtrack(song, bank: SnippetFixtures.sineBank(), to: directory.file("track.wav"))
        #expect(try AudioFile(contentsOf: directory.file("track.wav")).frameCount == 44_100 + 3 * 88_200 + 8 * 44_100)
    }

    @Test func thePlayerRepeatsTheLoop() throws {
        let player = try playLooping(Self.loopedSong(), bank: SnippetFixtures.sineBank())
        let l = UnsafeMutablePointer<Float>.allocate(capacity: 44_100), r = UnsafeMutablePointer<Float>.allocate(capacity: 44_100)
        defer { l.deallocate(); r.deallocate() }
        for _ in 0..<10 { player.render(left: l, right: r, frameCount: 44_100) }
        #expect(player.isPlaying)
        #expect(player.deliverCallbacks() == 4)               // passes 2…5 began within 10 s
    }
}
