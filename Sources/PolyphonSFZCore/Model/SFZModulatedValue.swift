/// How a MIDI controller moves a value: `volume_oncc7=-12` is controller 7 adding up to −12 dB,
/// shaped by `volume_curvecc7`, smoothed by `volume_smoothcc7` and quantised by
/// `volume_stepcc7`.
public struct SFZControllerInput: Hashable, Sendable {
    /// The controller: 0–127 MIDI's, 128–511 sfizz's extended sources (128 pitch bend, 129
    /// channel pressure, 130 polyphonic pressure, 131 note-on velocity, 132 note-off velocity,
    /// 133 key number, 134 key gate, 135/136 unipolar/bipolar random, 137 alternate, …).
    public var controller: Int
    /// What the controller adds at its full value, in the unit of the value it moves.
    public var depth: Float = 0
    /// The `<curve>` (by index) the controller's value passes through; 0 is linear.
    public var curve: Int = 0
    /// Smoothing time in milliseconds (`*_smoothccN`).
    public var smoothing: Int = 0
    /// Quantisation step in the unit of the depth (`*_stepccN`); 0 means none.
    public var step: Float = 0

    /// Controller `controller` moving its value by `depth` at full scale.
    public init(controller: Int, depth: Float = 0) {
        self.controller = controller
        self.depth = depth
    }
}

/// A value an instrument sets (`volume=-6`) together with the controllers that move it
/// (`volume_oncc7=…`).
public struct SFZModulatedValue: Hashable, Sendable {
    /// The value as set, in the opcode's unit.
    public var value: Float
    /// The controllers moving it, in the order first written.
    public var controllers: [SFZControllerInput] = []

    /// A value of `value` that no controller moves (yet).
    public init(_ value: Float) {
        self.value = value
    }

    /// The input for `controller`, created (at depth 0) if there is none yet: `*_onccN`,
    /// `*_curveccN`, `*_smoothccN` and `*_stepccN` each set one field of the same input.
    public mutating func updateController(_ controller: Int, _ update: (inout SFZControllerInput) -> Void) {
        if let index = controllers.firstIndex(where: { $0.controller == controller }) {
            update(&controllers[index])
        } else {
            var input = SFZControllerInput(controller: controller)
            update(&input)
            controllers.append(input)
        }
    }
}
