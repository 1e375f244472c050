/// An editable song: tracks of events in musical time, with the tempo map and time signatures
/// they share.
///
/// The issue that asked for this type called it a "`Sequence` of `Track`s". It is named `Song`
/// because a public type named `Sequence` would shadow Swift's `Sequence` protocol in every file
/// that imports this module; its tracks are ``Song/Track``.
///
/// Positions are quarter notes (`Double`) rounded to the song's tick grid
/// (``ticksPerQuarterNote``, 480 by default), so a song written to a Standard MIDI File at that
/// resolution and read back has exactly the same positions. Every event added gets a
/// ``SongEventID`` that stays the same while the event is moved or changed; find, move, change
/// and remove events by ID.
///
/// ```swift
/// var song = Song()
/// song.replaceTempo(240)
/// let track = song.addTrack()
/// let id = song.add(.note(SongNote(key: 60, duration: 1)), at: 0, toTrack: track)
/// song.moveEvent(id, to: 2)
/// ```
public struct Song: Sendable, Hashable {
    /// A track: events in time order (events at the same position keep the order they were added).
    public struct Track: Sendable, Hashable {
        /// The events, sorted by ``SongEvent/beat``.
        public internal(set) var events: [SongEvent]
        /// Where the track explicitly ends (its end-of-track event), when that is after its last
        /// event; `nil` means it ends with its last event.
        public var endBeat: Double?

        /// Creates an empty track.
        public init() {
            events = []
            endBeat = nil
        }

        /// The track's name: the text of its first track-name meta event.
        public var name: String? {
            for event in events {
                if case .meta(.text(let kind, let text)) = event.kind, kind == .trackName { return text.string }
            }
            return nil
        }

        /// Inserts an event after every event at or before its position.
        mutating func insert(_ event: SongEvent) {
            var low = 0, high = events.count
            while low < high {
                let middle = (low + high) / 2
                if events[middle].beat <= event.beat { low = middle + 1 } else { high = middle }
            }
            events.insert(event, at: low)
        }

        /// The index of the event with an ID.
        func index(of id: SongEventID) -> Int? {
            events.firstIndex { $0.id == id }
        }
    }

    /// The tracks, in order. Edit them through the song's methods so IDs stay consistent.
    public private(set) var tracks: [Track]
    /// Tempo changes in beat order; 120 BPM before the first one.
    public internal(set) var tempoChanges: [TempoChange]
    /// Time signature changes in beat order; 4/4 before the first one.
    public internal(set) var timeSignatureChanges: [TimeSignatureChange]
    /// The resolution positions are rounded to, in ticks per quarter note (1…32767).
    public let ticksPerQuarterNote: Int

    private var nextID: UInt64 = 1
    /// Which track each event is in, so finding an event by ID looks at one track only.
    private var trackOfEvent: [SongEventID: Int] = [:]

    /// Creates an empty song.
    ///
    /// - Parameters:
    ///   - ticksPerQuarterNote: the tick grid positions are rounded to (clamped to 1…32767).
    ///   - beatsPerMinute: an initial tempo at beat 0; without one the song plays at 120 BPM.
    public init(ticksPerQuarterNote: Int = 480, beatsPerMinute: Double? = nil) {
        self.ticksPerQuarterNote = min(max(ticksPerQuarterNote, 1), 32767)
        tracks = []
        tempoChanges = []
        timeSignatureChanges = []
        if let beatsPerMinute { setTempo(beatsPerMinute, at: 0) }
    }

    /// A position rounded to the song's tick grid (and to 0 when negative).
    public func quantized(_ beat: Double) -> Double {
        guard beat.isFinite, beat > 0 else { return 0 }
        let ticks = Double(ticksPerQuarterNote)
        return (beat * ticks).rounded() / ticks
    }

    // MARK: - Tracks

    /// Appends an empty track and returns its index.
    @discardableResult
    public mutating func addTrack() -> Int {
        tracks.append(Track())
        return tracks.count - 1
    }

    /// Removes a track and its events; returns the removed track. Later tracks move down.
    @discardableResult
    public mutating func removeTrack(at index: Int) -> Track {
        let removed = tracks.remove(at: index)
        rebuildIndex()
        return removed
    }

    /// Sets where a track ends (its end-of-track event), rounded to the tick grid; `nil` ends it
    /// with its last event.
    public mutating func setEnd(ofTrack index: Int, to beat: Double?) {
        tracks[index].endBeat = beat.map(quantized)
    }

    // MARK: - Adding and finding events

    /// Adds an event to a track and returns its new ID.
    ///
    /// - Parameters:
    ///   - kind: what happens; a note's duration is rounded to the tick grid.
    ///   - beat: where, in quarter notes (rounded to the tick grid).
    ///   - track: the track's index; it must exist.
    @discardableResult
    public mutating func add(_ kind: SongEvent.Kind, at beat: Double, toTrack track: Int) -> SongEventID {
        precondition(tracks.indices.contains(track), "Song has no track \(track)")
        let id = SongEventID(rawValue: nextID)
        nextID += 1
        tracks[track].insert(SongEvent(id: id, beat: quantized(beat), kind: normalized(kind)))
        trackOfEvent[id] = track
        return id
    }

