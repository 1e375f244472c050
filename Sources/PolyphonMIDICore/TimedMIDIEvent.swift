/// An event of the merged, time-ordered stream over all tracks of a file: the message with the
/// track it came from and its time in ticks and seconds.
public struct TimedMIDIEvent: Sendable, Hashable {
    /// The index of the track the event is in.
    public var trackIndex: Int
    /// Ticks from the start of the song.
    public var tick: Int
    /// Seconds from the start of the song (through the file's tempo map).
    public var seconds: Double
    /// The message.
    public var message: MIDIMessage

    /// Creates a timed event.
    public init(trackIndex: Int, tick: Int, seconds: Double, message: MIDIMessage) {
        self.trackIndex = trackIndex
        self.tick = tick
        self.seconds = seconds
        self.message = message
    }
}

extension MIDIFile {
    /// The tempo map of the file (format 0/1), or of one track (format 2: each track is an
    /// independent pattern with its own tempo).
    public func tempoMap(track: Int? = nil) -> TempoMap {
        TempoMap(file: self, track: track)
    }

    /// Every event of every track in time order, with its track index, tick and time in seconds.
    ///
    /// Simultaneous events keep file order: the earlier track first, then the order within the
    /// track. This is the order a player sends them in. Format-2 tracks are timed each with its
    /// own tempo map, as if all patterns started together.
    public func timedEvents() -> [TimedMIDIEvent] {
        var keyed: [(tick: Int, track: Int, index: Int)] = []
        keyed.reserveCapacity(tracks.reduce(0) { $0 + $1.events.count })
        for (trackIndex, track) in tracks.enumerated() {
            for (index, event) in track.events.enumerated() {
                keyed.append((event.tick, trackIndex, index))
            }
        }
        keyed.sort { ($0.tick, $0.track, $0.index) < ($1.tick, $1.track, $1.index) }
        let maps: [TempoMap] = format == .independentTracks
            ? tracks.indices.map { tempoMap(track: $0) }
            : [tempoMap()]
        return keyed.map { key in
            let map = maps.count == 1 ? maps[0] : maps[key.track]
            return TimedMIDIEvent(trackIndex: key.track, tick: key.tick, seconds: map.seconds(atTick: key.tick),
                                  message: tracks[key.track].events[key.index].message)
        }
    }

    /// The length of the song in seconds: the time of the last event of any track (its end of
    /// track, when present), as `mido`'s `MidiFile.length` computes it. For format 2, the
    /// longest track with its own tempo map.
    public var duration: Double {
        let sharedMap = format == .independentTracks ? nil : tempoMap()
        var longest = 0.0
        for (index, track) in tracks.enumerated() {
            guard let lastTick = track.events.map({ $0.tick }).max() else { continue }
            let map = sharedMap ?? tempoMap(track: index)
            longest = max(longest, map.seconds(atTick: lastTick))
        }
        return longest
    }
}
