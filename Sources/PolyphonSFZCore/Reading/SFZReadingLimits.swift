/// How much an SFZ instrument may make the reader do. Real instruments stay far below every
/// bound; a file that reaches one is read up to that point, with a warning.
public struct SFZReadingLimits: Hashable, Sendable {
    /// Nesting of `#include` (the root file is depth 1); sfizz stops at 32.
    public var maximumIncludeDepth = 32
    /// Largest single file read, in bytes.
    public var maximumFileSize = 64 << 20
    /// Total text taken in: every file each time it is included, plus what `$VARIABLE`
    /// expansion adds. Bounds repeated includes and definitions that expand into more text.
    public var maximumTotalText = 128 << 20
    /// Longest opcode value or name after `$VARIABLE` expansion, in bytes.
    public var maximumExpandedLength = 1 << 16
    /// Regions kept; the rest are dropped with one warning.
    public var maximumRegionCount = 200_000
    /// Highest index accepted in numbered opcodes: filters, equalisers, LFOs, envelopes and
    /// their steps and points (`fil3_type`, `lfo12_freq`, `eg2_time7`). Real instruments use
    /// a handful; the bound keeps `lfo4000000000_freq` from asking for four billion LFOs.
    public var maximumOpcodeIndex = 32
    /// Highest MIDI controller number in `*_onccN`, `locc N`, `set_ccN`: 0–127 are MIDI's, and
    /// sfizz reads up to 511 for its extended sources (pitch bend 128, channel pressure 129,
    /// velocity 131, random 137 …).
    public var maximumControllerNumber = 511
    /// Warnings kept; the rest are counted in one last warning.
    public var maximumWarningCount = 1000

    /// The default limits.
    public init() {}
}
