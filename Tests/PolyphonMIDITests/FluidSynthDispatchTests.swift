import Testing
import PolyphonMIDICore

/// `alignedToFluidSynthDispatch`: events moved to the frames FluidSynth's file player plays them
/// on (64-sample blocks, whole-millisecond clock). Frames below are worked out by hand from the
/// rule; `FluidSynthDispatchRenderTests` checks them against FluidSynth's own render.
@Suite("FluidSynth dispatch alignment")
struct FluidSynthDispatchTests {
    static func file(division: UInt16 = 480, _ events: [MIDIEvent]) -> MIDIFile {
        MIDIFile(format: .multipleTracks, division: .ticksPerQuarterNote(division),
                 tracks: [MIDITrack(events: events + [MIDIEvent(tick: events.last?.tick ?? 0, message: .meta(.endOfTrack))])])
    }

    static func frames(_ file: MIDIFile, rate: Int = 44_100) throws -> [Int] {
        try file.alignedToFluidSynthDispatch(sampleRate: rate).tracks[0].events
            .filter { $0.message.isNoteOn }.map(\.tick)
    }

    @Test func aNoteOnTheFirstTickSoundsFromTheSecondBlock() throws {
        #expect(try Self.frames(Self.file([MIDIEvent(tick: 0, message: .noteOn(channel: 0, note: 60, velocity: 100))])) == [64])
    }

    @Test func eventsWaitForTheBlockWhoseRoundedMillisecondReachesThem() throws {
        // 480 PPQN at 120 BPM: 1.0416667 ms per tick. Tick 100 needs (int)(msec / 1.0416667 + 0.5)
        // ≥ 100, so msec ≥ 104, first reached in block 72 (floor(72 · 64000 / 44100) = 104):
        // frame 73 · 64 = 4672, 78 frames after its exact time (4593.75).
        let song = Self.file([MIDIEvent(tick: 100, message: .noteOn(channel: 0, note: 60, velocity: 100))])
        #expect(try Self.frames(song) == [4672])
        // At 48 kHz: msec(k) = floor(4k / 3) ≥ 104 from k = 78 → frame 79 · 64.
        #expect(try Self.frames(song, rate: 48_000) == [79 * 64])
    }

    @Test func aTempoChangeRestartsTheClockFromItsBlockNotItsTick() throws {
        // 1000 PPQN at 120 BPM (0.5 ms per tick): the tempo event at tick 3 goes in block 2
        // (msec 2, cur_ticks (int)(4.5) = 4), so the clock restarts at tick 4, not 3. At 60 BPM
        // (1 ms per tick) tick 10 then needs msec ≥ 8: block 6, frame 448. Restarting from the
        // event's own tick would give block 7 (frame 512).
        let song = Self.file(division: 1000, [
            MIDIEvent(tick: 3, message: .meta(.tempo(microsecondsPerQuarterNote: 1_000_000))),
            MIDIEvent(tick: 10, message: .noteOn(channel: 0, note: 60, velocity: 100)),
        ])
        #expect(try Self.frames(song) == [448])
    }

    @Test func oneTickIsOneFrameAndTracksKeepTheirEvents() throws {
        let song = MIDIFile(format: .multipleTracks, division: .ticksPerQuarterNote(96), tracks: [
            MIDITrack(events: [MIDIEvent(tick: 0, message: .meta(.text(.trackName, MIDIText("conductor")))),
                               MIDIEvent(tick: 384, message: .meta(.tempo(microsecondsPerQuarterNote: 612_345))),
                               MIDIEvent(tick: 768, message: .meta(.endOfTrack))]),
            MIDITrack(events: (0..<40).map { MIDIEvent(tick: $0 * 37, message: .noteOn(channel: 0, note: 60, velocity: UInt8(1 + $0))) }
                      + [MIDIEvent(tick: 1500, message: .meta(.endOfTrack))]),
        ])
        for rate in [22_050, 44_100, 48_000, 96_000] {
            let aligned = try song.alignedToFluidSynthDispatch(sampleRate: rate)
            // The only tempo is the one at tick 0 that makes a tick a frame.
            #expect(aligned.tracks[0].events.filter { if case .meta(.tempo) = $0.message { true } else { false } }.count == 1)
            #expect(aligned.tracks[1].events.map(\.message) == song.tracks[1].events.map(\.message))
            for event in aligned.timedEvents() {
                #expect((event.seconds * Double(rate)).rounded() == Double(event.tick))
                #expect(event.tick == 0 || event.tick % 64 == 0)
            }
            // Late by up to two blocks and a millisecond, or early: by half a tick (the clock
            // rounds) plus the ticks a tempo event's block had already passed (the clock restarts
            // from there). 612 345 µs per quarter at 96 PPQN: 6.4 ms per tick.
            let exact = song.timedEvents().filter { $0.message.isNoteOn }.map { $0.seconds * Double(rate) }
            let moved = aligned.timedEvents().filter { $0.message.isNoteOn }.map { Double($0.tick) }
            for (e, m) in zip(exact, moved) {
                let tick = Double(rate) * 0.612345 / 96
                #expect(m - e < 64 * 2 + Double(rate) / 1000 && e - m < 2 * tick, "\(e) → \(m) at \(rate)")
            }
        }
    }

    @Test func filesFluidSynthRefusesAreRefused() {
        let note = [MIDIEvent(tick: 0, message: .noteOn(channel: 0, note: 60, velocity: 100))]
        #expect(throws: FluidSynthDispatchError.smpteDivision) {
            try MIDIFile(format: .singleTrack, division: .smpte(framesPerSecond: 25, ticksPerFrame: 40),
                         tracks: [MIDITrack(events: note)]).alignedToFluidSynthDispatch(sampleRate: 44_100)
        }
        #expect(throws: FluidSynthDispatchError.independentTracks) {
            try MIDIFile(format: .independentTracks, division: .ticksPerQuarterNote(480),
                         tracks: [MIDITrack(events: note)]).alignedToFluidSynthDispatch(sampleRate: 44_100)
        }
        #expect(throws: FluidSynthDispatchError.sampleRate(44_101)) {
            try Self.file(note).alignedToFluidSynthDispatch(sampleRate: 44_101)
        }
    }

    @Test func aTickCenturiesAwayCostsNoMoreThanANearOne() throws {
        let song = Self.file(division: 1, [
            MIDIEvent(tick: 0, message: .meta(.tempo(microsecondsPerQuarterNote: 0xFF_FFFF))),
            MIDIEvent(tick: 1 << 40, message: .noteOn(channel: 0, note: 60, velocity: 100)),
        ])
        let frame = try #require(try Self.frames(song).first)
        // 2^40 ticks of 16.78 s each, at 44.1 kHz.
        #expect(abs(Double(frame) / (Double(1 << 40) * 16.777215 * 44_100) - 1) < 1e-6)
    }
}
