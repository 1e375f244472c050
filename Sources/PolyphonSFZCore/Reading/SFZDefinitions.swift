/// The `#define $NAME value` table and the expansion of `$NAME` in opcode names, values and
/// include paths, as sfizz does it: after `$`, identifier characters are taken one at a time
/// until they spell a defined name (ARIA's rule, so `$KEYSW` with `$KEY` defined is `$KEY` then
/// `SW`), and text that expansion produced is expanded again.
///
/// sfizz repeats expansion for as long as a `$` remains, so `#define $A $A` never ends there;
/// here expansion stops after ``maximumPasses`` passes or at the length limit, with a warning.
struct SFZDefinitions {
    private var values: [[UInt8]: [UInt8]] = [:]
    /// Passes over a text before expansion gives up (a definition that refers to itself).
    static let maximumPasses = 16

    mutating func define(_ name: [UInt8], as value: [UInt8]) {
        values[name] = value
    }

    /// The outcome of expanding one text.
    struct Expansion {
        var text: [UInt8]
        var problems: [String] = []
        /// False when the text grew past the limit or definitions refer to each other without
        /// end: the statement should be dropped.
        var isComplete = true
    }

    /// `text` with every `$NAME` replaced, at most `maximumLength` bytes.
    func expand(_ text: ArraySlice<UInt8>, maximumLength: Int) -> Expansion {
        guard text.contains(UInt8(ascii: "$")) else { return Expansion(text: Array(text)) }
        var source = Array(text)
        var problems: [String] = []
        for _ in 0..<Self.maximumPasses {
            var output: [UInt8] = []
            output.reserveCapacity(source.count)
            var expansions = 0
            var i = 0
            while i < source.count {
                let byte = source[i]
                i += 1
                guard byte == UInt8(ascii: "$") else {
                    output.append(byte)
                    continue
                }
                expansions += 1
                var name: [UInt8] = []
                var found: [UInt8]?
                while i < source.count, source[i].isSFZIdentifierByte, found == nil {
                    name.append(source[i])
                    i += 1
                    found = values[name]
                }
                if name.isEmpty {
                    problems.append("'$' is not followed by a variable name")
                    continue
                }
                guard let found else {
                    problems.append("$\(String(decoding: name, as: UTF8.self)) is not defined (#define it before use)")
                    continue
                }
                output.append(contentsOf: found)
                if output.count > maximumLength {
                    problems.append("expanding $\(String(decoding: name, as: UTF8.self)) makes the text longer than \(maximumLength) bytes; statement ignored")
                    return Expansion(text: [], problems: problems, isComplete: false)
                }
            }
            if expansions == 0 || !output.contains(UInt8(ascii: "$")) {
                return Expansion(text: output, problems: problems)
            }
            source = output
        }
        problems.append("$variables still remain after \(Self.maximumPasses) rounds of expansion (a definition refers to itself?); statement ignored")
        return Expansion(text: [], problems: problems, isComplete: false)
    }
}
