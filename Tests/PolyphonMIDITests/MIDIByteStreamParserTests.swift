import Testing

@testable import PolyphonMIDI
@testable import PolyphonMIDICore

@Suite("Raw MIDI byte streams")
struct MIDIByteStreamParserTests {
    @Test func runningStatusCarriesAcrossMessages() {
        var parser = MIDIByteStreamParser()
        let messages = parser.parse([0x90, 60, 100, 64, 90, 67, 0, 0xC2, 5, 7])
        #expect(messages == [.channelVoice(MIDIMessage(channelVoiceStatus: 0x90, data1: 60, data2: 100)!),
                             .channelVoice(MIDIMessage(channelVoiceStatus: 0x90, data1: 64, data2: 90)!),
                             .channelVoice(MIDIMessage(channelVoiceStatus: 0x90, data1: 67, data2: 0)!),
                             .channelVoice(MIDIMessage(channelVoiceStatus: 0xC2, data1: 5, data2: 0)!),
                             .channelVoice(MIDIMessage(channelVoiceStatus: 0xC2, data1: 7, data2: 0)!)])
    }

    @Test func realTimeBytesInsideAMessageNeitherBreakNorClearIt() {
        var parser = MIDIByteStreamParser()
        let messages = parser.parse([0xB0, 0xF8, 7, 0xFE, 100, 0xFA, 10, 0xFC, 64, 0xFD, 0xF9])
        #expect(messages == [.realTime(0xF8), .realTime(0xFE), .channelVoice(MIDIMessage(channelVoiceStatus: 0xB0, data1: 7, data2: 100)!),
                             .realTime(0xFA), .realTime(0xFC), .channelVoice(MIDIMessage(channelVoiceStatus: 0xB0, data1: 10, data2: 64)!)])
    }

    @Test func sysExIsCollectedAndEndsAtF7OrTheNextStatus() {
        var parser = MIDIByteStreamParser()
        let messages = parser.parse([0xF0, 0x7E, 0x7F, 0xF8, 0x09, 0x01, 0xF7, 0x91, 1, 2,
                                     0xF0, 0x41, 0x10, 0x80, 3, 4])
        #expect(messages == [.realTime(0xF8), .systemExclusive([0x7E, 0x7F, 0x09, 0x01]),
                             .channelVoice(MIDIMessage(channelVoiceStatus: 0x91, data1: 1, data2: 2)!),
                             .systemExclusive([0x41, 0x10]),
                             .channelVoice(MIDIMessage(channelVoiceStatus: 0x80, data1: 3, data2: 4)!)])
    }

    @Test func sysExClearsRunningStatus() {
        var parser = MIDIByteStreamParser()
        let messages = parser.parse([0x90, 60, 100, 0xF0, 1, 0xF7, 61, 100])
        #expect(messages == [.channelVoice(MIDIMessage(channelVoiceStatus: 0x90, data1: 60, data2: 100)!), .systemExclusive([1])])
        #expect(parser.strayDataByteCount == 2)
    }

    @Test func systemCommonMessagesTakeTheirDataAndClearRunningStatus() {
        var parser = MIDIByteStreamParser()
        let messages = parser.parse([0xE0, 0, 64, 0xF2, 0x10, 0x20, 0xF3, 5, 0xF6, 1, 2, 0xF1, 0x31])
        #expect(messages == [.channelVoice(MIDIMessage(channelVoiceStatus: 0xE0, data1: 0, data2: 64)!),
                             .systemCommon(status: 0xF2, data1: 0x10, data2: 0x20),
                             .systemCommon(status: 0xF3, data1: 5, data2: 0),
                             .systemCommon(status: 0xF6, data1: 0, data2: 0),
                             .systemCommon(status: 0xF1, data1: 0x31, data2: 0)])
        #expect(parser.strayDataByteCount == 2)
    }

    @Test func strayDataAndUndefinedStatusBytesAreDropped() {
        var parser = MIDIByteStreamParser()
        let messages = parser.parse([1, 2, 3, 0xF4, 9, 0xF5, 0x80, 60, 0])
        #expect(messages == [.channelVoice(MIDIMessage(channelVoiceStatus: 0x80, data1: 60, data2: 0)!)])
        #expect(parser.strayDataByteCount == 4)
    }

    @Test func anOverlongSysExIsDroppedWholeAndParsingGoesOn() {
        var parser = MIDIByteStreamParser(maximumSysExLength: 4)
        let messages = parser.parse([0xF0, 1, 2, 3, 4, 5, 6, 0xF7, 0xF0, 1, 2, 0xF7, 0x90, 1, 1])
        #expect(messages == [.systemExclusive([1, 2]), .channelVoice(MIDIMessage(channelVoiceStatus: 0x90, data1: 1, data2: 1)!)])
        #expect(parser.droppedSysExCount == 1)
    }

    /// Any byte sequence parses without trapping, and every channel message it yields is
    /// well-formed (status byte high, data bytes low).
    @Test func randomBytesNeverTrapAndYieldWellFormedMessages() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var parser = MIDIByteStreamParser(maximumSysExLength: 64)
        var count = 0
        for _ in 0..<200_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            guard let message = parser.parse(UInt8(truncatingIfNeeded: state >> 56)) else { continue }
            count += 1
            switch message {
            case .channelVoice(let message):
                #expect(message.isChannelMessage)
                #expect(MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(96),
                                 tracks: [MIDITrack(events: [MIDIEvent(tick: 0, message: message)])]).tracks[0].events[0].message == message)
            case .systemExclusive(let body):
                #expect(body.count <= 64 && body.allSatisfy { $0 < 0x80 })
            case .systemCommon(let status, let d1, let d2):
                #expect([0xF1, 0xF2, 0xF3, 0xF6].contains(status) && d1 < 0x80 && d2 < 0x80)
            case .realTime(let byte):
                #expect(byte >= 0xF8 && byte != 0xF9 && byte != 0xFD)
            }
        }
        #expect(count > 10_000)
    }
}
