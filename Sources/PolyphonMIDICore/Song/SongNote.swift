/// A note with a duration: one event in a ``Song``, where a Standard MIDI File has a note-on
/// and a note-off.
///
/// Keeping the pair as one value means moving or deleting a note can never leave its note-off
/// behind, and an editor can show and change the duration directly.
public struct SongNote: Sendable, Hashable {
    /// The channel, 0…15 (MIDI channel 1 is `0`).
    public var channel: UInt8
    /// The key, 0…127 (60 is middle C).
    public var key: UInt8
    /// The note-on velocity, 1…127.
    public var velocity: UInt8
    /// The note-off velocity, 0…127; 64 when the source had none (the SMF convention).
    public var releaseVelocity: UInt8
    /// The length in quarter notes (≥ 0).
    public var duration: Double

    /// Creates a note.
    public init(key: UInt8, velocity: UInt8 = 64, duration: Double, channel: UInt8 = 0,
                releaseVelocity: UInt8 = 64) {
        self.channel = channel
        self.key = key
        self.velocity = velocity
        self.releaseVelocity = releaseVelocity
        self.duration = duration
    }
}
