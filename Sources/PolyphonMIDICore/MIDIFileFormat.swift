/// The format word of a Standard MIDI File header.
public enum MIDIFileFormat: UInt16, Sendable, Hashable, CaseIterable {
    /// Format 0: one track holding every channel.
    case singleTrack = 0
    /// Format 1: simultaneous tracks sharing one tempo map (kept in the first track).
    case multipleTracks = 1
    /// Format 2: independent single-track patterns, each with its own tempo.
    case independentTracks = 2
}
