/// Where one side of a stereo sample plays, as sfizz places a stereo region: the `pan` stage
/// on each side, then `width` mixing the two sides, then `position` moving the result (SFZ's
/// `pan`, `width`, `position` and their `_onccN` forms). Each side of the file is its own zone
/// with its own shape; the modulators aimed at the zone's `pan` generator add to ``pan``, while
/// the generator itself keeps the side hard left or right for players without the shape.
public struct StereoShape: Hashable, Sendable {
    /// Which side of the file the zone plays.
    public enum Side: UInt8, Hashable, Sendable { case left, right }

    /// Which side of the file the zone plays.
    public var side: Side
    /// `pan` as a fraction, −1 (left) … 1 (right).
    public var pan: Float
    /// `width` as a fraction, −1…1 (1: as recorded; 0: both sides in the middle; −1: swapped).
    public var width: Float
    /// `position` as a fraction, −1 (left) … 1 (right).
    public var position: Float
    /// Controllers adding depth × value/127 to ``width`` (`width_onccN`, fractions).
    public var widthControllers: [ControllerDepth]
    /// Controllers adding depth × value/127 to ``position`` (`position_onccN`, fractions).
    public var positionControllers: [ControllerDepth]

    /// The `side` of a stereo file at `pan`, `width` and `position` (fractions).
    public init(side: Side, pan: Float = 0, width: Float = 1, position: Float = 0,
                widthControllers: [ControllerDepth] = [],
                positionControllers: [ControllerDepth] = []) {
        self.side = side
        self.pan = pan
        self.width = width
        self.position = position
        self.widthControllers = widthControllers
        self.positionControllers = positionControllers
    }
}
