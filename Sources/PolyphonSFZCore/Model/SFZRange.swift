/// A range with both ends included, which — unlike `ClosedRange` — may be written backwards
/// (`lokey=72 hikey=60`): such a range holds nothing, as in sfizz, and the instrument says so.
public struct SFZRange<Bound: Comparable & Sendable>: Hashable, Sendable where Bound: Hashable {
    /// The lowest value held.
    public var lower: Bound
    /// The highest value held.
    public var upper: Bound

    /// The values from `lower` to `upper`, both included.
    public init(_ lower: Bound, _ upper: Bound) {
        self.lower = lower
        self.upper = upper
    }

    /// Whether `value` lies in the range.
    public func contains(_ value: Bound) -> Bool { lower <= value && value <= upper }

    /// True when written backwards: nothing lies in it.
    public var isEmpty: Bool { lower > upper }
}

extension SFZRange: CustomStringConvertible {
    /// `lower…upper`.
    public var description: String { "\(lower)…\(upper)" }
}
