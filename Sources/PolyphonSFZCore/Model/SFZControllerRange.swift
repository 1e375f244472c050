/// A condition on one MIDI controller: `locc64=0 hicc64=63`, `xfin_locc1=0 xfin_hicc1=64`,
/// `start_locc64=64`. Values are in MIDI units (0–127; `*hdcc*` opcodes, written 0–1, are
/// scaled to the same units).
public struct SFZControllerRange: Hashable, Sendable {
    /// The controller number (see ``SFZControllerInput/controller``).
    public var controller: Int
    /// The values, both ends included.
    public var range: SFZRange<Float>

    /// A condition on `controller`.
    public init(controller: Int, range: SFZRange<Float>) {
        self.controller = controller
        self.range = range
    }
}

extension Array where Element == SFZControllerRange {
    /// Sets the lower or upper end for `controller`, adding the condition with `defaults` if it
    /// is new.
    mutating func update(_ controller: Int, defaults: SFZRange<Float>, _ change: (inout SFZRange<Float>) -> Void) {
        if let index = firstIndex(where: { $0.controller == controller }) {
            change(&self[index].range)
        } else {
            var range = defaults
            change(&range)
            append(SFZControllerRange(controller: controller, range: range))
        }
    }
}
