extension Song {
    /// A tempo change: from `beat` on, a quarter note lasts ``microsecondsPerQuarterNote``.
    ///
    /// The tempo is stored as the Standard MIDI File stores it (microseconds per quarter note)
    /// so that a file's tempo survives a round trip exactly.
    public struct TempoChange: Sendable, Hashable {
        /// Where the tempo changes, in quarter notes.
        public var beat: Double
        /// The new tempo in microseconds per quarter note.
        public var microsecondsPerQuarterNote: UInt32

        /// Creates a change from microseconds per quarter note.
        public init(beat: Double, microsecondsPerQuarterNote: UInt32) {
            self.beat = beat
            self.microsecondsPerQuarterNote = microsecondsPerQuarterNote
        }

        /// Creates a change from a tempo in quarter notes per minute (rounded to the nearest
        /// microsecond per quarter note, as a file stores it).
        public init(beat: Double, beatsPerMinute: Double) {
            self.beat = beat
            let microseconds = (60_000_000 / max(beatsPerMinute, 60_000_000 / Double(0xFF_FFFF))).rounded()
            self.microsecondsPerQuarterNote = UInt32(min(max(microseconds, 1), Double(0xFF_FFFF)))
        }

        /// The tempo in quarter notes per minute.
        public var beatsPerMinute: Double { 60_000_000 / Double(microsecondsPerQuarterNote) }
    }

    /// A time signature change at the start of a bar.
    public struct TimeSignatureChange: Sendable, Hashable {
        /// Where the signature takes effect, in quarter notes.
        public var beat: Double
        /// The signature.
        public var signature: TimeSignature

        /// Creates a change.
        public init(beat: Double, signature: TimeSignature) {
            self.beat = beat
            self.signature = signature
        }
    }

    /// Sets the tempo from `beat` on, replacing a change already at that beat.
    ///
    /// - Parameters:
    ///   - beatsPerMinute: quarter notes per minute (> 0).
    ///   - beat: where the tempo takes effect, in quarter notes (rounded to the tick grid).
    public mutating func setTempo(_ beatsPerMinute: Double, at beat: Double = 0) {
        let change = TempoChange(beat: quantized(beat), beatsPerMinute: beatsPerMinute)
        tempoChanges.removeAll { $0.beat == change.beat }
        tempoChanges.append(change)
        tempoChanges.sort { $0.beat < $1.beat }
    }

    /// Removes every tempo change and sets one tempo for the whole song (the seed's "delete every
    /// tempo event, insert a new one").
    public mutating func replaceTempo(_ beatsPerMinute: Double) {
        tempoChanges = [TempoChange(beat: 0, beatsPerMinute: beatsPerMinute)]
    }

    /// Removes the tempo change at `beat`; returns whether there was one.
    @discardableResult
    public mutating func removeTempoChange(at beat: Double) -> Bool {
        let before = tempoChanges.count
        let target = quantized(beat)
        tempoChanges.removeAll { $0.beat == target }
        return tempoChanges.count != before
    }

    /// Sets the time signature from `beat` on, replacing a change already at that beat.
    public mutating func setTimeSignature(_ signature: TimeSignature, at beat: Double = 0) {
        let target = quantized(beat)
        timeSignatureChanges.removeAll { $0.beat == target }
        timeSignatureChanges.append(TimeSignatureChange(beat: target, signature: signature))
        timeSignatureChanges.sort { $0.beat < $1.beat }
    }

    /// Removes the time signature change at `beat`; returns whether there was one.
    @discardableResult
    public mutating func removeTimeSignatureChange(at beat: Double) -> Bool {
        let before = timeSignatureChanges.count
        let target = quantized(beat)
        timeSignatureChanges.removeAll { $0.beat == target }
        return timeSignatureChanges.count != before
    }

    /// The song's tempo map on its own tick grid (120 BPM before the first change).
    public var tempoMap: TempoMap {
        let ticks = ticksPerQuarterNote
        return TempoMap(division: .ticksPerQuarterNote(UInt16(ticks)),
                        tempoEvents: tempoChanges.map { (Int(($0.beat * Double(ticks)).rounded()), $0.microsecondsPerQuarterNote) })
    }

    /// Seconds from the start of the song at a position in quarter notes.
    public func seconds(atBeat beat: Double) -> Double {
        tempoMap.seconds(atBeats: beat)
    }

    /// The position in quarter notes at a time in seconds.
    public func beat(atSeconds seconds: Double) -> Double {
        tempoMap.beats(atSeconds: seconds)
    }

    /// The time signature in effect at `beat` (4/4 before the first change, as in SMF).
    public func timeSignature(atBeat beat: Double) -> TimeSignature {
        timeSignatureChanges.last { $0.beat <= beat }?.signature ?? TimeSignature(numerator: 4, denominatorExponent: 2)
    }

    /// The song's length in quarter notes: the end of its last note, the position of its last
    /// event, or a track's explicit end, whichever is latest.
    public var lengthInBeats: Double {
        var end = 0.0
        for track in tracks {
            end = max(end, track.endBeat ?? 0)
            for event in track.events {
                if case .note(let note) = event.kind {
                    end = max(end, event.beat + note.duration)
                } else {
                    end = max(end, event.beat)
                }
            }
        }
        for change in tempoChanges { end = max(end, change.beat) }
        for change in timeSignatureChanges { end = max(end, change.beat) }
        return end
    }

    /// The song's length in seconds (see ``lengthInBeats``).
    public var duration: Double {
        seconds(atBeat: lengthInBeats)
    }
}
