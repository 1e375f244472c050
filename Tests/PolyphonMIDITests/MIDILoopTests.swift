import Testing
import PolyphonMIDI

/// Finding the loop a file marks, with every convention, to the tick.
@Suite struct MIDILoopTests {
    /// A one-track file at 480 ticks per quarter note: notes every beat for 8 beats (ending at
    /// tick 3840), plus `marks`.
    static func file(_ marks: [(Int, MIDIMessage)]) -> MIDIFile {
        var events: [MIDIEvent] = []
        for beat in 0..<8 {
            events.append(MIDIEvent(tick: beat * 480, message: .noteOn(channel: 0, note: 60, velocity: 100)))
            events.append(MIDIEvent(tick: beat * 480 + 400, message: .noteOff(channel: 0, note: 60, velocity: 0)))
        }
        events += marks.map { MIDIEvent(tick: $0.0, message: $0.1) }
        events.sort { $0.tick < $1.tick }
        events.append(MIDIEvent(tick: 3840, message: .meta(.endOfTrack)))
        return MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480), tracks: [MIDITrack(events: events)])
    }

    static func marker(_ text: String) -> MIDIMessage { .meta(.text(.marker, MIDIText(text))) }

    @Test func controller111StartsTheLoopAndTheSongsEndEndsIt() {
        let loop = Self.file([(960, .controlChange(channel: 0, controller: 111, value: 0))]).loop
        #expect(loop == MIDILoop(startTick: 960, endTick: 3840, source: .controller111))
    }

    @Test(arguments: [("loopStart", "loopEnd"), ("LOOPSTART", "LOOPEND"), ("loop_start", "loop_end"),
                      ("LoopStart", "LoopEnd"), ("Loop Start", "Loop-End")])
    func markersOfAnyCaseAndSeparatorMarkTheLoop(start: String, end: String) {
        let loop = Self.file([(480, Self.marker(start)), (2880, Self.marker(end))]).loop
        #expect(loop == MIDILoop(startTick: 480, endTick: 2880, source: .markers))
    }

    @Test func cuePointsCountAsMarkers() {
        let loop = Self.file([(480, .meta(.text(.cuePoint, MIDIText("loopStart"))))]).loop
        #expect(loop == MIDILoop(startTick: 480, endTick: 3840, source: .markers))
    }

    @Test func emidiControllersMarkTheLoopAndItsCount() {
        let loop = Self.file([(480, .controlChange(channel: 0, controller: 116, value: 0)),
                              (1920, .controlChange(channel: 0, controller: 117, value: 3))]).loop
        #expect(loop == MIDILoop(startTick: 480, endTick: 1920, source: .emidi, count: 3))
        // EMIDI's own files: 127 on the end, the count on the start.
        let own = Self.file([(480, .controlChange(channel: 0, controller: 116, value: 0)),
                             (1920, .controlChange(channel: 0, controller: 117, value: 127))]).loop
        #expect(own?.count == 0)
    }

    @Test func reversedMarkersGiveAWarningAndNoLoop() {
        let search = Self.file([(2880, Self.marker("loopStart")), (480, Self.marker("loopEnd"))]).findLoop()
        #expect(search.loop == nil)
        #expect(search.warnings.map(\.kind) == [.reversed(startTick: 2880, endTick: 480)])
        #expect(search.warnings[0].description.contains("no loop"))
    }

    @Test func anEndFarPastTheLastNoteIsKeptWithAWarning() {
        // The music ends at tick 3760 (the last note-off); a loop ending on the next bar line
        // is normal, one ending 12 beats later repeats that silence on every pass.
        #expect(Self.file([(0, Self.marker("loopStart")), (3840, Self.marker("loopEnd"))]).findLoop().warnings.isEmpty)
        let search = Self.file([(480, Self.marker("loopStart")), (9600, Self.marker("loopEnd"))]).findLoop()
        #expect(search.loop == MIDILoop(startTick: 480, endTick: 9600, source: .markers))
        #expect(search.warnings.map(\.kind) == [.endAfterMusic(endTick: 9600, musicEndTick: 3760)])
        #expect(search.warnings[0].description.contains("5840 ticks after the music ends"))
    }

    @Test func aZeroLengthLoopIsNoLoop() {
        let search = Self.file([(960, Self.marker("loopStart")), (960, Self.marker("loopEnd"))]).findLoop()
        #expect(search.loop == nil)
        #expect(search.warnings.map(\.kind) == [.reversed(startTick: 960, endTick: 960)])
    }

    @Test func contradictoryMarkersGiveAWarningAndNoLoop() {
        let search = Self.file([(480, Self.marker("loopStart")), (960, Self.marker("loopStart")),
                                (2880, Self.marker("loopEnd"))]).findLoop()
        #expect(search.loop == nil)
        #expect(search.warnings.map(\.kind) == [.contradictory(.markers, startTicks: [480, 960], endTicks: [2880])])
    }

    @Test func theSameMarkOnEveryChannelIsOneMark() {
        let marks = (0..<16).map { (960, MIDIMessage.controlChange(channel: UInt8($0), controller: 111, value: 0)) }
        #expect(Self.file(marks).loop == MIDILoop(startTick: 960, endTick: 3840, source: .controller111))
    }

    @Test func markersWinOverControllersThatDisagree() {
        let search = Self.file([(480, Self.marker("loopStart")), (2880, Self.marker("loopEnd")),
                                (960, .controlChange(channel: 0, controller: 111, value: 0))]).findLoop()
        #expect(search.loop == MIDILoop(startTick: 480, endTick: 2880, source: .markers))
        #expect(search.warnings.map(\.kind) == [.conventionsDisagree(used: .markers, ignored: .controller111)])
    }

    /// 100 000 start markers on distinct ticks: contradictory, and only the first few ticks are
    /// kept (the verdict cannot change past two), so the search stores a bounded amount
    /// whatever the file holds. Bounded work is checked, not time: CI machines are loaded.
    @Test func thousandsOfMarkersAreReadInOnePass() {
        var events = (0..<100_000).map { MIDIEvent(tick: $0, message: Self.marker("loopStart")) }
        events.append(MIDIEvent(tick: 100_000, message: .meta(.endOfTrack)))
        let file = MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480), tracks: [MIDITrack(events: events)])
        let search = file.findLoop()
        #expect(search.loop == nil)
        #expect(search.warnings.count == 1)
        guard case .contradictory(.markers, let starts, let ends)? = search.warnings.first?.kind else {
            Issue.record("expected a contradiction")
            return
        }
        #expect(starts == Array(0..<8))
        #expect(ends.isEmpty)
    }

    @Test func aSongFindsTheLoopOnItsTicks() {
        var song = Song(ticksPerQuarterNote: 480)
        song.addTrack(program: 0) { track in
            track.note(60, beats: 1)
            track.marker("loopStart")
            track.notes([62, 64, 65, 67], beats: 1)
            track.marker("loopEnd")
            track.note(72, beats: 1)
        }
        #expect(song.findLoop().loop == MIDILoop(startTick: 480, endTick: 2400, source: .markers))
    }
}
