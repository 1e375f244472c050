/// One statement of SFZ text after comments, `#define` and `#include` have been dealt with: a
/// header such as `<region>`, or an opcode such as `lokey=c4`, with where it was written.
public struct SFZStatement: Hashable, Sendable {
    /// What the statement is.
    public enum Kind: Hashable, Sendable {
        /// `<name>`: starts a block (control, global, master, group, region, curve, effect …).
        case header(String)
        /// `name=value`, `$VARIABLE`s expanded, the value with its surrounding spaces removed.
        case opcode(name: String, value: String)
    }

    /// What the statement is.
    public var kind: Kind
    /// Where it was written.
    public var location: SFZLocation

    /// A statement of `kind` at `location`.
    public init(_ kind: Kind, at location: SFZLocation) {
        self.kind = kind
        self.location = location
    }
}
