/// A time signature (meta event `0x58`), for example 6/8.
public struct TimeSignature: Sendable, Hashable {
    /// Beats per bar: the upper number.
    public var numerator: UInt8
    /// The lower number as a power of two: 2 means a quarter note (4), 3 an eighth (8).
    public var denominatorExponent: UInt8
    /// MIDI clocks (24 per quarter note) between metronome clicks.
    public var clocksPerMetronomeClick: UInt8
    /// Notated 32nd notes in a MIDI quarter note (24 clocks), normally 8.
    public var thirtySecondNotesPerQuarterNote: UInt8

    /// Creates a time signature from the four bytes of the meta event.
    public init(numerator: UInt8, denominatorExponent: UInt8, clocksPerMetronomeClick: UInt8 = 24,
                thirtySecondNotesPerQuarterNote: UInt8 = 8) {
        self.numerator = numerator
        self.denominatorExponent = denominatorExponent
        self.clocksPerMetronomeClick = clocksPerMetronomeClick
        self.thirtySecondNotesPerQuarterNote = thirtySecondNotesPerQuarterNote
    }

    /// The lower number of the signature (4 for 3/4), or 0 when the exponent is too large to
    /// mean a note value.
    public var denominator: Int {
        denominatorExponent < 16 ? 1 << Int(denominatorExponent) : 0
    }
}
