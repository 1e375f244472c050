import Testing
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth

/// When a song ends with the sustain pedal still down, its held notes release and ring out, as
/// FluidSynth's player does — unless asked to keep the pedals down.
@Suite struct PedalsAtEndTests {
    /// Pedal down at 0, a note from 0 to 0.5 s, the song ends at 1 s with the pedal still down.
    static let song = Fixtures.song([(channel: 0, key: 69, start: 0, length: 480)],
                                    extra: [MIDIEvent(tick: 0, message: .controlChange(channel: 0, controller: 64, value: 127)),
                                            MIDIEvent(tick: 960, message: .meta(.text(.text, MIDIText("end"))))])
    /// A looped sine that sounds as long as it is held, with a 0.5 s release.
    static let bank = Fixtures.sineBank(generators: [Generator(.releaseVolEnv, -1200)])

    static func options(lift: Bool) -> RenderOptions {
        var options = RenderOptions()
        options.liftPedalsAtEnd = lift
        options.maxTail = 10
        options.synthesizer.reverbEnabled = false
        options.synthesizer.chorusEnabled = false
        return options
    }

    @Test func heldNotesReleaseAtTheSongsEnd() throws {
        let lifted = try OfflineRenderer(soundBank: Self.bank, options: Self.options(lift: true)).render(Self.song, into: { _, _, _ in })
        let kept = try OfflineRenderer(soundBank: Self.bank, options: Self.options(lift: false)).render(Self.song, into: { _, _, _ in })
        // Lifted at 1 s: the release (0.5 s for 96 dB) reaches the noise floor about 0.33 s later.
        #expect(lifted.duration > 1.2 && lifted.duration < 2.0, "\(lifted.duration) s, kept \(kept.duration) s")
        // Kept down: the note rings to the 10 s limit after the song's end.
        #expect(abs(kept.duration - 11) < 0.01, "\(kept.duration) s")
    }

    @Test func notesWithoutANoteOffReleaseToo() throws {
        // A note-on that never gets its note-off (the end of track comes first).
        let unended = MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480), tracks: [MIDITrack(events: [
            MIDIEvent(tick: 0, message: .noteOn(channel: 0, note: 69, velocity: 100)),
            MIDIEvent(tick: 960, message: .meta(.endOfTrack)),
        ])])
        let released = try OfflineRenderer(soundBank: Self.bank, options: Self.options(lift: true)).render(unended, into: { _, _, _ in })
        let ringing = try OfflineRenderer(soundBank: Self.bank, options: Self.options(lift: false)).render(unended, into: { _, _, _ in })
        #expect(released.duration > 1.2 && released.duration < 2.0, "\(released.duration) s")
        #expect(abs(ringing.duration - 11) < 0.01)
    }

    @Test func songsWithoutPedalsDownAreUnchanged() throws {
        let plain = Fixtures.song([(channel: 0, key: 69, start: 0, length: 480)])
        var a: [Float] = [], b: [Float] = []
        try OfflineRenderer(soundBank: Self.bank, options: Self.options(lift: true))
            .render(plain, into: { l, _, n in a += UnsafeBufferPointer(start: l, count: n) })
        try OfflineRenderer(soundBank: Self.bank, options: Self.options(lift: false))
            .render(plain, into: { l, _, n in b += UnsafeBufferPointer(start: l, count: n) })
        #expect(a == b)
        #expect(!a.isEmpty)
    }

    @Test func thePlayerLiftsThemToo() throws {
        var configuration = SynthesizerConfiguration()
        configuration.reverbEnabled = false
        configuration.chorusEnabled = false
        var frames: [Int64] = []
        for lift in [true, false] {
            let player = try MIDIPlayer(song: Song(midiFile: Self.song), soundBank: Self.bank, sampleRate: 44_100,
                                        configuration: configuration)
            player.liftsPedalsAtEnd = lift
            frames.append(try player.renderToCompletion(into: { _, _, _ in }))
        }
        #expect(Double(frames[0]) / 44_100 > 1.2 && Double(frames[0]) / 44_100 < 2.0, "\(frames[0])")
        #expect(abs(Double(frames[1]) / 44_100 - 11) < 0.01, "\(frames[1])")
    }
}
