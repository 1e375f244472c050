/// One message recovered from a raw MIDI byte stream (a serial port, a pipe, stdin).
public enum MIDIStreamMessage: Equatable, Sendable {
    /// A channel voice message (note, controller, program, pressure, pitch bend).
    case channelVoice(MIDIMessage)
    /// A system-exclusive message's body, without the F0 and F7 that frame it.
    case systemExclusive([UInt8])
    /// A system common message (F1 time code, F2 song position, F3 song select, F6 tune
    /// request), with its data bytes (0 when absent).
    case systemCommon(status: UInt8, data1: UInt8, data2: UInt8)
    /// A one-byte real-time message (F8 clock, FA start, FB continue, FC stop, FE active
    /// sensing, FF reset).
    case realTime(UInt8)
}

/// Turns a raw MIDI byte stream into messages, as a MIDI input port would: running status,
/// real-time bytes anywhere (even inside another message), and system exclusive.
///
/// The rules follow the MIDI 1.0 specification: a channel status byte is remembered for the
/// data bytes that follow it (running status) until a system common or system-exclusive status
/// clears it; real-time bytes (F8–FF) neither interrupt nor clear anything; data bytes with no
/// status to belong to are dropped; a status byte (other than a real-time one) inside a SysEx
/// ends it (a tune request, F6, that ends a SysEx this way is dropped with it: one byte in
/// gives at most one message out). Undefined status bytes (F4, F5) are dropped and clear
/// running status; the undefined real-time bytes F9 and FD are dropped and change nothing.
/// A SysEx longer than ``maximumSysExLength`` is dropped whole rather than grown without bound.
public struct MIDIByteStreamParser: Sendable {
    /// The longest SysEx body kept; longer ones are dropped.
    public let maximumSysExLength: Int
    /// SysEx messages dropped for being longer than ``maximumSysExLength``.
    public private(set) var droppedSysExCount = 0
    /// Data bytes dropped because no status byte came before them.
    public private(set) var strayDataByteCount = 0

    private var status: UInt8 = 0
    private var data: (UInt8, UInt8) = (0, 0)
    private var dataCount = 0
    private var inSysEx = false
    private var sysExOverflow = false
    private var sysEx: [UInt8] = []

    /// A parser that keeps SysEx bodies up to `maximumSysExLength` bytes.
    public init(maximumSysExLength: Int = 65_536) {
        self.maximumSysExLength = maximumSysExLength
    }

    /// Data bytes a status byte takes.
    static func dataLength(_ status: UInt8) -> Int {
        switch status {
        case 0x80...0xBF, 0xE0...0xEF: return 2
        case 0xC0...0xDF: return 1
        case 0xF1, 0xF3: return 1
        case 0xF2: return 2
        default: return 0
        }
    }

    /// Feeds one byte; returns the message it completes, if any.
    public mutating func parse(_ byte: UInt8) -> MIDIStreamMessage? {
        if byte >= 0xF8 {
            // Real-time: delivered at once, leaves everything else as it was. FD and F9 are
            // undefined but still single bytes that must not disturb a message in progress.
            return byte == 0xF9 || byte == 0xFD ? nil : .realTime(byte)
        }
        if byte >= 0x80 {
            let finishedSysEx = inSysEx ? endSysEx() : nil
            switch byte {
            case 0xF0:
                inSysEx = true
                sysExOverflow = false
                sysEx.removeAll(keepingCapacity: true)
                status = 0
            case 0xF7:
                status = 0  // a stray end-of-exclusive, or the one just handled
            case 0xF6:
                status = 0
                return finishedSysEx ?? .systemCommon(status: 0xF6, data1: 0, data2: 0)
            case 0xF1...0xF5:
                status = byte == 0xF4 || byte == 0xF5 ? 0 : byte
            default:
                status = byte
            }
            dataCount = 0
            return finishedSysEx
        }
        if inSysEx {
            if sysEx.count < maximumSysExLength { sysEx.append(byte) } else { sysExOverflow = true }
            return nil
        }
        guard status != 0 else {
            strayDataByteCount += 1
            return nil
        }
        if dataCount == 0 { data.0 = byte } else { data.1 = byte }
        dataCount += 1
        let needed = Self.dataLength(status)
        guard dataCount == needed else { return nil }
        dataCount = 0
        let message: MIDIStreamMessage
        if status >= 0xF0 {
            message = .systemCommon(status: status, data1: data.0, data2: needed == 2 ? data.1 : 0)
            status = 0  // system common messages have no running status
        } else {
            message = .channelVoice(MIDIMessage(status: status, data1: data.0, data2: needed == 2 ? data.1 : 0))
        }
        return message
    }

    /// Feeds many bytes; returns the messages they complete, in order.
    public mutating func parse(_ bytes: some Sequence<UInt8>) -> [MIDIStreamMessage] {
        var messages: [MIDIStreamMessage] = []
        for byte in bytes {
            if let message = parse(byte) { messages.append(message) }
        }
        return messages
    }

    private mutating func endSysEx() -> MIDIStreamMessage? {
        inSysEx = false
        if sysExOverflow {
            droppedSysExCount += 1
            return nil
        }
        return .systemExclusive(sysEx)
    }
}
