/// The stable identity of an event in a ``Song``.
///
/// A song hands out a new ID for every event added to it and never reuses one, so an ID keeps
/// naming the same event while the event is moved, changed or other events come and go. IDs
/// are small values: store them, compare them, use them as dictionary keys.
public struct SongEventID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The number the song gave the event: IDs are issued in increasing order.
    public let rawValue: UInt64

    /// Creates an ID from its number (normally only a ``Song`` makes them).
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Orders IDs by the order the song issued them.
    public static func < (lhs: SongEventID, rhs: SongEventID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// `#` followed by the number, for example `#12`.
    public var description: String { "#\(rawValue)" }
}
