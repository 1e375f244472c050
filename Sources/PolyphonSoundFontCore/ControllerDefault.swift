/// A controller's value on a channel playing a preset, before the MIDI stream sets it (SFZ
/// `set_ccN`, `set_hdccN`). SF2 and DLS presets have none.
public struct ControllerDefault: Hashable, Sendable {
    /// The MIDI controller (0–127).
    public var controller: UInt8
    /// Its 7-bit value (0–127).
    public var value: UInt8

    /// Controller `controller` starts at `value` (both clamped to 0–127).
    public init(controller: UInt8, value: UInt8) {
        self.controller = min(controller, 127)
        self.value = min(value, 127)
    }

    /// Whether a controller's value is a message rather than a state a channel holds (bank
    /// select, data entry, the channel-mode messages 120–127): the synthesizer gives such
    /// controllers no default. The data increment and RPN/NRPN selection controllers (96–101)
    /// do take one: a channel keeps their last value apart from the parameter they select, and
    /// SFZ instruments use them as knobs (sfizz gives every controller its `set_ccN`).
    public static func isMessage(_ controller: UInt8) -> Bool {
        switch controller {
        case 0, 6, 32, 38, 120...127: true
        default: false
        }
    }
}
