/// A Standard MIDI File: its format, its division and its tracks, with the defects the reader
/// repaired.
///
/// Read one with ``init(bytes:name:)`` (or, in PolyphonMIDI, from a file), write one with
/// ``serialized(format:runningStatus:)``. The value is plain data: edit ``tracks`` freely.
public struct MIDIFile: Sendable, Hashable {
    /// The file's format.
    public var format: MIDIFileFormat
    /// What a tick means.
    public var division: Division
    /// The track chunks in file order.
    public var tracks: [MIDITrack]
    /// The defects the reader repaired, in the order it met them; empty for a clean file or one
    /// built in code.
    public var warnings: [MIDIFileWarning]

    /// Creates a file from its parts.
    public init(format: MIDIFileFormat, division: Division, tracks: [MIDITrack],
                warnings: [MIDIFileWarning] = []) {
        self.format = format
        self.division = division
        self.tracks = tracks
        self.warnings = warnings
    }

    /// Reads a Standard MIDI File (or a RIFF `RMID` file wrapping one) from bytes.
    ///
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - name: the name errors and warnings refer to, usually the file name.
    /// - Throws: ``MIDIFileError`` when the data is not a MIDI file or is corrupt.
    public init(bytes: [UInt8], name: String = "MIDI data") throws(MIDIFileError) {
        var reader = MIDIFileReader(bytes: bytes, fileName: name)
        self = try reader.read()
    }

    /// The ticks per quarter note of a PPQN division, `nil` for SMPTE.
    public var ticksPerQuarterNote: Int? {
        if case .ticksPerQuarterNote(let ticks) = division { return Int(ticks) }
        return nil
    }

    /// The number of notes in the file (note-ons with a velocity above 0, all tracks).
    public var noteCount: Int {
        tracks.reduce(0) { $0 + $1.noteCount }
    }
}
