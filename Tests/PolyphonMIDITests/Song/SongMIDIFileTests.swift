import Foundation
import Testing
@testable import PolyphonMIDI
@testable import PolyphonMIDICore

/// Song ⇄ Standard MIDI File conversion.
@Suite struct SongMIDIFileTests {
    /// The positions and kinds of every track's events (IDs differ between songs).
    func content(_ song: Song) -> [[String]] {
        song.tracks.map { $0.events.map { "\($0.beat) \($0.kind)" } }
    }

    @Test func seedSongExportsNoteOnOffPairsAt480() throws {
        let file = seedSong().midiFile()
        #expect(file.division == .ticksPerQuarterNote(480))
        #expect(file.format == .multipleTracks)
        let events = file.tracks[0].events
        #expect(events.first?.message == .meta(.tempo(microsecondsPerQuarterNote: 250_000)))
        #expect(events.contains { $0.message == .programChange(channel: 0, program: 48) })
        let ons = events.filter { $0.message.isNoteOn }.map(\.tick)
        let offs = events.filter { $0.message.isNoteOff }.map(\.tick)
        #expect(ons == [0, 480, 960, 1440, 1920, 2400, 2880, 3360, 3840, 3840])
        #expect(offs == [480, 960, 1440, 1920, 2400, 2880, 3360, 3840, 5280, 5280])
        // At the same tick the note-off of the previous note comes before the next note-on.
        let at480 = events.filter { $0.tick == 480 }.map(\.message)
        #expect(at480 == [.noteOff(channel: 0, note: 64, velocity: 64), .noteOn(channel: 0, note: 63, velocity: 64)])
        #expect(events.last == MIDIEvent(tick: 5280, message: .meta(.endOfTrack)))
    }

    @Test func roundTripKeepsMetaSysExAndUnknownEvents() throws {
        var song = Song(ticksPerQuarterNote: 480)
        song.setTempo(100, at: 0)
        song.setTempo(150, at: 8)
        song.setTimeSignature(TimeSignature(numerator: 7, denominatorExponent: 3), at: 0)
        let track = song.addTrack()
        let kinds: [SongEvent.Kind] = [
            .meta(.text(.trackName, MIDIText("Strings"))),
            .meta(.text(.copyright, MIDIText("© nobody"))),
            .meta(.text(.instrumentName, MIDIText("Violin"))),
            .meta(.text(.marker, MIDIText("Intro"))),
            .meta(.text(.cuePoint, MIDIText("door slams"))),
            .meta(.text(.lyric, MIDIText("Hel-"))),
            .meta(.text(MetaTextKind(rawValue: 0x0C), MIDIText(bytes: [0xE9, 0x41]))),
            .meta(.keySignature(KeySignature(sharpsOrFlats: -3, isMinor: true))),
            .meta(.smpteOffset(SMPTEOffset(hours: 1, minutes: 2, seconds: 3, frames: 4, fractionalFrames: 5))),
            .meta(.sequencerSpecific([0x00, 0x00, 0x41, 0x01])),
            .meta(.unknown(type: 0x60, data: [1, 2, 3])),
            .meta(.port(0)),
            .systemExclusive([0x7E, 0x7F, 0x09, 0x01, 0xF7]),
            .systemExclusive([0x43, 0x12]),
            .sysExContinuation([0x00, 0xF7]),
            .programChange(channel: 2, program: 5, bankMSB: 121, bankLSB: 1),
            .programChange(channel: 3, program: 7, bankMSB: nil, bankLSB: nil),
            .controlChange(channel: 2, controller: 7, value: 99),
            .pitchBend(channel: 2, value: 12345),
            .channelPressure(channel: 2, pressure: 33),
            .polyphonicKeyPressure(channel: 2, key: 60, pressure: 44),
            .note(SongNote(key: 60, velocity: 90, duration: 1.5, channel: 2, releaseVelocity: 12)),
            .note(SongNote(key: 61, velocity: 1, duration: 0, channel: 2, releaseVelocity: 0)),
        ]
        for (index, kind) in kinds.enumerated() {
            song.add(kind, at: Double(index) * 0.25, toTrack: track)
        }
        song.setEnd(ofTrack: track, to: 20)
        for ticks in [480, 960] {
            let bytes = song.midiFile(ticksPerQuarterNote: ticks).serialized()
            let back = Song(midiFile: try MIDIFile(bytes: bytes))
            #expect(content(back) == content(song), "at \(ticks) PPQN")
            #expect(back.tempoChanges == song.tempoChanges)
            #expect(back.timeSignatureChanges == song.timeSignatureChanges)
            #expect(back.tracks[0].endBeat == 20)
        }
        // Exporting at a coarser grid rounds positions to it.
        let coarse = Song(midiFile: try MIDIFile(bytes: song.midiFile(ticksPerQuarterNote: 2).serialized()))
        #expect(coarse.tracks[0].events.map(\.beat).allSatisfy { ($0 * 2).rounded() == $0 * 2 })
    }

