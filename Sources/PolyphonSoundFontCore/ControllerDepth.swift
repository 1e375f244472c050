/// A controller moving a value in proportion to its position: `depth` at full scale, through
/// an optional curve. What SFZ's `*_onccN` opcodes describe, wherever a zone built in code
/// uses them (levels, filters, envelopes, routed modulation, note-on values).
///
/// The controller is numbered as sfizz numbers them: 0–127 MIDI controllers, 128 the pitch
/// wheel (−1…1), 129 channel pressure, 130 the note's key pressure, 131 note-on velocity,
/// 133 the key. Where a value reads only MIDI controllers, it says so.
public struct ControllerDepth: Hashable, Sendable {
    /// The controller, in sfizz's numbering.
    public var controller: Int
    /// What it contributes at full scale (at the curve's 1).
    public var depth: Float
    /// The curve's value at each controller value 0–127 (`*_curveccN`), or empty for the
    /// straight line value/127.
    public var curve: [Float]

    /// `controller` adding `depth` at its full value, through `curve` (128 values, or empty
    /// for value/127).
    public init(controller: Int, depth: Float, curve: [Float] = []) {
        self.controller = controller
        self.depth = depth
        self.curve = curve
    }

    /// What a MIDI controller contributes at `value` (0–127).
    @inlinable
    public func contribution(at value: UInt8) -> Float {
        let v = Int(value & 127)
        // depth × v / 127 in that order: whole frames and times come out exact (1270 at 64 is 640).
        return curve.count == 128 ? depth * curve[v] : depth * Float(v) / 127
    }
}
