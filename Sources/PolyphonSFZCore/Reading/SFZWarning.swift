/// Something wrong in an SFZ instrument that did not stop it from loading: an unknown opcode, a
/// value out of range, a missing sample, a broken `#include`. Says where, what, and what the
/// reader did about it.
public struct SFZWarning: Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is, for programs that sort or count warnings.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The text does not follow the SFZ syntax here (a header without `>`, an opcode
        /// without `=`, an unterminated comment); the reader skipped to the next line.
        case syntax
        /// A `#define` or `#include` that could not be honoured.
        case directive
        /// A header other than control, global, master, group, region, curve and effect.
        case unknownHeader
        /// A header that is read but has no effect on the sound (`<effect>`, `<sample>`).
        case ignoredHeader
        /// An opcode Polyphon does not know (reported once per name).
        case unknownOpcode
        /// An opcode whose value cannot be read or lies outside what the opcode accepts; the
        /// regions it applies to are skipped.
        case invalidValue
        /// A region's sample file does not exist; the region is skipped.
        case missingSample
        /// A region that can never sound (an empty key or velocity range, `end=0`); skipped.
        case unplayableRegion
        /// The instrument is larger than the reader's limits allow; the rest was not read.
        case limitReached
        /// Opcodes the reader understands but the synthesizer does not play yet: the regions
        /// play without them, or (a trigger or condition it cannot follow) are left out.
        case notPlayed
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// Where it was written, when it is tied to a place in the text.
    public var location: SFZLocation?
    /// What was wrong and what the reader did about it.
    public var message: String

    /// A warning of `kind` at `location`.
    public init(_ kind: Kind, at location: SFZLocation?, _ message: String) {
        self.kind = kind
        self.location = location
        self.message = message
    }

    /// One line: `file:line: message`.
    public var description: String {
        if let location { return "\(location): \(message)" }
        return message
    }
}
