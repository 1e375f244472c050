import PolyphonMIDI

/// Something that happened while a ``MIDIPlayer`` rendered, stamped with the exact output
/// frame it happened on.
///
/// Callbacks are produced on the render thread and handed to the caller's thread through a
/// lock-free queue; ``MIDIPlayer/deliverCallbacks()`` (or a delivery queue started with
/// ``MIDIPlayer/startDeliveringCallbacks(on:interval:)``) runs the handlers.
public struct PlayerCallback: Sendable {
    /// What happened.
    public enum Kind: Sendable {
        /// An event of the song was played (for a note: its start).
        case event(SongEvent, track: Int)
        /// A beat of the time signature began.
        case beat(PlayerBeat)
        /// A bar began (its first beat also produces ``beat(_:)``).
        case bar(PlayerBeat)
        /// A marker or cue point was passed.
        case marker(MIDIText, track: Int)
        /// A lyric was passed.
        case lyric(MIDIText, track: Int)
        /// Playback jumped back to the loop's start, and pass `pass` of the loop begins (2 for
        /// the first repeat). The callback's frame is the output frame of the jump.
        case loop(pass: Int)
        /// The song has ended and its tail has died away: every voice has ended and the effects
        /// are silent (or the player's ``MIDIPlayer/maximumTail`` was reached).
        case completion
    }

    /// What happened.
    public var kind: Kind
    /// The output frame it happened on: frames the player rendered since it was created, so a
    /// callback lines up sample-exactly with the audio the render calls produced.
    public var frame: Int64
    /// The song position in seconds (at rate 1) when it happened.
    public var time: Double
    /// The song position in quarter notes when it happened.
    public var beat: Double
}

/// A position on the song's metric grid, for beat and bar callbacks.
public struct PlayerBeat: Sendable, Hashable {
    /// The bar, counting from 0.
    public var bar: Int
    /// The beat within the bar, counting from 0 (0 is the downbeat).
    public var beatInBar: Int
    /// The position in quarter notes.
    public var position: Double

    /// Creates a grid position.
    public init(bar: Int, beatInBar: Int, position: Double) {
        self.bar = bar
        self.beatInBar = beatInBar
        self.position = position
    }
}

/// Which played events produce ``PlayerCallback/Kind/event(_:track:)`` callbacks.
public struct PlayerEventFilter: Sendable, Hashable {
    /// The kinds of events; `nil` means all.
    public var categories: Set<SongEvent.Category>?
    /// The tracks; `nil` means all.
    public var tracks: Set<Int>?

    /// Creates a filter; the defaults let every event through.
    public init(categories: Set<SongEvent.Category>? = nil, tracks: Set<Int>? = nil) {
        self.categories = categories
        self.tracks = tracks
    }
}

/// A range of the song to repeat.
public struct PlayerLoop: Sendable, Hashable {
    /// How often the range plays.
    public enum Count: Sendable, Hashable {
        /// The range plays this many times in all (1 plays it once, as without a loop), then
        /// playback goes on past its end.
        case times(Int)
        /// The range repeats until the loop is removed or playback stops.
        case forever
    }

    /// The range in quarter notes.
    public var beats: Range<Double>
    /// How often it plays.
    public var count: Count

    /// Creates a loop.
    public init(beats: Range<Double>, count: Count) {
        self.beats = beats
        self.count = count
    }
}
