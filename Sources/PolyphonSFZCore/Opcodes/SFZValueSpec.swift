/// What values an opcode accepts and what happens to the others, as sfizz's opcode specs say:
/// a range, and for each side whether a value beyond it is refused, clamped into it, or taken
/// as written (most opcodes take values beyond their usual range: `volume=60` is loud, not
/// wrong).
struct SFZValueSpec: Sendable {
    enum Beyond: Sendable {
        /// The value is invalid.
        case reject
        /// The value is moved to the nearest end.
        case clamp
        /// The value is kept.
        case accept
    }

    var lower: Double
    var upper: Double
    var belowLower: Beyond
    var aboveUpper: Beyond
    /// Read as an integer (`60.7` is 60) rather than a real number.
    var isInteger = false
    /// A note name (`c4`) is accepted where a number is not found.
    var acceptsNoteNames = false
    /// The value is a phase: its fractional part is kept (`1.25` is 0.25).
    var wrapsPhase = false

    /// The range; values beyond it taken as written (sfizz's `kPermissiveBounds`).
    static func permissive(_ lower: Double, _ upper: Double) -> SFZValueSpec {
        SFZValueSpec(lower: lower, upper: upper, belowLower: .accept, aboveUpper: .accept)
    }

    /// The range; values beyond it clamped (`kEnforceBounds`).
    static func clamped(_ lower: Double, _ upper: Double) -> SFZValueSpec {
        SFZValueSpec(lower: lower, upper: upper, belowLower: .clamp, aboveUpper: .clamp)
    }

    /// The range; values beyond it invalid (sfizz's specs without bound flags).
    static func strict(_ lower: Double, _ upper: Double) -> SFZValueSpec {
        SFZValueSpec(lower: lower, upper: upper, belowLower: .reject, aboveUpper: .reject)
    }

    var integer: SFZValueSpec {
        var spec = self
        spec.isInteger = true
        return spec
    }

    /// A MIDI key 0–127, as a number or a note name.
    static let key: SFZValueSpec = {
        var spec = SFZValueSpec.strict(0, 127).integer
        spec.acceptsNoteNames = true
        return spec
    }()

    /// The value `text` stands for under this spec, or why it is not acceptable.
    func read(_ text: String) -> Result<Double, SFZValueProblem> {
        var value: Double
        if isInteger {
            if let integer = SFZValueReader.leadingInteger(text) {
                value = Double(integer)
            } else if acceptsNoteNames, let note = SFZNoteName.noteNumber(text.utf8) {
                value = Double(note)
            } else {
                return .failure(SFZValueProblem(acceptsNoteNames ? "'\(text)' is neither a number nor a note name"
                                                                 : "'\(text)' is not a whole number"))
            }
        } else {
            guard let real = SFZValueReader.leadingReal(text) else {
                return .failure(SFZValueProblem("'\(text)' is not a number"))
            }
            value = real
        }
        if wrapsPhase { value -= value.rounded(.down) }
        if value > upper {
            switch aboveUpper {
            case .accept: break
            case .clamp: value = upper
            case .reject: return .failure(SFZValueProblem("\(Self.format(value)) is above the highest value, \(Self.format(upper))"))
            }
        } else if value < lower {
            switch belowLower {
            case .accept: break
            case .clamp: value = lower
            case .reject: return .failure(SFZValueProblem("\(Self.format(value)) is below the lowest value, \(Self.format(lower))"))
            }
        }
        return .success(value)
    }

    /// `value` as a Float, huge values held at the largest finite one.
    static func float(_ value: Double) -> Float {
        Float(min(max(value, -Double(Float.greatestFiniteMagnitude)), Double(Float.greatestFiniteMagnitude)))
    }

    /// A number as people write it: no `.0` on whole numbers.
    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

/// Why an opcode's value was not accepted.
struct SFZValueProblem: Error, Sendable {
    var message: String
    init(_ message: String) { self.message = message }
}
