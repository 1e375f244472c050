import Testing
@testable import PolyphonMIDI
@testable import PolyphonMIDICore

@Suite("Reading messages")
struct MessageReadingTests {
    @Test func everyChannelMessageWithAndWithoutRunningStatus() throws {
        let body: [UInt8] = [
            0x00, 0x80, 0x3C, 0x40,        // note off
            0x05, 0x91, 0x3D, 0x7F,        // note on, channel 2
            0x00, 0x3E, 0x00,              // running status: note on velocity 0
            0x00, 0xA2, 0x3C, 0x20,        // poly pressure
            0x00, 0xB3, 0x07, 0x64,        // control change
            0x00, 0x0A, 0x40,              // running status control change
            0x00, 0xC4, 0x30,              // program change
            0x00, 0x31,                    // running status program change (1 data byte)
            0x00, 0xD5, 0x55,              // channel pressure
            0x00, 0xEF, 0x7F, 0x7F,        // pitch bend max
            0x00, 0x00, 0x40,              // running status pitch bend centre (LSB 0, MSB 0x40)
        ] + SMF.endOfTrack()
        let file = try MIDIFile(bytes: SMF.file(format: 0, [body]), name: "channel.mid")
        #expect(file.warnings.isEmpty)
        let messages = file.tracks[0].events.map(\.message)
        #expect(messages == [
            .noteOff(channel: 0, note: 60, velocity: 64),
            .noteOn(channel: 1, note: 61, velocity: 127),
            .noteOn(channel: 1, note: 62, velocity: 0),
            .polyphonicKeyPressure(channel: 2, note: 60, pressure: 32),
            .controlChange(channel: 3, controller: 7, value: 100),
            .controlChange(channel: 3, controller: 10, value: 64),
            .programChange(channel: 4, program: 48),
            .programChange(channel: 4, program: 49),
            .channelPressure(channel: 5, pressure: 85),
            .pitchBend(channel: 15, value: 16383),
            .pitchBend(channel: 15, value: 8192),
            .meta(.endOfTrack),
        ])
        #expect(file.tracks[0].events.map(\.tick) == [0, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5])
        #expect(messages[2].isNoteOff && !messages[2].isNoteOn)
        #expect(messages[1].isNoteOn && !messages[1].isNoteOff)
        #expect(messages[0].isNoteOff)
        #expect(file.noteCount == 1)
    }

    @Test func everyMetaEventType() throws {
        var body: [UInt8] = SMF.meta(0x00, [0x12, 0x34]) + SMF.meta(0x00, [])
        for type in UInt8(0x01)...0x0F { body += SMF.meta(type, Array("T\(type)".utf8)) }
        body += SMF.meta(0x20, [9]) + SMF.meta(0x21, [2]) + SMF.meta(0x51, [0x07, 0xA1, 0x20])
        body += SMF.meta(0x54, [0x61, 2, 3, 4, 5]) + SMF.meta(0x58, [6, 3, 36, 8]) + SMF.meta(0x59, [0xFD, 1])
        body += SMF.meta(0x7F, [0x00, 0x00, 0x41, 1]) + SMF.meta(0x60, [1, 2, 3]) + SMF.endOfTrack(delta: 7)
        let file = try MIDIFile(bytes: SMF.file(format: 0, [body]), name: "meta.mid")
        #expect(file.warnings.isEmpty)
        let metas = file.tracks[0].events.compactMap(\.message.metaEvent)
        var expected: [MetaEvent] = [.sequenceNumber(0x1234), .sequenceNumber(nil)]
        for type in UInt8(0x01)...0x0F { expected.append(.text(MetaTextKind(rawValue: type), MIDIText("T\(type)"))) }
        expected += [
            .channelPrefix(9), .port(2), .tempo(microsecondsPerQuarterNote: 500_000),
            .smpteOffset(SMPTEOffset(hours: 0x61, minutes: 2, seconds: 3, frames: 4, fractionalFrames: 5)),
            .timeSignature(TimeSignature(numerator: 6, denominatorExponent: 3, clocksPerMetronomeClick: 36,
                                         thirtySecondNotesPerQuarterNote: 8)),
            .keySignature(KeySignature(sharpsOrFlats: -3, isMinor: true)),
            .sequencerSpecific([0x00, 0x00, 0x41, 1]), .unknown(type: 0x60, data: [1, 2, 3]), .endOfTrack,
        ]
        #expect(metas == expected)
        #expect(file.tracks[0].endTick == 7)
        // Names and the unnamed text types keep their type byte.
        #expect(MetaTextKind.trackName.description == "track name")
        #expect(MetaTextKind(rawValue: 0x0C).description == "text 0x0C")
        #expect(metas[4].text == "T3")
        #expect(KeySignature(sharpsOrFlats: -3, isMinor: true).name == "C minor")
        #expect(TimeSignature(numerator: 6, denominatorExponent: 3).denominator == 8)
    }

    @Test func textIsKeptAsBytesAndDecodedAsUTF8OrLatin1() throws {
        let utf8 = Array("Überture ♪".utf8)
        let latin1: [UInt8] = [0x44, 0xE9, 0x6A, 0xE0]  // "Déjà" in Latin-1, invalid UTF-8
        let body = SMF.meta(0x03, utf8) + SMF.meta(0x05, latin1) + SMF.endOfTrack()
        let file = try MIDIFile(bytes: SMF.file(format: 0, [body]))
        let texts = file.tracks[0].events.compactMap { event -> MIDIText? in
            if case .meta(.text(_, let text)) = event.message { return text }
            return nil
        }
        #expect(texts.map(\.string) == ["Überture ♪", "Déjà"])
        #expect(texts[1].bytes == latin1)
        #expect(file.tracks[0].name == "Überture ♪")
        #expect(file.serialized() == SMF.file(format: 0, [body]))
    }

    @Test func systemExclusivePacketsStayDistinct() throws {
        let body: [UInt8] = [0x00, 0xF0, 0x05, 0x7E, 0x7F, 0x09, 0x01, 0xF7]   // GM on, complete
            + [0x00, 0xF0, 0x03, 0x43, 0x12, 0x00]                              // first packet, no F7
            + [0x10, 0xF7, 0x02, 0x34, 0xF7]                                    // continuation
            + [0x00, 0xF7, 0x01, 0xF8]                                          // escape: a clock byte
            + SMF.endOfTrack()
        let file = try MIDIFile(bytes: SMF.file(format: 0, [body]))
        #expect(file.tracks[0].events.map(\.message) == [
            .systemExclusive([0x7E, 0x7F, 0x09, 0x01, 0xF7]),
            .systemExclusive([0x43, 0x12, 0x00]),
            .sysExContinuation([0x34, 0xF7]),
            .sysExContinuation([0xF8]),
            .meta(.endOfTrack),
        ])
        #expect(file.tracks[0].events.map(\.tick) == [0, 0, 16, 16, 16])
        #expect(file.serialized() == SMF.file(format: 0, [body]))
    }

    @Test func metaAndSysexCancelRunningStatus() throws {
        // After the meta event the data byte 0x3E has no running status: the reader applies the
        // cancelled one with a warning, as players do.
        let body: [UInt8] = [0x00, 0x90, 0x3C, 0x40] + SMF.meta(0x01, [0x41]) + [0x00, 0x3E, 0x40] + SMF.endOfTrack()
        let file = try MIDIFile(bytes: SMF.file(format: 0, [body]))
        #expect(file.tracks[0].events[2].message == .noteOn(channel: 0, note: 62, velocity: 64))
        #expect(file.warnings.map(\.kind) == [.runningStatusAfterMetaOrSysex])
        #expect(file.warnings[0].trackIndex == 0)
        #expect(file.warnings[0].byteOffset == 14 + 8 + 4 + 5 + 1)
    }

    @Test func variableLengthDeltasUpToFourBytes() throws {
        let body: [UInt8] = SMF.vlq(0x7F) + [0x90, 0x3C, 0x40] + SMF.vlq(0x3FFF) + [0x3C, 0x00]
            + SMF.vlq(0x1F_FFFF) + [0x3C, 0x40] + SMF.vlq(0x0FFF_FFFF) + [0x3C, 0x00] + SMF.endOfTrack()
        let file = try MIDIFile(bytes: SMF.file(format: 0, [body]))
        #expect(file.tracks[0].events.map(\.tick) == [0x7F, 0x7F + 0x3FFF, 0x7F + 0x3FFF + 0x1F_FFFF,
                                                       0x7F + 0x3FFF + 0x1F_FFFF + 0x0FFF_FFFF,
                                                       0x7F + 0x3FFF + 0x1F_FFFF + 0x0FFF_FFFF])
    }

    @Test(arguments: [(UInt16(0xE728), UInt8(25), UInt8(40)), (0xE850, 24, 80), (0xE304, 29, 4), (0xE264, 30, 100)])
    func smpteDivisions(word: UInt16, framesPerSecond: UInt8, ticksPerFrame: UInt8) throws {
        let file = try MIDIFile(bytes: SMF.file(format: 0, division: word, [SMF.endOfTrack()]))
        #expect(file.division == .smpte(framesPerSecond: framesPerSecond, ticksPerFrame: ticksPerFrame))
        #expect(file.division.rawValue == word)
        #expect(file.ticksPerQuarterNote == nil)
        #expect(file.serialized() == SMF.file(format: 0, division: word, [SMF.endOfTrack()]))
    }

    @Test func formatsZeroOneAndTwo() throws {
        for format in MIDIFileFormat.allCases {
            let bodies = format == .singleTrack ? [SMF.endOfTrack()] : [SMF.endOfTrack(), SMF.endOfTrack(delta: 3)]
            let file = try MIDIFile(bytes: SMF.file(format: format.rawValue, bodies))
            #expect(file.format == format)
            #expect(file.tracks.count == bodies.count)
            #expect(file.warnings.isEmpty)
        }
    }

    @Test func riffRMIDWrapper() throws {
        let smf = SMF.small
        let dataChunk = Array("data".utf8) + SMF.le32(smf.count) + smf + (smf.count % 2 == 1 ? [0] : [])
        let info = Array("LIST".utf8) + SMF.le32(4) + Array("INFO".utf8)
        let form = Array("RMID".utf8) + info + dataChunk
        let riff = Array("RIFF".utf8) + SMF.le32(form.count) + form
        let wrapped = try MIDIFile(bytes: riff, name: "song.rmi")
        let plain = try MIDIFile(bytes: smf)
        #expect(wrapped == plain)
        #expect(wrapped.noteCount == 3)
    }

    @Test func smallFileReadsAsExpected() throws {
        let file = try MIDIFile(bytes: SMF.small, name: "small.mid")
        #expect(file.format == .multipleTracks)
        #expect(file.division == .ticksPerQuarterNote(96))
        #expect(file.tracks.map(\.name) == ["Conductor", "Piano", "Bass"])
        #expect(file.tracks.map(\.channels) == [[], [0], [1]])
        #expect(file.noteCount == 3)
        #expect(file.tracks[1].events.map(\.tick) == [0, 0, 0, 0, 96, 96, 192, 202])
        #expect(file.tracks[2].events.map(\.tick) == [0, 0, 0, 192, 192, 192])
    }
}
