/// The events of one track chunk (`MTrk`) in file order, with absolute ticks.
///
/// A track read from a file ends with its end-of-track event as written (its tick can lie after
/// the last note, and that time counts in the song's duration). A track built in code does not
/// need one: the writer adds it.
public struct MIDITrack: Sendable, Hashable {
    /// The events in the order they are played; ticks never decrease.
    public var events: [MIDIEvent]

    /// Creates a track from events.
    public init(events: [MIDIEvent] = []) {
        self.events = events
    }

    /// The text of the first track-name meta event, if any.
    public var name: String? {
        for event in events {
            if case .meta(.text(let kind, let text)) = event.message, kind == .trackName {
                return text.string
            }
        }
        return nil
    }

    /// The tick of the last event (the end of track when present), 0 for an empty track.
    public var endTick: Int {
        events.last?.tick ?? 0
    }

    /// The channels (0…15) the track's channel voice messages use, in ascending order.
    public var channels: [UInt8] {
        var used = [Bool](repeating: false, count: 16)
        for event in events {
            if let channel = event.message.channel { used[Int(channel & 0x0F)] = true }
        }
        return (0..<16).filter { used[$0] }.map { UInt8($0) }
    }

    /// The number of notes the track plays (note-ons with a velocity above 0).
    public var noteCount: Int {
        events.reduce(0) { $0 + ($1.message.isNoteOn ? 1 : 0) }
    }
}
