/// Writes a track the way a musician reads it: one thing after another from a cursor.
///
/// Handed to the closure of ``Song/addTrack(program:bankMSB:bankLSB:channel:velocity:named:_:)``.
/// Every call appends at the cursor and, for notes and rests, moves the cursor on, so a melody is
/// a list of keys:
///
/// ```swift
/// var song = Song(beatsPerMinute: 240)
/// song.addTrack(program: 48) { track in
///     track.notes([64, 63, 64, 63, 64, 59, 62, 60], beats: 1)
///     track.chord([57, 45], beats: 3)
/// }
/// ```
public struct SongTrackBuilder: Sendable {
    /// Where the next event goes, in quarter notes.
    public var cursor: Double
    /// The channel of the events that follow.
    public var channel: UInt8
    /// The velocity of the notes that follow.
    public var velocity: UInt8
    /// What was written: positions and kinds, in order.
    public private(set) var events: [(beat: Double, kind: SongEvent.Kind)] = []

    /// Creates a builder starting at `cursor`.
    public init(cursor: Double = 0, channel: UInt8 = 0, velocity: UInt8 = 64) {
        self.cursor = cursor
        self.channel = channel
        self.velocity = velocity
    }

    /// Appends any event at the cursor without moving it.
    public mutating func add(_ kind: SongEvent.Kind) {
        events.append((cursor, kind))
    }

    /// Plays one note for `beats` quarter notes, then moves the cursor past it.
    public mutating func note(_ key: UInt8, beats: Double, velocity: UInt8? = nil) {
        add(.note(SongNote(key: key, velocity: velocity ?? self.velocity, duration: beats, channel: channel)))
        cursor += beats
    }

    /// Plays notes one after another, each `beats` long.
    public mutating func notes(_ keys: [UInt8], beats: Double, velocity: UInt8? = nil) {
        for key in keys { note(key, beats: beats, velocity: velocity) }
    }

    /// Plays notes together for `beats`, then moves the cursor past them.
    public mutating func chord(_ keys: [UInt8], beats: Double, velocity: UInt8? = nil) {
        for key in keys {
            add(.note(SongNote(key: key, velocity: velocity ?? self.velocity, duration: beats, channel: channel)))
        }
        cursor += beats
    }

    /// Moves the cursor on by `beats` without playing.
    public mutating func rest(beats: Double) {
        cursor += beats
    }

    /// Selects a program (and optionally a bank) at the cursor.
    public mutating func program(_ program: UInt8, bankMSB: UInt8? = nil, bankLSB: UInt8? = nil) {
        add(.programChange(channel: channel, program: program, bankMSB: bankMSB, bankLSB: bankLSB))
    }

    /// Sets a controller at the cursor.
    public mutating func controller(_ controller: UInt8, value: UInt8) {
        add(.controlChange(channel: channel, controller: controller, value: value))
    }

    /// Bends the pitch at the cursor (0…16383, 8192 is no bend).
    public mutating func pitchBend(_ value: UInt16) {
        add(.pitchBend(channel: channel, value: value))
    }

    /// Puts a marker at the cursor.
    public mutating func marker(_ text: String) {
        add(.meta(.text(.marker, MIDIText(text))))
    }

    /// Puts a lyric syllable at the cursor.
    public mutating func lyric(_ text: String) {
        add(.meta(.text(.lyric, MIDIText(text))))
    }
}

extension Song {
    /// Adds a track written with a ``SongTrackBuilder`` and returns its index.
    ///
    /// - Parameters:
    ///   - program: when given, a program change at beat 0 (the seed's "track with an instrument").
    ///   - bankMSB: bank select (CC0) sent with the program.
    ///   - bankLSB: bank select (CC32) sent with the program.
    ///   - channel: the channel the builder starts on.
    ///   - velocity: the velocity the builder starts with (the seed's 64).
    ///   - name: when given, a track-name meta event at beat 0.
    ///   - build: writes the track's events.
    @discardableResult
    public mutating func addTrack(program: UInt8? = nil, bankMSB: UInt8? = nil, bankLSB: UInt8? = nil,
                                  channel: UInt8 = 0, velocity: UInt8 = 64, named name: String? = nil,
                                  _ build: (inout SongTrackBuilder) -> Void = { _ in }) -> Int {
        let track = addTrack()
        var builder = SongTrackBuilder(channel: channel, velocity: velocity)
        if let name { builder.add(.meta(.text(.trackName, MIDIText(name)))) }
        if let program { builder.program(program, bankMSB: bankMSB, bankLSB: bankLSB) }
        build(&builder)
        for event in builder.events { add(event.kind, at: event.beat, toTrack: track) }
        return track
    }
}
