import Testing

import PolyphonMIDI
@testable import PolyphonMIDICore

/// `MIDIMessage(bytes:)`: one complete message, as Web MIDI, the jam page and the WebAssembly
/// module hand them over.
@Suite("One MIDI message from its bytes")
struct MIDIMessageBytesTests {
    @Test func everyChannelVoiceMessageReadsBackFromWhatTheWriterWrites() throws {
        let messages: [MIDIMessage] = [
            .noteOff(channel: 0, note: 60, velocity: 64), .noteOn(channel: 15, note: 127, velocity: 0),
            .polyphonicKeyPressure(channel: 3, note: 1, pressure: 2), .controlChange(channel: 9, controller: 121, value: 0),
            .programChange(channel: 4, program: 127), .channelPressure(channel: 5, pressure: 99),
            .pitchBend(channel: 1, value: 0), .pitchBend(channel: 1, value: 16383), .pitchBend(channel: 2, value: 8192),
        ]
        for message in messages {
            let bytes = [message.channelStatusByte!] + message.channelDataBytes
            #expect(try MIDIMessage(bytes: bytes) == message)
            // The same bytes in place, as the WebAssembly module reads them.
            #expect(try bytes.withUnsafeBufferPointer { buffer throws(MIDIMessage.BytesError) in try MIDIMessage(bytes: buffer) } == message)
        }
    }

    @Test func aSysExKeepsItsClosingF7() throws {
        #expect(try MIDIMessage(bytes: [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7]) == .systemExclusive([0x7E, 0x7F, 0x09, 0x01, 0xF7]))
        #expect(try MIDIMessage(bytes: [0xF0, 0xF7]) == .systemExclusive([0xF7]))
    }

    @Test func aSliceIsReadFromItsOwnStart() throws {
        let packet: [UInt8] = [0xFE, 0x93, 60, 100, 0xF8]
        #expect(try MIDIMessage(bytes: packet[1..<4]) == .noteOn(channel: 3, note: 60, velocity: 100))
        #expect(throws: MIDIMessage.BytesError.statusByteInData(offset: 3, byte: 0xF8)) { try MIDIMessage(bytes: packet[1...]) }
    }

    @Test(arguments: [
        ([], MIDIMessage.BytesError.empty),
        ([60, 100], .missingStatus(60)),
        ([0xF8], .unsupportedStatus(0xF8)),
        ([0xF2, 0, 0], .unsupportedStatus(0xF2)),
        ([0xF7], .unsupportedStatus(0xF7)),
        ([0x90, 60], .wrongLength(status: 0x90, count: 2, expected: 3)),
        ([0xC0, 5, 0], .wrongLength(status: 0xC0, count: 3, expected: 2)),
        ([0x90, 60, 0x80], .statusByteInData(offset: 2, byte: 0x80)),
        ([0xF0, 1, 0x90, 2, 0xF7], .statusByteInData(offset: 2, byte: 0x90)),
        ([0xF0, 1, 0xF7, 2], .statusByteInData(offset: 2, byte: 0xF7)),
        ([0xF0, 1, 2], .unterminatedSysEx),
        ([0xF0], .unterminatedSysEx),
    ] as [([UInt8], MIDIMessage.BytesError)])
    func anythingButOneCompleteMessageThrowsWhy(bytes: [UInt8], error: MIDIMessage.BytesError) {
        #expect(throws: error) { try MIDIMessage(bytes: bytes) }
    }

    @Test func theReasonReadsAsOneLine() {
        #expect(MIDIMessage.BytesError.statusByteInData(offset: 2, byte: 0x90).description
                == "byte 2 is 0x90, a status byte where a data byte belongs")
        #expect(MIDIMessage.BytesError.wrongLength(status: 0xC3, count: 3, expected: 2).description
                == "status 0xC3 takes 2 bytes, not 3")
        #expect(MIDIMessage.BytesError.missingStatus(5).description == "starts with the data byte 0x05, not a status byte")
    }
}
