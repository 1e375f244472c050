// Bytes → MIDIMessage: the one place that knows how a message looks on the wire. The file reader
// and the byte-stream parser, which also follow running status, build their channel messages
// with init(status:data1:data2:); whole messages (from a web page, Web MIDI, a JavaScript
// caller) are read with init(bytes:).
extension MIDIMessage {
    /// Why bytes are not one complete MIDI message (``MIDIMessage/init(bytes:)``).
    public enum BytesError: Error, Hashable, Sendable, CustomStringConvertible {
        /// There are no bytes.
        case empty
        /// The first byte is a data byte (below `0x80`): running status needs a stream
        /// (``MIDIByteStreamParser``), not a single message.
        case missingStatus(UInt8)
        /// A status a ``MIDIMessage`` does not hold: system common or real-time (`F1`…`FF`),
        /// or an `F7` with no `F0` before it.
        case unsupportedStatus(UInt8)
        /// A channel message with other than the one or two data bytes its status calls for.
        case wrongLength(status: UInt8, count: Int, expected: Int)
        /// A byte with the high bit set where a data byte belongs, at `offset` in the message.
        case statusByteInData(offset: Int, byte: UInt8)
        /// A system-exclusive message that does not end with `F7`.
        case unterminatedSysEx
    }

    /// The number of data bytes that follow a channel status byte (high nibble `0x8`…`0xE`).
    public static func dataByteCount(forStatus status: UInt8) -> Int {
        switch status & 0xF0 {
        case 0xC0, 0xD0: return 1
        default: return 2
        }
    }

    /// Reads one complete message as it travels on a MIDI cable or through Web MIDI: a channel
    /// voice message (status `0x80`…`0xEF` and exactly the data bytes it takes) or a
    /// system-exclusive message (`F0`, data bytes, `F7`, kept as ``systemExclusive(_:)`` with
    /// its final `F7`).
    ///
    /// Anything else throws: an empty or truncated message, a stray status byte, or a status
    /// a ``MIDIMessage`` does not hold (system common and real-time messages, which a
    /// synthesizer or a file track has no use for).
    public init(bytes: some Collection<UInt8>) throws(BytesError) {
        guard let status = bytes.first else { throw .empty }
        guard status >= 0x80 else { throw .missingStatus(status) }
        guard status <= 0xF0 else { throw .unsupportedStatus(status) }
        // Every byte after the status is a 7-bit data byte, except a SysEx's closing F7.
        var offset = 1
        var data: (UInt8, UInt8) = (0, 0)
        var closed = false
        for byte in bytes.dropFirst() {
            if closed { throw .statusByteInData(offset: offset - 1, byte: 0xF7) }
            if byte == 0xF7 && status == 0xF0 {
                closed = true
            } else if byte >= 0x80 {
                throw .statusByteInData(offset: offset, byte: byte)
            }
            if offset == 1 { data.0 = byte } else if offset == 2 { data.1 = byte }
            offset += 1
        }
        if status == 0xF0 {
            guard closed else { throw .unterminatedSysEx }
            self = .systemExclusive(Array(bytes.dropFirst()))
            return
        }
        let expected = 1 + Self.dataByteCount(forStatus: status)
        guard offset == expected else { throw .wrongLength(status: status, count: offset, expected: expected) }
        self.init(status: status, data1: data.0, data2: data.1)
    }

    /// The channel voice message a status byte (`0x80`…`0xEF`, channel in the low nibble) and
    /// its data bytes make, as they arrive from a device or a raw stream; nil for any other
    /// status. Data bytes are 7-bit: higher bits are ignored, as on the wire.
    public init?(channelVoiceStatus status: UInt8, data1: UInt8, data2: UInt8 = 0) {
        guard status >= 0x80 && status < 0xF0 else { return nil }
        self.init(status: status, data1: data1 & 0x7F, data2: data2 & 0x7F)
    }

    /// Builds a channel voice message from its status byte and data bytes (already checked to
    /// be below 0x80 by the reader).
    init(status: UInt8, data1: UInt8, data2: UInt8) {
        let channel = status & 0x0F
        switch status & 0xF0 {
        case 0x80: self = .noteOff(channel: channel, note: data1, velocity: data2)
        case 0x90: self = .noteOn(channel: channel, note: data1, velocity: data2)
        case 0xA0: self = .polyphonicKeyPressure(channel: channel, note: data1, pressure: data2)
        case 0xB0: self = .controlChange(channel: channel, controller: data1, value: data2)
        case 0xC0: self = .programChange(channel: channel, program: data1)
        case 0xD0: self = .channelPressure(channel: channel, pressure: data1)
        default: self = .pitchBend(channel: channel, value: UInt16(data1) | UInt16(data2) << 7)
        }
    }
}

extension MIDIMessage.BytesError {
    /// One line, for example `byte 2 is 0x90, a status byte where a data byte belongs`.
    public var description: String {
        switch self {
        case .empty: return "no bytes"
        case .missingStatus(let byte):
            return "starts with the data byte \(hex(byte)), not a status byte"
        case .unsupportedStatus(let byte):
            return "status \(hex(byte)) is not a channel voice or system-exclusive message"
        case .wrongLength(let status, let count, let expected):
            return "status \(hex(status)) takes \(expected) bytes, not \(count)"
        case .statusByteInData(let offset, let byte):
            return "byte \(offset) is \(hex(byte)), a status byte where a data byte belongs"
        case .unterminatedSysEx: return "system exclusive without its closing F7"
        }
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (byte < 0x10 ? "0" + digits : digits)
    }
}
