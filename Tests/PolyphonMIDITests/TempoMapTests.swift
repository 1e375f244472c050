import Testing
@testable import PolyphonMIDI
@testable import PolyphonMIDICore

@Suite("Tempo map")
struct TempoMapTests {
    /// 480 PPQN: 120 BPM from 0, 60 BPM from tick 960, 240 BPM from tick 1440.
    static let map = TempoMap(division: .ticksPerQuarterNote(480), tempoEvents: [
        (tick: 1440, microsecondsPerQuarterNote: 250_000),
        (tick: 0, microsecondsPerQuarterNote: 500_000),
        (tick: 960, microsecondsPerQuarterNote: 1_000_000),
    ])

    @Test func ticksToSecondsAcrossTempoChanges() {
        let map = Self.map
        #expect(map.changes.map(\.tick) == [0, 960, 1440])
        #expect(map.changes.map(\.seconds) == [0, 1.0, 2.0])
        #expect(map.seconds(atTick: 0) == 0)
        #expect(map.seconds(atTick: 480) == 0.5)
        #expect(map.seconds(atTick: 960) == 1.0)
        #expect(map.seconds(atTick: 1200) == 1.5)
        #expect(map.seconds(atTick: 1440) == 2.0)
        #expect(map.seconds(atTick: 1920) == 2.25)
        #expect(map.beats(atTick: 1920) == 4)
        #expect(map.changes[2].beatsPerMinute == 240)
    }

    @Test func inverseConversions() {
        let map = Self.map
        for tick in stride(from: 0, through: 4000, by: 37) {
            let seconds = map.seconds(atTick: tick)
            #expect(abs(map.tick(atSeconds: seconds) - Double(tick)) < 1e-9)
            let beats = map.beats(atTick: tick)
            #expect(abs(map.tick(atBeats: beats) - Double(tick)) < 1e-9)
            #expect(abs(map.seconds(atBeats: beats) - seconds) < 1e-12)
            #expect(abs(map.beats(atSeconds: seconds) - beats) < 1e-9)
        }
        #expect(map.tick(atSeconds: 1.5) == 1200)
        #expect(map.tick(atSeconds: 2.25) == 1920)
    }

    @Test func defaultTempoAndLastEventAtSameTickWins() {
        let empty = TempoMap(division: .ticksPerQuarterNote(96), tempoEvents: [])
        #expect(empty.seconds(atTick: 96) == 0.5)
        let twice = TempoMap(division: .ticksPerQuarterNote(96), tempoEvents: [(tick: 0, microsecondsPerQuarterNote: 1_000_000),
                                                                               (tick: 0, microsecondsPerQuarterNote: 250_000)])
        #expect(twice.seconds(atTick: 96) == 0.25)
        #expect(twice.changes.count == 1)
    }

    @Test func smpteDivisionIgnoresTempoForSeconds() {
        let map = TempoMap(division: .smpte(framesPerSecond: 25, ticksPerFrame: 40), tempoEvents: [
            (tick: 0, microsecondsPerQuarterNote: 500_000), (tick: 1000, microsecondsPerQuarterNote: 1_000_000),
        ])
        #expect(map.seconds(atTick: 1000) == 1.0)
        #expect(map.seconds(atTick: 3000) == 3.0)
        // Beats follow the tempo: 2 beats per second, then 1.
        #expect(map.beats(atTick: 1000) == 2)
        #expect(map.beats(atTick: 3000) == 4)
        #expect(map.tick(atBeats: 3) == 2000)
        let dropFrame = TempoMap(division: .smpte(framesPerSecond: 29, ticksPerFrame: 4), tempoEvents: [])
        #expect(abs(dropFrame.seconds(atTick: 4 * 2997) - 100.0) < 1e-9)
        let thirty = TempoMap(division: .smpte(framesPerSecond: 30, ticksPerFrame: 80), tempoEvents: [])
        #expect(thirty.seconds(atTick: 2400) == 1.0)
    }

    @Test func fileTempoMapUsesAllTracksExceptInFormatTwo() throws {
        // Tempo events in the conductor track and (non-standard but common) in track 1.
        let model = SMF.model([[(0, .meta(.tempo(microsecondsPerQuarterNote: 1_000_000)))],
                               [(96, .meta(.tempo(microsecondsPerQuarterNote: 250_000))),
                                (192, .noteOn(channel: 0, note: 60, velocity: 1)), (192, .meta(.endOfTrack))]])
        #expect(model.tempoMap().seconds(atTick: 192) == 1.25)
        #expect(model.duration == 1.25)
        var two = model
        two.format = .independentTracks
        #expect(two.tempoMap(track: 0).seconds(atTick: 192) == 2.0)
        #expect(two.tempoMap(track: 1).seconds(atTick: 192) == 0.5 + 0.25)
        #expect(two.duration == 0.75)
    }

    @Test func timedEventsAreMergedInFileOrder() throws {
        let file = try MIDIFile(bytes: SMF.small)
        let timed = file.timedEvents()
        #expect(timed.count == file.tracks.reduce(0) { $0 + $1.events.count })
        #expect(zip(timed, timed.dropFirst()).allSatisfy { $0.tick < $1.tick || ($0.tick == $1.tick && $0.trackIndex <= $1.trackIndex) })
        let atZero = timed.prefix { $0.tick == 0 }.map(\.trackIndex)
        #expect(atZero == [0, 0, 0, 1, 1, 1, 1, 2, 2, 2])
        // 120 BPM for 192 ticks at 96 PPQN is 1 s; then 60 BPM.
        let end = try #require(timed.last)
        #expect(end.tick == 384)
        #expect(end.seconds == 3.0)
        #expect(file.duration == 3.0)
        let pianoEnd = try #require(timed.first { $0.trackIndex == 1 && $0.message.isEndOfTrack })
        #expect(abs(pianoEnd.seconds - (1.0 + 10.0 / 96.0)) < 1e-12)
    }
}
