import Foundation
import Testing
@testable import PolyphonMIDI
@testable import PolyphonMIDICore

@Suite("Writing files")
struct WriterTests {
    @Test func cleanFileIsRewrittenByteForByte() throws {
        // The fixture uses running status exactly where the writer does, so the bytes match.
        let file = try MIDIFile(bytes: SMF.small)
        #expect(file.serialized() == SMF.small)
    }

    @Test func runningStatusOnAndOff() throws {
        let file = try MIDIFile(bytes: SMF.small)
        let with = file.serialized(runningStatus: true)
        let without = file.serialized(runningStatus: false)
        // The piano track repeats a note-on status twice, the bass track once.
        #expect(without.count - with.count == 3)
        #expect(try MIDIFile(bytes: without).tracks == file.tracks)
        #expect(try MIDIFile(bytes: with).tracks == file.tracks)
        // Written without running status, every channel message carries its status byte.
        let reread = try MIDIFile(bytes: without)
        #expect(reread.serialized(runningStatus: false) == without)
    }

    @Test func endOfTrackIsAddedAndDuplicatesDropped() throws {
        let model = SMF.model([[(0, .noteOn(channel: 0, note: 60, velocity: 100)), (48, .noteOff(channel: 0, note: 60, velocity: 0))],
                               [(0, .meta(.endOfTrack)), (10, .controlChange(channel: 1, controller: 64, value: 127))]])
        let bytes = model.serialized()
        let file = try MIDIFile(bytes: bytes)
        #expect(file.warnings.isEmpty)
        #expect(file.tracks[0].events.last == MIDIEvent(tick: 48, message: .meta(.endOfTrack)))
        #expect(file.tracks[1].events.map(\.message) == [.controlChange(channel: 1, controller: 64, value: 127), .meta(.endOfTrack)])
        #expect(file.tracks[1].events.last?.tick == 10)
        // A file Polyphon wrote round-trips byte for byte.
        #expect(file.serialized() == bytes)
    }

    @Test func unsortedEventsAreWrittenInTickOrderKeepingSimultaneousOrder() throws {
        let model = SMF.model(format: .singleTrack, [[(20, .noteOn(channel: 0, note: 62, velocity: 1)),
                                                     (0, .noteOn(channel: 0, note: 60, velocity: 1)),
                                                     (20, .noteOn(channel: 0, note: 61, velocity: 1))]])
        let file = try MIDIFile(bytes: model.serialized())
        #expect(file.tracks[0].events.map(\.message) == [.noteOn(channel: 0, note: 60, velocity: 1),
                                                        .noteOn(channel: 0, note: 62, velocity: 1),
                                                        .noteOn(channel: 0, note: 61, velocity: 1),
                                                        .meta(.endOfTrack)])
    }

    @Test func everyMessageAndMetaRoundTrips() throws {
        var events: [(Int, MIDIMessage)] = [
            (0, .noteOff(channel: 0, note: 1, velocity: 2)), (1, .noteOn(channel: 15, note: 127, velocity: 0)),
            (2, .polyphonicKeyPressure(channel: 3, note: 4, pressure: 5)), (3, .controlChange(channel: 4, controller: 121, value: 0)),
            (4, .programChange(channel: 5, program: 127)), (5, .channelPressure(channel: 6, pressure: 7)),
            (6, .pitchBend(channel: 7, value: 0)), (6, .pitchBend(channel: 7, value: 12345)),
            (7, .systemExclusive([0x41, 0x10, 0x42, 0xF7])), (8, .sysExContinuation([0xFA])),
            (9, .meta(.sequenceNumber(7))), (9, .meta(.sequenceNumber(nil))),
            (10, .meta(.channelPrefix(3))), (10, .meta(.port(1))), (11, .meta(.tempo(microsecondsPerQuarterNote: 0xFFFFFF))),
            (12, .meta(.smpteOffset(SMPTEOffset(hours: 1, minutes: 2, seconds: 3, frames: 4, fractionalFrames: 5)))),
            (13, .meta(.timeSignature(TimeSignature(numerator: 7, denominatorExponent: 3)))),
            (14, .meta(.keySignature(KeySignature(sharpsOrFlats: 7, isMinor: false)))),
            (15, .meta(.sequencerSpecific([0x43, 0x7B, 0x00]))), (16, .meta(.unknown(type: 0x4B, data: [9, 9]))),
            (17, .meta(.text(.copyright, MIDIText(bytes: [0xA9, 0x20, 0x31, 0x39, 0x39, 0x39])))),
        ]
        for type in UInt8(1)...0x0F { events.append((18, .meta(.text(MetaTextKind(rawValue: type), MIDIText("x"))))) }
        events.append((200_000_000, .meta(.endOfTrack)))
        let model = SMF.model(format: .singleTrack, [events])
        let bytes = model.serialized()
        let file = try MIDIFile(bytes: bytes)
        #expect(file.warnings.isEmpty)
        #expect(file.tracks == model.tracks)
        #expect(file.serialized() == bytes)
        #expect(file.serialized(runningStatus: false) != bytes)
    }

    @Test func writesToDisk() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("polyphon-midi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("small.mid")
        let file = try MIDIFile(bytes: SMF.small)
        try file.write(to: url)
        #expect(try MIDIFile(contentsOf: url) == file)
        #expect(try MIDIFile(contentsOfFile: url.path) == file)
    }

    @Test func valuesOutOfRangeAreMasked() throws {
        let model = SMF.model(format: .singleTrack, [[(0, .noteOn(channel: 17, note: 200, velocity: 255)),
                                                     (0, .pitchBend(channel: 0, value: 0xFFFF))]])
        let file = try MIDIFile(bytes: model.serialized())
        #expect(file.tracks[0].events.map(\.message).prefix(2) == [.noteOn(channel: 1, note: 72, velocity: 127),
                                                                   .pitchBend(channel: 0, value: 16383)])
    }
}