    @Test func overlappingSameKeyNotesPairFirstInFirstOut() throws {
        let file = MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(100), tracks: [MIDITrack(events: [
            MIDIEvent(tick: 0, message: .noteOn(channel: 0, note: 60, velocity: 100)),
            MIDIEvent(tick: 50, message: .noteOn(channel: 0, note: 60, velocity: 80)),
            MIDIEvent(tick: 100, message: .noteOff(channel: 0, note: 60, velocity: 10)),
            MIDIEvent(tick: 150, message: .noteOn(channel: 0, note: 60, velocity: 0)),
            MIDIEvent(tick: 160, message: .noteOff(channel: 0, note: 61, velocity: 0)),  // no open note: dropped
            MIDIEvent(tick: 170, message: .noteOn(channel: 1, note: 60, velocity: 70)),  // never ended
            MIDIEvent(tick: 300, message: .meta(.endOfTrack)),
        ])])
        let song = Song(midiFile: file)
        let notes = song.tracks[0].events.map { event -> String in
            guard case .note(let note) = event.kind else { return "other" }
            return "\(event.beat) \(note.key) v\(note.velocity) \(note.duration) r\(note.releaseVelocity) c\(note.channel)"
        }
        #expect(notes == ["0.0 60 v100 1.0 r10 c0", "0.5 60 v80 1.0 r0 c0", "1.7 60 v70 1.3 r64 c1"])
        #expect(song.tracks[0].endBeat == nil)  // the end of track is at the end of the open note
        // Written back, FIFO pairing gives the same notes again.
        let again = Song(midiFile: try MIDIFile(bytes: song.midiFile(ticksPerQuarterNote: 100).serialized()))
        #expect(content(again) == content(song))
    }

    @Test func bankSelectBeforeProgramChangeFoldsIntoIt() throws {
        let file = MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(96), tracks: [MIDITrack(events: [
            MIDIEvent(tick: 0, message: .controlChange(channel: 9, controller: 0, value: 120)),
            MIDIEvent(tick: 0, message: .controlChange(channel: 9, controller: 32, value: 0)),
            MIDIEvent(tick: 0, message: .programChange(channel: 9, program: 16)),
            MIDIEvent(tick: 10, message: .controlChange(channel: 1, controller: 0, value: 8)),
            MIDIEvent(tick: 20, message: .programChange(channel: 1, program: 4)),
        ])])
        let kinds = Song(midiFile: file).tracks[0].events.map(\.kind)
        #expect(kinds == [
            .programChange(channel: 9, program: 16, bankMSB: 120, bankLSB: 0),
            .controlChange(channel: 1, controller: 0, value: 8),  // another tick: stays a controller
            .programChange(channel: 1, program: 4, bankMSB: nil, bankLSB: nil),
        ])
    }

    @Test func smpteFilesBecomeQuarterNotes() throws {
        // 25 fps × 40 ticks = 1000 ticks per second; at 120 BPM a quarter note is 500 ticks.
        let file = MIDIFile(format: .singleTrack, division: .smpte(framesPerSecond: 25, ticksPerFrame: 40), tracks: [
            MIDITrack(events: [
                MIDIEvent(tick: 500, message: .noteOn(channel: 0, note: 60, velocity: 100)),
                MIDIEvent(tick: 1500, message: .noteOff(channel: 0, note: 60, velocity: 0)),
            ]),
        ])
        let song = Song(midiFile: file)
        #expect(song.ticksPerQuarterNote == 480)
        #expect(song.tracks[0].events.first?.beat == 1)
        #expect(song.tracks[0].events.first?.kind == .note(SongNote(key: 60, velocity: 100, duration: 2, releaseVelocity: 0)))
    }
}
