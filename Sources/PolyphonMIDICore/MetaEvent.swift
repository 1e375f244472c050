/// A meta event of a Standard MIDI File (status `FF`, a type byte, a length and data).
///
/// Every type the SMF 1.0 specification and its addenda define has its own case; any other type,
/// and any defined type whose data has a length other than the specified one, is kept as
/// ``unknown(type:data:)`` so that nothing is lost when the file is written again.
public enum MetaEvent: Sendable, Hashable {
    /// Sequence number (type `0x00`); `nil` when written with length 0, which means "use the
    /// track's position in the file".
    case sequenceNumber(UInt16?)
    /// A text event of type `0x01`…`0x0F` (text, copyright, track name, lyric, marker …).
    case text(MetaTextKind, MIDIText)
    /// MIDI channel prefix (type `0x20`): the channel (0…15) following meta and sysex events
    /// refer to.
    case channelPrefix(UInt8)
    /// MIDI port (type `0x21`): the output port the track's events go to.
    case port(UInt8)
    /// End of track (type `0x2F`), required as the last event of every track.
    case endOfTrack
    /// Set tempo (type `0x51`) in microseconds per quarter note (500 000 = 120 BPM).
    case tempo(microsecondsPerQuarterNote: UInt32)
    /// SMPTE offset (type `0x54`): the time the track starts at.
    case smpteOffset(SMPTEOffset)
    /// Time signature (type `0x58`).
    case timeSignature(TimeSignature)
    /// Key signature (type `0x59`).
    case keySignature(KeySignature)
    /// Sequencer-specific data (type `0x7F`), usually starting with a manufacturer ID.
    case sequencerSpecific([UInt8])
    /// Any other meta event, or a defined one whose length is not the specified one, kept raw.
    case unknown(type: UInt8, data: [UInt8])

    /// The meta type byte this event is written with.
    public var type: UInt8 {
        switch self {
        case .sequenceNumber: return 0x00
        case .text(let kind, _): return kind.rawValue
        case .channelPrefix: return 0x20
        case .port: return 0x21
        case .endOfTrack: return 0x2F
        case .tempo: return 0x51
        case .smpteOffset: return 0x54
        case .timeSignature: return 0x58
        case .keySignature: return 0x59
        case .sequencerSpecific: return 0x7F
        case .unknown(let type, _): return type
        }
    }

    /// The data bytes this event is written with (after the type and the length).
    public var data: [UInt8] {
        switch self {
        case .sequenceNumber(let number):
            guard let number else { return [] }
            return [UInt8(number >> 8), UInt8(number & 0xFF)]
        case .text(_, let text): return text.bytes
        case .channelPrefix(let channel): return [channel]
        case .port(let port): return [port]
        case .endOfTrack: return []
        case .tempo(let microseconds):
            return [UInt8((microseconds >> 16) & 0xFF), UInt8((microseconds >> 8) & 0xFF),
                    UInt8(microseconds & 0xFF)]
        case .smpteOffset(let offset):
            return [offset.hours, offset.minutes, offset.seconds, offset.frames, offset.fractionalFrames]
        case .timeSignature(let signature):
            return [signature.numerator, signature.denominatorExponent,
                    signature.clocksPerMetronomeClick, signature.thirtySecondNotesPerQuarterNote]
        case .keySignature(let key):
            return [UInt8(bitPattern: key.sharpsOrFlats), key.isMinor ? 1 : 0]
        case .sequencerSpecific(let bytes): return bytes
        case .unknown(_, let data): return data
        }
    }

    /// The text of a text event, decoded as UTF-8 or else Latin-1; `nil` for other events.
    public var text: String? {
        if case .text(_, let text) = self { return text.string }
        return nil
    }

    /// Decodes a meta event from its type and data.
    ///
    /// A defined type whose data length is not the one the specification gives becomes
    /// ``unknown(type:data:)`` (so it is written back unchanged) and `isWellFormed` is `false`,
    /// so that the reader can warn about it. End of track is the exception: it always ends the
    /// track, so it is decoded as ``endOfTrack`` whatever its length.
    init(type: UInt8, data: [UInt8], isWellFormed: inout Bool) {
        isWellFormed = true
        switch (type, data.count) {
        case (0x00, 0): self = .sequenceNumber(nil); return
        case (0x00, 2): self = .sequenceNumber(UInt16(data[0]) << 8 | UInt16(data[1])); return
        case (0x01...0x0F, _):
            self = .text(MetaTextKind(rawValue: type), MIDIText(bytes: data)); return
        case (0x20, 1): self = .channelPrefix(data[0]); return
        case (0x21, 1): self = .port(data[0]); return
        case (0x2F, let count):
            isWellFormed = count == 0
            self = .endOfTrack; return
        case (0x51, 3):
            self = .tempo(microsecondsPerQuarterNote: UInt32(data[0]) << 16 | UInt32(data[1]) << 8 | UInt32(data[2]))
            return
        case (0x54, 5):
            self = .smpteOffset(SMPTEOffset(hours: data[0], minutes: data[1], seconds: data[2],
                                            frames: data[3], fractionalFrames: data[4]))
            return
        case (0x58, 4):
            self = .timeSignature(TimeSignature(numerator: data[0], denominatorExponent: data[1],
                                                clocksPerMetronomeClick: data[2],
                                                thirtySecondNotesPerQuarterNote: data[3]))
            return
        case (0x59, 2):
            self = .keySignature(KeySignature(sharpsOrFlats: Int8(bitPattern: data[0]), isMinor: data[1] != 0))
            // Only 0 and 1 are defined for the mode byte; anything else stays raw to be lossless.
            if data[1] > 1 { self = .unknown(type: type, data: data); isWellFormed = false }
            return
        case (0x7F, _): self = .sequencerSpecific(data); return
        case (0x00, _), (0x20, _), (0x21, _), (0x51, _), (0x54, _), (0x58, _), (0x59, _):
            isWellFormed = false
        default:
            break
        }
        self = .unknown(type: type, data: data)
    }
}