    /// Adds a note to a track and returns its ID.
    @discardableResult
    public mutating func addNote(_ key: UInt8, velocity: UInt8 = 64, duration: Double, channel: UInt8 = 0,
                                 at beat: Double, toTrack track: Int) -> SongEventID {
        add(.note(SongNote(key: key, velocity: velocity, duration: duration, channel: channel)), at: beat, toTrack: track)
    }

    /// The event with an ID, or `nil` when the song has none (it was removed).
    public func event(_ id: SongEventID) -> SongEvent? {
        guard let track = trackOfEvent[id], let index = tracks[track].index(of: id) else { return nil }
        return tracks[track].events[index]
    }

    /// The index of the track holding an event.
    public func trackIndex(of id: SongEventID) -> Int? {
        trackOfEvent[id]
    }

    /// Events matching every given criterion, in time order (ties: track order, then the order
    /// within the track).
    ///
    /// - Parameters:
    ///   - range: positions in quarter notes; an event matches when its start is in the range.
    ///   - track: only this track.
    ///   - channel: only channel events on this channel.
    ///   - categories: only events of these kinds.
    public func events(in range: Range<Double>? = nil, track: Int? = nil, channel: UInt8? = nil,
                       categories: Set<SongEvent.Category>? = nil) -> [SongEvent] {
        var result: [(beat: Double, track: Int, index: Int, event: SongEvent)] = []
        for (trackIndex, candidate) in tracks.enumerated() where track == nil || track == trackIndex {
            for (index, event) in candidate.events.enumerated() {
                if let range, !range.contains(event.beat) { continue }
                if let channel, event.kind.channel != channel { continue }
                if let categories, !categories.contains(event.kind.category) { continue }
                result.append((event.beat, trackIndex, index, event))
            }
        }
        result.sort { ($0.beat, $0.track, $0.index) < ($1.beat, $1.track, $1.index) }
        return result.map { $0.event }
    }

    /// Every event of every track, in time order.
    public var allEvents: [SongEvent] { events() }

    // MARK: - Editing by ID

    /// Moves an event to a new position (rounded to the tick grid); returns whether it exists.
    @discardableResult
    public mutating func moveEvent(_ id: SongEventID, to beat: Double) -> Bool {
        guard let track = trackOfEvent[id], let index = tracks[track].index(of: id) else { return false }
        var event = tracks[track].events.remove(at: index)
        event.beat = quantized(beat)
        tracks[track].insert(event)
        return true
    }

    /// Moves an event to another track, keeping its position and ID; returns whether it exists.
    @discardableResult
    public mutating func moveEvent(_ id: SongEventID, toTrack newTrack: Int) -> Bool {
        precondition(tracks.indices.contains(newTrack), "Song has no track \(newTrack)")
        guard let track = trackOfEvent[id], let index = tracks[track].index(of: id) else { return false }
        let event = tracks[track].events.remove(at: index)
        tracks[newTrack].insert(event)
        trackOfEvent[id] = newTrack
        return true
    }

    /// Replaces what an event does, keeping its ID and position; returns whether it exists.
    @discardableResult
    public mutating func changeEvent(_ id: SongEventID, to kind: SongEvent.Kind) -> Bool {
        guard let track = trackOfEvent[id], let index = tracks[track].index(of: id) else { return false }
        tracks[track].events[index].kind = normalized(kind)
        return true
    }

    /// Changes an event in place (its kind; the position through ``moveEvent(_:to:)``); returns
    /// whether it exists.
    @discardableResult
    public mutating func changeEvent(_ id: SongEventID, _ body: (inout SongEvent.Kind) -> Void) -> Bool {
        guard let current = event(id) else { return false }
        var kind = current.kind
        body(&kind)
        return changeEvent(id, to: kind)
    }

    /// Removes an event; returns it, or `nil` when the song has no event with that ID.
    @discardableResult
    public mutating func removeEvent(_ id: SongEventID) -> SongEvent? {
        guard let track = trackOfEvent[id], let index = tracks[track].index(of: id) else { return nil }
        trackOfEvent[id] = nil
        return tracks[track].events.remove(at: index)
    }

    // MARK: - Helpers

    /// A note's duration rounded to the tick grid; other kinds unchanged.
    private func normalized(_ kind: SongEvent.Kind) -> SongEvent.Kind {
        guard case .note(var note) = kind else { return kind }
        note.duration = quantized(note.duration)
        return .note(note)
    }

    private mutating func rebuildIndex() {
        trackOfEvent.removeAll(keepingCapacity: true)
        for (trackIndex, track) in tracks.enumerated() {
            for event in track.events { trackOfEvent[event.id] = trackIndex }
        }
    }
}
