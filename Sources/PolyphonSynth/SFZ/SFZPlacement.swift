/// Where an SFZ instrument sits in the bank a synthesizer plays.
///
/// One SFZ file is one instrument. Placed as ``melodic`` it is program 0 of bank 0, which the
/// synthesizer falls back to for every program a channel selects, so it plays on every channel
/// but the drum channel; as ``drumKit`` it is the kit of bank 128 and plays on the drum channel
/// only; ``preset(bank:program:)`` puts it in one slot (to layer it over another bank).
public enum SFZPlacement: Hashable, Sendable {
    /// ``drumKit`` when `SFZInstrument.looksLikeDrumKit` (every region one
    /// key, no pitch tracking), else ``melodic``.
    case automatic
    /// Program 0 of bank 0: every channel but the drum channel.
    case melodic
    /// Program 0 of bank 128: the drum channel.
    case drumKit
    /// One bank and program.
    case preset(bank: UInt16, program: UInt16)
}
