import Testing
@testable import PolyphonMIDI
@testable import PolyphonMIDICore

/// The seed's song (SEEDS.md §4) written with the fluent builder.
func seedSong() -> Song {
    var song = Song()
    song.replaceTempo(240)
    song.addTrack(program: 48) { track in
        track.notes([64, 63, 64, 63, 64, 59, 62, 60], beats: 1)
        track.chord([57, 45], beats: 3)
    }
    return song
}

@Suite struct SongEditingTests {
    @Test func builderWritesTheSeedSong() throws {
        let song = seedSong()
        #expect(song.tracks.count == 1)
        #expect(song.tempoChanges == [Song.TempoChange(beat: 0, microsecondsPerQuarterNote: 250_000)])
        let events = song.tracks[0].events
        #expect(events.first?.kind == .programChange(channel: 0, program: 48, bankMSB: nil, bankLSB: nil))
        let notes = events.compactMap { event -> (Double, UInt8, Double, UInt8, UInt8)? in
            guard case .note(let note) = event.kind else { return nil }
            return (event.beat, note.key, note.duration, note.velocity, note.channel)
        }
        let keys: [UInt8] = [64, 63, 64, 63, 64, 59, 62, 60, 57, 45]
        #expect(notes.map(\.1) == keys)
        #expect(notes.map(\.0) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 8])
        #expect(notes.map(\.2) == [1, 1, 1, 1, 1, 1, 1, 1, 3, 3])
        #expect(notes.allSatisfy { $0.3 == 64 && $0.4 == 0 })
        #expect(song.lengthInBeats == 11)
        #expect(abs(song.duration - 11 * 0.25) < 1e-12)
    }

    @Test func idsStayStableAcrossEdits() throws {
        var song = Song()
        let track = song.addTrack()
        let other = song.addTrack()
        let a = song.addNote(60, duration: 1, at: 0, toTrack: track)
        let b = song.addNote(62, duration: 1, at: 1, toTrack: track)
        let c = song.add(.controlChange(channel: 0, controller: 7, value: 100), at: 0.5, toTrack: track)
        #expect(Set([a, b, c]).count == 3)

        let moved = song.moveEvent(a, to: 3)
        #expect(moved)
        #expect(song.event(a)?.beat == 3)
        #expect(song.tracks[track].events.map(\.id) == [c, b, a])
        let changed = song.changeEvent(b) { kind in
            if case .note(var note) = kind { note.key = 65; kind = .note(note) }
        }
        #expect(changed)
        #expect(song.event(b)?.kind == .note(SongNote(key: 65, duration: 1)))
        let movedTrack = song.moveEvent(c, toTrack: other)
        #expect(movedTrack)
        #expect(song.trackIndex(of: c) == other)
        #expect(song.event(c)?.beat == 0.5)

        let removed = song.removeEvent(b)
        #expect(removed?.id == b)
        #expect(song.event(b) == nil)
        let removedAgain = song.removeEvent(b)
        #expect(removedAgain == nil)
        let movedMissing = song.moveEvent(b, to: 0)
        #expect(!movedMissing)
        // A new event never reuses an ID, and the others still name the same events.
        let d = song.addNote(67, duration: 0.5, at: 2, toTrack: track)
        #expect(![a, b, c].contains(d))
        #expect(song.event(a)?.kind == .note(SongNote(key: 60, duration: 1)))
        #expect(song.event(c)?.kind == .controlChange(channel: 0, controller: 7, value: 100))

        // Removing a track keeps the IDs of the events that remain.
        song.removeTrack(at: track)
        #expect(song.event(a) == nil)
        #expect(song.trackIndex(of: c) == 0)
        #expect(song.event(c)?.beat == 0.5)
    }

    @Test func positionsAreOnTheTickGrid() {
        var song = Song(ticksPerQuarterNote: 96)
        let track = song.addTrack()
        let id = song.addNote(60, duration: 0.3333, at: 1.0001, toTrack: track)
        let event = song.event(id)
        #expect(event?.beat == 1)
        if case .note(let note) = event?.kind { #expect(note.duration == 32.0 / 96) } else { Issue.record("not a note") }
        song.moveEvent(id, to: -4)
        #expect(song.event(id)?.beat == 0)
    }

    @Test func queriesByRangeChannelAndCategory() {
        var song = Song()
        let t0 = song.addTrack(), t1 = song.addTrack()
        let n0 = song.addNote(60, duration: 1, channel: 0, at: 0, toTrack: t0)
        let n1 = song.addNote(61, duration: 1, channel: 1, at: 2, toTrack: t1)
        let cc = song.add(.controlChange(channel: 1, controller: 1, value: 5), at: 1, toTrack: t0)
        let marker = song.add(.meta(.text(.marker, MIDIText("Verse"))), at: 2, toTrack: t0)
        let lyric = song.add(.meta(.text(.lyric, MIDIText("la"))), at: 3, toTrack: t1)
        #expect(song.allEvents.map(\.id) == [n0, cc, marker, n1, lyric])
        #expect(song.events(in: 1..<3).map(\.id) == [cc, marker, n1])
        #expect(song.events(channel: 1).map(\.id) == [cc, n1])
        #expect(song.events(categories: [.note]).map(\.id) == [n0, n1])
        #expect(song.events(categories: [.marker, .lyric]).map(\.id) == [marker, lyric])
        #expect(song.events(track: t1).map(\.id) == [n1, lyric])
        #expect(song.events(in: 0..<2, channel: 1, categories: [.controlChange]).map(\.id) == [cc])
    }

    @Test func tempoMapBelongsToTheSong() {
        var song = Song()
        #expect(abs(song.seconds(atBeat: 2) - 1) < 1e-12)  // 120 BPM by default
        song.setTempo(60, at: 0)
        song.setTempo(120, at: 4)
        #expect(abs(song.seconds(atBeat: 4) - 4) < 1e-12)
        #expect(abs(song.seconds(atBeat: 6) - 5) < 1e-12)
        #expect(abs(song.beat(atSeconds: 5) - 6) < 1e-9)
        song.setTempo(30, at: 4)  // replaces the change at beat 4
        #expect(song.tempoChanges.count == 2)
        song.replaceTempo(240)
        #expect(song.tempoChanges == [Song.TempoChange(beat: 0, beatsPerMinute: 240)])
        song.setTimeSignature(TimeSignature(numerator: 3, denominatorExponent: 2), at: 0)
        song.setTimeSignature(TimeSignature(numerator: 6, denominatorExponent: 3), at: 6)
        #expect(song.timeSignature(atBeat: 5).numerator == 3)
        #expect(song.timeSignature(atBeat: 6).numerator == 6)
        let removedSignature = song.removeTimeSignatureChange(at: 6)
        #expect(removedSignature)
        #expect(song.timeSignatureChanges.count == 1)
    }
}
