/// One message of a Standard MIDI File track: a channel voice message, a system exclusive
/// packet or a meta event.
///
/// Channel numbers are 0…15 (MIDI channel 1 is `0`), data values 0…127 and pitch bend 0…16383
/// with 8192 as the centre. The writer masks out-of-range values to those widths, so a message
/// built in code can never produce an invalid byte stream.
///
/// A note-on with velocity 0 is kept as written, because rewriting it would change the bytes of a
/// file on a round trip; use ``isNoteOff`` and ``isNoteOn`` to get the musical meaning.
public enum MIDIMessage: Sendable, Hashable {
    /// Note off (status `0x8n`).
    case noteOff(channel: UInt8, note: UInt8, velocity: UInt8)
    /// Note on (status `0x9n`); velocity 0 means note off (see ``isNoteOff``).
    case noteOn(channel: UInt8, note: UInt8, velocity: UInt8)
    /// Polyphonic key pressure, also called aftertouch (status `0xAn`).
    case polyphonicKeyPressure(channel: UInt8, note: UInt8, pressure: UInt8)
    /// Control change (status `0xBn`), including the channel mode messages 120…127.
    case controlChange(channel: UInt8, controller: UInt8, value: UInt8)
    /// Program change (status `0xCn`).
    case programChange(channel: UInt8, program: UInt8)
    /// Channel pressure (status `0xDn`).
    case channelPressure(channel: UInt8, pressure: UInt8)
    /// Pitch bend (status `0xEn`), the 14-bit value LSB first on the wire; 8192 is no bend.
    case pitchBend(channel: UInt8, value: UInt16)
    /// A system exclusive packet introduced by `F0`: the bytes after the length, as written.
    ///
    /// A complete message ends with `F7`; a message split into packets omits it here and
    /// continues in ``sysExContinuation(_:)`` packets.
    case systemExclusive([UInt8])
    /// An `F7` packet: either the continuation of a split system exclusive message or an
    /// "escape" carrying arbitrary bytes (for example real-time messages) to send as they are.
    /// Kept apart from ``systemExclusive(_:)`` because the two are written differently.
    case sysExContinuation([UInt8])
    /// A meta event (status `FF`): data about the song that is never sent to a synthesizer.
    case meta(MetaEvent)

    /// The channel (0…15) of a channel voice message, `nil` for system exclusive and meta events.
    public var channel: UInt8? {
        switch self {
        case .noteOff(let channel, _, _), .noteOn(let channel, _, _),
             .polyphonicKeyPressure(let channel, _, _), .controlChange(let channel, _, _),
             .programChange(let channel, _), .channelPressure(let channel, _),
             .pitchBend(let channel, _):
            return channel
        case .systemExclusive, .sysExContinuation, .meta:
            return nil
        }
    }

    /// Whether this is a channel voice message (it has a ``channel``).
    public var isChannelMessage: Bool { channel != nil }

    /// Whether this message starts a note: a note-on with a velocity above 0.
    public var isNoteOn: Bool {
        if case .noteOn(_, _, let velocity) = self { return velocity > 0 }
        return false
    }

    /// Whether this message ends a note: a note-off, or a note-on with velocity 0 (the form
    /// running status encourages, since it keeps the status byte unchanged).
    public var isNoteOff: Bool {
        switch self {
        case .noteOff: return true
        case .noteOn(_, _, let velocity): return velocity == 0
        default: return false
        }
    }

    /// The meta event this message carries, if it is one.
    public var metaEvent: MetaEvent? {
        if case .meta(let event) = self { return event }
        return nil
    }

    /// Whether this is the end-of-track meta event.
    public var isEndOfTrack: Bool {
        if case .meta(.endOfTrack) = self { return true }
        return false
    }

    /// The status byte a channel voice message is written with, `nil` for other messages.
    var channelStatusByte: UInt8? {
        switch self {
        case .noteOff(let channel, _, _): return 0x80 | (channel & 0x0F)
        case .noteOn(let channel, _, _): return 0x90 | (channel & 0x0F)
        case .polyphonicKeyPressure(let channel, _, _): return 0xA0 | (channel & 0x0F)
        case .controlChange(let channel, _, _): return 0xB0 | (channel & 0x0F)
        case .programChange(let channel, _): return 0xC0 | (channel & 0x0F)
        case .channelPressure(let channel, _): return 0xD0 | (channel & 0x0F)
        case .pitchBend(let channel, _): return 0xE0 | (channel & 0x0F)
        case .systemExclusive, .sysExContinuation, .meta: return nil
        }
    }

    /// The data bytes that follow the status byte of a channel voice message.
    var channelDataBytes: [UInt8] {
        switch self {
        case .noteOff(_, let note, let velocity), .noteOn(_, let note, let velocity):
            return [note & 0x7F, velocity & 0x7F]
        case .polyphonicKeyPressure(_, let note, let pressure):
            return [note & 0x7F, pressure & 0x7F]
        case .controlChange(_, let controller, let value):
            return [controller & 0x7F, value & 0x7F]
        case .programChange(_, let program):
            return [program & 0x7F]
        case .channelPressure(_, let pressure):
            return [pressure & 0x7F]
        case .pitchBend(_, let value):
            return [UInt8(value & 0x7F), UInt8((value >> 7) & 0x7F)]
        case .systemExclusive, .sysExContinuation, .meta:
            return []
        }
    }
}
