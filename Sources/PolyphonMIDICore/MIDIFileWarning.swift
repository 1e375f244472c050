/// A defect the reader repaired: the file loaded, but not every byte meant what the
/// specification says. Names the track (when inside one) and the byte offset.
public struct MIDIFileWarning: Sendable, Hashable, CustomStringConvertible {
    /// What was repaired and how.
    public enum Kind: Sendable, Hashable {
        /// The track's end-of-track event comes before the declared chunk end, and a chunk
        /// header follows it: the declared length is too long. Reading went on after the event.
        case trackLengthTooLong(declared: Int, actual: Int)
        /// The track's events run past the declared chunk end: the declared length is too short.
        /// Reading followed the events.
        case trackLengthTooShort(declared: Int, actual: Int)
        /// The track has no end-of-track event; the writer adds one.
        case missingEndOfTrack
        /// The file ends inside the track; a partly written last event was dropped.
        case truncatedTrack
        /// Bytes between the end-of-track event and the declared chunk end were skipped.
        case bytesAfterEndOfTrack(count: Int)
        /// Bytes that are not a chunk were skipped until the next `MTrk`.
        case junkBetweenChunks(count: Int)
        /// Bytes after the last chunk that are not a chunk were ignored.
        case junkAfterLastChunk(count: Int)
        /// A chunk of an unknown type was skipped.
        case unknownChunk(id: String, length: Int)
        /// The header's track count differs from the number of track chunks found.
        case trackCountMismatch(declared: Int, found: Int)
        /// A format-0 file has a number of tracks other than one; they are kept as they are.
        case formatZeroTrackCount(Int)
        /// Running status was used right after a meta or sysex event, which cancels it; the
        /// previous channel status was applied, as most players do.
        case runningStatusAfterMetaOrSysex
        /// A meta event's length is not the specified one; it was kept as raw bytes (or, for end
        /// of track, its data ignored).
        case malformedMetaEvent(type: UInt8, length: Int)
    }

    /// The index of the track chunk (0-based), `nil` outside tracks.
    public let trackIndex: Int?
    /// Offset from the start of the file where the defect begins.
    public let byteOffset: Int
    /// What was repaired.
    public let kind: Kind

    /// Creates a warning.
    public init(trackIndex: Int?, byteOffset: Int, kind: Kind) {
        self.trackIndex = trackIndex
        self.byteOffset = byteOffset
        self.kind = kind
    }

    /// One line, for example `track 1, byte 340: missing end-of-track event`.
    public var description: String {
        let place = (trackIndex.map { "track \($0), " } ?? "") + "byte \(byteOffset)"
        return "\(place): \(kindText)"
    }

    private var kindText: String {
        switch kind {
        case .trackLengthTooLong(let declared, let actual):
            return "track chunk length \(declared) is too long (events end after \(actual) bytes)"
        case .trackLengthTooShort(let declared, let actual):
            return "track chunk length \(declared) is too short (events end after \(actual) bytes)"
        case .missingEndOfTrack: return "missing end-of-track event"
        case .truncatedTrack: return "file ends inside the track; the incomplete last event was dropped"
        case .bytesAfterEndOfTrack(let count): return "\(count) bytes after end-of-track skipped"
        case .junkBetweenChunks(let count): return "\(count) bytes of junk between chunks skipped"
        case .junkAfterLastChunk(let count): return "\(count) bytes of junk after the last chunk ignored"
        case .unknownChunk(let id, let length): return "unknown chunk \"\(id)\" (\(length) bytes) skipped"
        case .trackCountMismatch(let declared, let found):
            return "header declares \(declared) tracks but the file has \(found)"
        case .formatZeroTrackCount(let count): return "format 0 file has \(count) tracks instead of 1"
        case .runningStatusAfterMetaOrSysex:
            return "running status used after a meta or sysex event; previous status applied"
        case .malformedMetaEvent(let type, let length):
            return "meta event 0x\(hex(type)) has unexpected length \(length)"
        }
    }
}
