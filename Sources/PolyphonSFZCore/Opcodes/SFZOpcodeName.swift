/// An opcode name as the reader looks it up: lower case, aliases resolved to the one name sfizz
/// uses (``SFZOpcodeAliases``), and split into a pattern and its numbers — `lfo2_cutoff1_oncc74`
/// is the pattern `lfo&_cutoff&_oncc&` with the numbers 2, 1 and 74.
public struct SFZOpcodeName: Hashable, Sendable, CustomStringConvertible {
    /// The name as written (after `$VARIABLE` expansion).
    public let written: String
    /// Lower case, alias resolved: `ampeg_vel2attack` → `ampeg_veltoattack`, `tune` → `pitch`.
    public let canonical: String
    /// ``canonical`` with every run of digits replaced by `&`.
    public let pattern: String
    /// The runs of digits of ``canonical``, in order (saturating at 2^40, far beyond any limit).
    public let numbers: [Int]

    /// Where an opcode is read: aliases differ between region opcodes and `<control>` ones.
    public enum Scope: Sendable {
        /// Opcodes of `<global>`, `<master>`, `<group>` and `<region>`.
        case region
        /// Opcodes of `<control>`.
        case control
        /// Any other header (`<curve>`, `<effect>`): lower case only.
        case other
    }

    /// The lookup form of `written` for `scope`.
    public init(_ written: String, scope: Scope) {
        self.written = written
        let lower = SFZPath.caseFolded(written)
        switch scope {
        case .region: canonical = SFZOpcodeAliases.regionName(lower)
        case .control: canonical = SFZOpcodeAliases.controlName(lower)
        case .other: canonical = lower
        }
        var pattern: [UInt8] = []
        var numbers: [Int] = []
        var current: Int?
        for byte in canonical.utf8 {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                let digit = Int(byte - UInt8(ascii: "0"))
                if current == nil { pattern.append(UInt8(ascii: "&")) }
                current = min((current ?? 0) * 10 + digit, 1 << 40)
            } else {
                if let value = current { numbers.append(value) }
                current = nil
                pattern.append(byte)
            }
        }
        if let value = current { numbers.append(value) }
        self.pattern = String(decoding: pattern, as: UTF8.self)
        self.numbers = numbers
    }

    public var description: String { written }
}
