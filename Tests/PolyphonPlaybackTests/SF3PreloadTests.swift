import Testing
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth

/// SF3 samples are decoded before rendering starts, not when a voice first needs them on the
/// render thread.
@Suite struct SF3PreloadTests {
    /// A violin note (program 40) and a snare (channel 10, key 38) that begin only at 2 s.
    static let lateSong = Fixtures.song([(channel: 0, key: 64, start: 1_920, length: 480),
                                         (channel: 9, key: 38, start: 1_920, length: 100)],
                                        extra: [MIDIEvent(tick: 0, message: .programChange(channel: 0, program: 40))])

    @Test(.enabled(if: RealFiles.available(RealFiles.museScore)))
    func thePresetsASongPlaysAreFound() throws {
        let bank = try SoundFont(contentsOf: RealFiles.museScore)
        let played = Timeline(file: Self.lateSong, sampleRate: 44_100).presetsPlayed(in: bank)
        let names = played.map { Int(bank.presets[$0].bank) * 1000 + Int(bank.presets[$0].program) }
        #expect(Set(names) == [40, 128_000])
    }

    @Test(.enabled(if: RealFiles.available(RealFiles.museScore)))
    func theOfflineRendererDecodesBeforeTheFirstBlock() throws {
        let bank = try SoundFont(contentsOf: RealFiles.museScore)
        #expect(bank.decodedSampleStatistics.streams == 0)
        var atFirstBlock: Int?
        try OfflineRenderer(soundBank: bank).render(Self.lateSong, into: { _, _, _ in
            if atFirstBlock == nil { atFirstBlock = bank.decodedSampleStatistics.streams }
        })
        // Without preloading nothing would be decoded before 2 s into the song.
        #expect((atFirstBlock ?? 0) > 0)
    }

    @Test(.enabled(if: RealFiles.available(RealFiles.museScore)))
    func thePlayerDecodesWhenPreparing() throws {
        let bank = try SoundFont(contentsOf: RealFiles.museScore)
        let player = try MIDIPlayer(song: Song(midiFile: Self.lateSong), soundBank: bank)
        #expect(bank.decodedSampleStatistics.streams == 0)
        player.prepareToPlay()
        #expect(bank.decodedSampleStatistics.streams > 0)
    }
}
