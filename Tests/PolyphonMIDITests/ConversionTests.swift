import Testing
@testable import PolyphonMIDI
@testable import PolyphonMIDICore

@Suite("Format conversion")
struct ConversionTests {
    /// Format 1 with simultaneous events in several tracks, and two channels in one track.
    static let multi = SMF.model([
        [(0, .meta(.text(.trackName, MIDIText("Song")))), (0, .meta(.tempo(microsecondsPerQuarterNote: 400_000))),
         (96, .meta(.tempo(microsecondsPerQuarterNote: 600_000))), (500, .meta(.endOfTrack))],
        [(0, .programChange(channel: 2, program: 10)), (0, .noteOn(channel: 2, note: 60, velocity: 90)),
         (0, .noteOn(channel: 0, note: 40, velocity: 90)), (96, .noteOn(channel: 2, note: 60, velocity: 0)),
         (96, .noteOn(channel: 2, note: 64, velocity: 80)), (192, .noteOff(channel: 2, note: 64, velocity: 0)),
         (192, .meta(.endOfTrack))],
        [(0, .systemExclusive([0x7E, 0x7F, 0x09, 0x01, 0xF7])), (0, .noteOn(channel: 0, note: 36, velocity: 100)),
         (96, .noteOn(channel: 0, note: 36, velocity: 0)), (96, .meta(.text(.marker, MIDIText("B")))),
         (300, .meta(.endOfTrack))],
    ])

    /// The (tick, message) list of one channel over all tracks, in merged order.
    private func channelEvents(_ file: MIDIFile, _ channel: UInt8) -> [MIDIEvent] {
        file.timedEvents().filter { $0.message.channel == channel }.map { MIDIEvent(tick: $0.tick, message: $0.message) }
    }

    @Test func formatOneToZeroMergesInFileOrder() throws {
        let single = Self.multi.converted(to: .singleTrack)
        #expect(single.format == .singleTrack)
        #expect(single.tracks.count == 1)
        let events = single.tracks[0].events
        #expect(events.map(\.message) == [
            .meta(.text(.trackName, MIDIText("Song"))), .meta(.tempo(microsecondsPerQuarterNote: 400_000)),
            .programChange(channel: 2, program: 10), .noteOn(channel: 2, note: 60, velocity: 90),
            .noteOn(channel: 0, note: 40, velocity: 90),
            .systemExclusive([0x7E, 0x7F, 0x09, 0x01, 0xF7]), .noteOn(channel: 0, note: 36, velocity: 100),
            .meta(.tempo(microsecondsPerQuarterNote: 600_000)),
            .noteOn(channel: 2, note: 60, velocity: 0), .noteOn(channel: 2, note: 64, velocity: 80),
            .noteOn(channel: 0, note: 36, velocity: 0), .meta(.text(.marker, MIDIText("B"))),
            .noteOff(channel: 2, note: 64, velocity: 0), .meta(.endOfTrack),
        ])
        #expect(events.map(\.tick) == [0, 0, 0, 0, 0, 0, 0, 96, 96, 96, 96, 96, 192, 500])
        #expect(abs(single.duration - Self.multi.duration) < 1e-12)
        for channel in UInt8(0)..<16 { #expect(channelEvents(single, channel) == channelEvents(Self.multi, channel)) }
    }

    @Test func formatZeroToOneSplitsByChannel() throws {
        let single = Self.multi.converted(to: .singleTrack)
        let split = single.converted(to: .multipleTracks)
        #expect(split.format == .multipleTracks)
        #expect(split.tracks.count == 3)
        #expect(split.tracks.map(\.channels) == [[], [0], [2]])
        #expect(split.tracks[0].events.map(\.message) == [
            .meta(.text(.trackName, MIDIText("Song"))), .meta(.tempo(microsecondsPerQuarterNote: 400_000)),
            .systemExclusive([0x7E, 0x7F, 0x09, 0x01, 0xF7]), .meta(.tempo(microsecondsPerQuarterNote: 600_000)),
            .meta(.text(.marker, MIDIText("B"))), .meta(.endOfTrack),
        ])
        #expect(split.tracks[2].events.map(\.message) == [
            .programChange(channel: 2, program: 10), .noteOn(channel: 2, note: 60, velocity: 90),
            .noteOn(channel: 2, note: 60, velocity: 0), .noteOn(channel: 2, note: 64, velocity: 80),
            .noteOff(channel: 2, note: 64, velocity: 0), .meta(.endOfTrack),
        ])
        #expect(split.tracks.allSatisfy { $0.events.last == MIDIEvent(tick: 500, message: .meta(.endOfTrack)) })
        // No events are added or lost: the same multiset of non-end-of-track events.
        let count = { (file: MIDIFile) in file.tracks.reduce(0) { $0 + $1.events.filter { !$0.message.isEndOfTrack }.count } }
        #expect(count(split) == count(single))
        for channel in UInt8(0)..<16 { #expect(channelEvents(split, channel) == channelEvents(Self.multi, channel)) }
        #expect(abs(split.duration - Self.multi.duration) < 1e-12)
        // Merging the split file again keeps every channel's events and their order.
        let remerged = split.converted(to: .singleTrack)
        for channel in UInt8(0)..<16 { #expect(channelEvents(remerged, channel) == channelEvents(single, channel)) }
    }

    @Test func serializingInAnotherFormatConverts() throws {
        let bytes = Self.multi.serialized(format: .singleTrack)
        let file = try MIDIFile(bytes: bytes)
        #expect(file.format == .singleTrack)
        #expect(file.tracks == Self.multi.converted(to: .singleTrack).tracks)
        let back = try MIDIFile(bytes: file.serialized(format: .multipleTracks, runningStatus: false))
        #expect(back.format == .multipleTracks)
        #expect(back.tracks.count == 3)
    }

    @Test func betweenFormatsOneAndTwoTracksAreKept() {
        let two = Self.multi.converted(to: .independentTracks)
        #expect(two.format == .independentTracks)
        #expect(two.tracks == Self.multi.tracks)
        #expect(two.converted(to: .multipleTracks) == Self.multi)
        #expect(Self.multi.converted(to: .multipleTracks) == Self.multi)
    }
}
