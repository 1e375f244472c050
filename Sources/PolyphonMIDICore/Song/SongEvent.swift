/// One event of a ``Song`` track: what happens, when (in quarter notes), and its stable ID.
public struct SongEvent: Sendable, Hashable, Identifiable {
    /// The event's identity, stable across edits.
    public let id: SongEventID
    /// The position in quarter notes from the start of the song, on the song's tick grid.
    public var beat: Double
    /// What happens.
    public var kind: Kind

    /// Creates an event (normally a ``Song`` makes them, handing out the ID).
    public init(id: SongEventID, beat: Double, kind: Kind) {
        self.id = id
        self.beat = beat
        self.kind = kind
    }

    /// What an event does.
    ///
    /// Channels are 0…15, data values 0…127 and pitch bend 0…16383 with 8192 as the centre, as in
    /// ``MIDIMessage``. Tempo and time signatures are not track events: they belong to the song
    /// (``Song/tempoChanges`` and ``Song/timeSignatureChanges``), because every track shares them.
    public enum Kind: Sendable, Hashable {
        /// A note with its duration.
        case note(SongNote)
        /// A control change, including the channel mode messages 120…127.
        case controlChange(channel: UInt8, controller: UInt8, value: UInt8)
        /// A program change, optionally preceded by bank select (CC 0 MSB, CC 32 LSB).
        case programChange(channel: UInt8, program: UInt8, bankMSB: UInt8?, bankLSB: UInt8?)
        /// A pitch bend, 0…16383 (8192 is no bend).
        case pitchBend(channel: UInt8, value: UInt16)
        /// Channel pressure (aftertouch).
        case channelPressure(channel: UInt8, pressure: UInt8)
        /// Polyphonic key pressure.
        case polyphonicKeyPressure(channel: UInt8, key: UInt8, pressure: UInt8)
        /// A system exclusive packet introduced by `F0` (the bytes after it, as in a file).
        case systemExclusive([UInt8])
        /// An `F7` packet: a sysex continuation or an escape (see ``MIDIMessage/sysExContinuation(_:)``).
        case sysExContinuation([UInt8])
        /// A meta event other than tempo, time signature and end of track: names, lyrics,
        /// markers, cue points, key signatures, ports, sequencer-specific and unknown types.
        ///
        /// A tempo or time signature added here stays a plain track event: the song's tempo map
        /// and a player ignore it (use ``Song/setTempo(_:at:)`` and
        /// ``Song/setTimeSignature(_:at:)``), though an export writes it and a re-import then
        /// moves it into the song's map.
        case meta(MetaEvent)

        /// The channel of a channel event, `nil` for sysex and meta events.
        public var channel: UInt8? {
            switch self {
            case .note(let note): return note.channel
            case .controlChange(let channel, _, _), .programChange(let channel, _, _, _),
                 .pitchBend(let channel, _), .channelPressure(let channel, _),
                 .polyphonicKeyPressure(let channel, _, _):
                return channel
            case .systemExclusive, .sysExContinuation, .meta:
                return nil
            }
        }

        /// The category the event belongs to, for queries and callback filters.
        public var category: Category {
            switch self {
            case .note: return .note
            case .controlChange: return .controlChange
            case .programChange: return .programChange
            case .pitchBend: return .pitchBend
            case .channelPressure, .polyphonicKeyPressure: return .pressure
            case .systemExclusive, .sysExContinuation: return .systemExclusive
            case .meta(.text(let kind, _)) where kind == .lyric: return .lyric
            case .meta(.text(let kind, _)) where kind == .marker || kind == .cuePoint: return .marker
            case .meta: return .meta
            }
        }
    }

    /// Kinds of events, for ``Song/events(in:track:channel:categories:)`` and the player's
    /// event callbacks.
    public enum Category: Int, Sendable, Hashable, CaseIterable {
        /// Notes.
        case note
        /// Control changes.
        case controlChange
        /// Program changes.
        case programChange
        /// Pitch bends.
        case pitchBend
        /// Channel and polyphonic key pressure.
        case pressure
        /// System exclusive packets.
        case systemExclusive
        /// Lyric meta events.
        case lyric
        /// Marker and cue point meta events.
        case marker
        /// Every other meta event.
        case meta
    }
}
