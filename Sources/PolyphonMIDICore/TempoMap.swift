/// Converts between ticks, seconds and beats (quarter notes) across the tempo changes of a file.
///
/// The map is piecewise linear: each tempo change starts a segment in which seconds and beats
/// grow at a constant rate per tick. With a PPQN division a tick is a fixed fraction of a beat
/// and the tempo sets its length in seconds; with an SMPTE division a tick is a fixed fraction of
/// a second (29.97 fps for the drop-frame code 29) and the tempo only sets how long a beat is.
/// Before the first tempo event the tempo is 120 BPM (500 000 µs per quarter note).
public struct TempoMap: Sendable, Hashable {
    /// A point where the tempo changes, with the time it happens at.
    public struct Change: Sendable, Hashable {
        /// The tick of the tempo event.
        public var tick: Int
        /// The new tempo in microseconds per quarter note.
        public var microsecondsPerQuarterNote: UInt32
        /// Seconds from the start at this tick.
        public var seconds: Double
        /// Quarter notes from the start at this tick.
        public var beats: Double

        /// The tempo in quarter notes per minute.
        public var beatsPerMinute: Double {
            microsecondsPerQuarterNote == 0 ? .infinity : 60_000_000 / Double(microsecondsPerQuarterNote)
        }
    }

    /// The tempo before any tempo event.
    public static let defaultMicrosecondsPerQuarterNote: UInt32 = 500_000

    /// What a tick means.
    public let division: Division
    /// The segments in tick order; the first starts at tick 0 (with the default tempo when no
    /// tempo event is at tick 0). When several tempo events share a tick, the last one wins.
    public let changes: [Change]

    /// Builds a map from tempo events.
    ///
    /// - Parameters:
    ///   - division: the file's time division, which ticks are counted in.
    ///   - tempoEvents: ticks and tempos in any order; events at the same tick keep their order,
    ///     so the later one is in effect.
    public init(division: Division, tempoEvents: [(tick: Int, microsecondsPerQuarterNote: UInt32)]) {
        self.division = division
        let sorted = tempoEvents.enumerated()
            .sorted { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }
            .map { $0.element }
        var changes = [Change(tick: 0, microsecondsPerQuarterNote: Self.defaultMicrosecondsPerQuarterNote,
                              seconds: 0, beats: 0)]
        for event in sorted {
            let tick = max(0, event.tick)
            let last = changes[changes.count - 1]
            if tick == last.tick {
                changes[changes.count - 1].microsecondsPerQuarterNote = event.microsecondsPerQuarterNote
                continue
            }
            let rates = Self.rates(division: division, microsecondsPerQuarterNote: last.microsecondsPerQuarterNote)
            let ticks = Double(tick - last.tick)
            changes.append(Change(tick: tick, microsecondsPerQuarterNote: event.microsecondsPerQuarterNote,
                                  seconds: last.seconds + ticks * rates.secondsPerTick,
                                  beats: last.beats + ticks * rates.beatsPerTick))
        }
        self.changes = changes
    }

    /// The map of a file: for formats 0 and 1 the tempo events of all tracks (the tempo is
    /// global, and `track` is ignored); for format 2 those of `track` only (the first track when
    /// `nil`), since each format-2 track is an independent pattern.
    public init(file: MIDIFile, track: Int? = nil) {
        let tracks: ArraySlice<MIDITrack>
        if let track, file.tracks.indices.contains(track), file.format == .independentTracks {
            tracks = file.tracks[track...track]
        } else if file.format == .independentTracks {
            tracks = file.tracks.prefix(1)
        } else {
            tracks = file.tracks[...]
        }
        var events: [(tick: Int, microsecondsPerQuarterNote: UInt32)] = []
        for track in tracks {
            for event in track.events {
                if case .meta(.tempo(let microseconds)) = event.message {
                    events.append((event.tick, microseconds))
                }
            }
        }
        self.init(division: file.division, tempoEvents: events)
    }

    /// Seconds and beats per tick at a tempo.
    private static func rates(division: Division, microsecondsPerQuarterNote: UInt32) -> (secondsPerTick: Double, beatsPerTick: Double) {
        let secondsPerBeat = Double(microsecondsPerQuarterNote) / 1_000_000
        switch division {
        case .ticksPerQuarterNote(let ticks):
            let ticksPerBeat = Double(max(ticks, 1))
            return (secondsPerBeat / ticksPerBeat, 1 / ticksPerBeat)
        case .smpte(let framesPerSecond, let ticksPerFrame):
            let secondsPerTick = 1 / (Division.frameRate(forCode: framesPerSecond) * Double(max(ticksPerFrame, 1)))
            return (secondsPerTick, secondsPerBeat > 0 ? secondsPerTick / secondsPerBeat : 0)
        }
    }

    private func rates(of change: Change) -> (secondsPerTick: Double, beatsPerTick: Double) {
        Self.rates(division: division, microsecondsPerQuarterNote: change.microsecondsPerQuarterNote)
    }

    /// The segment a tick falls in (binary search).
    private func change(atTick tick: Double) -> Change {
        segment { Double($0.tick) <= tick }
    }

    /// The last change for which `isAtOrBefore` holds (the predicate is monotone over `changes`).
    private func segment(_ isAtOrBefore: (Change) -> Bool) -> Change {
        var low = 0, high = changes.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if isAtOrBefore(changes[middle]) { low = middle } else { high = middle - 1 }
        }
        return changes[low]
    }

    /// Seconds from the start of the song at `tick`.
    public func seconds(atTick tick: Int) -> Double {
        seconds(atTick: Double(tick))
    }

    /// Seconds from the start of the song at a fractional tick.
    public func seconds(atTick tick: Double) -> Double {
        let change = change(atTick: tick)
        return change.seconds + (tick - Double(change.tick)) * rates(of: change).secondsPerTick
    }

    /// Quarter notes from the start of the song at a fractional tick.
    public func beats(atTick tick: Double) -> Double {
        let change = change(atTick: tick)
        return change.beats + (tick - Double(change.tick)) * rates(of: change).beatsPerTick
    }

    /// Quarter notes from the start of the song at `tick`.
    public func beats(atTick tick: Int) -> Double {
        beats(atTick: Double(tick))
    }

    /// The (fractional) tick at a time in seconds; the inverse of ``seconds(atTick:)-(Int)``.
    /// Where the tempo is 0 µs (time stands still) the first such tick is returned.
    public func tick(atSeconds seconds: Double) -> Double {
        let change = segment { $0.seconds <= seconds }
        let rate = rates(of: change).secondsPerTick
        guard rate > 0 else { return Double(change.tick) }
        return Double(change.tick) + (seconds - change.seconds) / rate
    }

    /// The (fractional) tick at a position in quarter notes; the inverse of ``beats(atTick:)-(Int)``.
    public func tick(atBeats beats: Double) -> Double {
        let change = segment { $0.beats <= beats }
        let rate = rates(of: change).beatsPerTick
        guard rate > 0 else { return Double(change.tick) }
        return Double(change.tick) + (beats - change.beats) / rate
    }

    /// Seconds at a position in quarter notes.
    public func seconds(atBeats beats: Double) -> Double {
        seconds(atTick: tick(atBeats: beats))
    }

    /// Quarter notes at a time in seconds.
    public func beats(atSeconds seconds: Double) -> Double {
        beats(atTick: tick(atSeconds: seconds))
    }
}
