/// A key signature (meta event `0x59`).
public struct KeySignature: Sendable, Hashable {
    /// Number of sharps (positive) or flats (negative), −7…7.
    public var sharpsOrFlats: Int8
    /// Whether the key is minor.
    public var isMinor: Bool

    /// Creates a key signature.
    public init(sharpsOrFlats: Int8, isMinor: Bool) {
        self.sharpsOrFlats = sharpsOrFlats
        self.isMinor = isMinor
    }

    /// The key's name, for example "E♭ major" or "F♯ minor"; "unknown" outside −7…7.
    public var name: String {
        let major = ["C♭", "G♭", "D♭", "A♭", "E♭", "B♭", "F", "C", "G", "D", "A", "E", "B", "F♯", "C♯"]
        let minor = ["A♭", "E♭", "B♭", "F", "C", "G", "D", "A", "E", "B", "F♯", "C♯", "G♯", "D♯", "A♯"]
        guard (-7...7).contains(sharpsOrFlats) else { return "unknown" }
        let index = Int(sharpsOrFlats) + 7
        return isMinor ? minor[index] + " minor" : major[index] + " major"
    }
}
