/// A message at an absolute time in a track, counted in ticks from the start of the track.
///
/// Tracks store absolute ticks rather than the delta times of the file so that events can be
/// inserted, merged and moved without recomputing their neighbours; the writer turns them back
/// into deltas.
public struct MIDIEvent: Sendable, Hashable {
    /// Ticks from the start of the track (the unit is given by the file's ``Division``).
    public var tick: Int
    /// The message.
    public var message: MIDIMessage

    /// Creates an event.
    public init(tick: Int, message: MIDIMessage) {
        self.tick = tick
        self.message = message
    }
}
