/// What one region opcode does, decided once when its block is read and then applied to every
/// region the block covers.
enum SFZOpcodeEffect {
    /// Changes the region.
    case apply(@Sendable (inout SFZRegion) -> Void)
    /// The value is not acceptable (the message says why): the regions it covers are skipped.
    case invalid(String)
    /// Not an opcode Polyphon knows (or a number in its name out of range): warned once,
    /// otherwise ignored.
    case unknown
    /// Known, and without effect by design (as in sfizz): `ampeg_depth`, `ampeg_vel2depth`.
    case ignored
}

/// The numbers and value an opcode handler reads.
struct SFZOpcodeArguments {
    /// The numbers in the opcode's name (`lfo2_cutoff1_oncc74`: 2, 1, 74).
    var numbers: [Int]
    /// The value as written (trimmed, `$VARIABLE`s expanded).
    var value: String
    var limits: SFZReadingLimits

    /// Number `position` of the name as a 1-based index (filter, LFO, band …) turned 0-based,
    /// nil when out of `1…maximumOpcodeIndex`.
    func index(_ position: Int) -> Int? {
        guard position < numbers.count, (1...limits.maximumOpcodeIndex).contains(numbers[position]) else { return nil }
        return numbers[position] - 1
    }

    /// The last number of the name as a controller, nil when above the limit.
    var controller: Int? {
        guard let last = numbers.last, last <= limits.maximumControllerNumber else { return nil }
        return last
    }
}

/// Reads a region opcode: its handler by pattern, then the value.
typealias SFZOpcodeHandler = @Sendable (SFZOpcodeArguments) -> SFZOpcodeEffect
