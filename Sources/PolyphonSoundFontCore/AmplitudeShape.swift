/// How a zone's level follows the note and the controllers beyond SoundFont 2, with sfizz's
/// formulas (SFZ's `amp_veltrack`, `amp_velcurve_N`, `amp_keytrack`, `amp_random`, a gain above
/// 0 dB, the `xfin_*`/`xfout_*` crossfades and `amplitude_onccN`).
///
/// The note's part (velocity, key, random draw, key and velocity crossfades, the gain) is
/// worked out once when the voice starts; the controllers' part (controller crossfades and
/// `amplitude_onccN`) whenever a controller on the channel moves. A zone with one may be
/// louder than 0 dB: its attenuation can fall below 0 (SF2 clamps it there).
public struct AmplitudeShape: Hashable, Sendable {
    /// dB added at every note: the part of the zone's level above 0 dB, which SF2's attenuation
    /// cannot hold.
    public var gain: Float = 0
    /// sfizz's velocity curve in place of SF2's default velocity → attenuation modulator (which
    /// the zone cancels); nil keeps SF2's.
    public var velocity: VelocityTracking?
    /// dB per key above ``keycenter`` (`amp_keytrack`).
    public var keytrack: Float = 0
    /// The key at which ``keytrack`` adds nothing (`amp_keycenter`).
    public var keycenter: UInt8 = 60
    /// dB drawn per note, uniformly between 0 and this (`amp_random`).
    public var random: Float = 0
    /// Zones of the same stream draw the same number for a note (the two sides of a stereo
    /// file); different streams draw independently.
    public var randomStream: UInt32 = 0
    /// Fades over the note's key and velocity (`xfin_lokey` … `xfout_hivel`).
    public var noteCrossfades: [Crossfade] = []
    /// Fades over controllers (`xfin_loccN` … `xfout_hiccN`), following them while the note sounds.
    public var controllerCrossfades: [ControllerCrossfade] = []
    /// Controllers multiplying the gain by depth × their curve's value (`amplitude_onccN` with
    /// `amplitude_curveccN`; several multiply).
    public var controllerGains: [ControllerDepth] = []

    /// A shape that changes nothing.
    public init() {}

    /// Whether the controllers' part applies (it is 1 otherwise).
    public var followsControllers: Bool { !controllerCrossfades.isEmpty || !controllerGains.isEmpty }

    /// sfizz's `amp_veltrack` with its curve (`amp_velcurve_N`, or velocity²) and
    /// `amp_veltrack_onccN`.
    public struct VelocityTracking: Hashable, Sendable {
        /// `amp_veltrack` as a fraction, −1…1 (1: the curve as it is; 0: velocity ignored;
        /// negative: the curve turned over).
        public var tracking: Float
        /// The curve's gain at each velocity 0…127, or empty for sfizz's default (v/127)².
        public var curve: [Float]
        /// Controllers adding depth × their curve's value to ``tracking`` at note-on.
        public var controllers: [ControllerDepth]

        /// Tracking `tracking` (a fraction) through `curve` (128 gains, or empty).
        public init(tracking: Float, curve: [Float] = [], controllers: [ControllerDepth] = []) {
            self.tracking = tracking
            self.curve = curve
            self.controllers = controllers
        }

        /// sfizz's `velocityCurve`: g = curve(v); |t|·(1 − g), turned over for t ≥ 0.
        public func gain(velocity: Int, trackingOffset: Float = 0) -> Float {
            let v = min(max(velocity, 0), 127)
            let g: Float
            if curve.count == 128 {
                g = curve[v]
            } else {
                let x = Float(v) / 127
                g = x * x
            }
            let t = tracking + trackingOffset
            let fall = abs(t) * (1 - g)
            return t < 0 ? fall : 1 - fall
        }
    }

    /// A fade in or out over a range of the key (key numbers), the velocity or a controller
    /// (both as value/127), with sfizz's arithmetic (`crossfadeIn`/`crossfadeOut`).
    public struct Crossfade: Hashable, Sendable {
        /// What the fade follows.
        public enum Source: UInt8, Hashable, Sendable { case key, velocity, controller }
        /// Linear in amplitude, or equal power (the square root).
        public enum Curve: UInt8, Hashable, Sendable { case gain, power }

        /// What the fade follows.
        public var source: Source
        /// True for a fade in (silent below ``start``), false for a fade out (silent above ``end``).
        public var fadesIn: Bool
        /// Where the fade starts and ends, in the source's unit (sfizz reads an upper velocity
        /// or controller bound N below 127 as just under (N + 1)/127).
        public var start: Float
        /// See ``start``.
        public var end: Float
        /// How the gain rises or falls across the range.
        public var curve: Curve

        /// A fade over `start…end` of `source`.
        public init(_ source: Source, fadesIn: Bool, start: Float, end: Float, curve: Curve) {
            self.source = source
            self.fadesIn = fadesIn
            self.start = start
            self.end = end
            self.curve = curve
        }

        /// A fade over MIDI values `lower…upper` (0–127) of the velocity or a controller, its
        /// bounds as sfizz stores them.
        public init(_ source: Source, fadesIn: Bool, lower: Float, upper: Float, curve: Curve) {
            let start = min(max(lower, 0), 127) / 127
            let high = min(max(upper, 0), 127)
            // sfizz's kFillGap: an upper bound below 127 reaches just under the next value.
            let end = high <= 126 ? ((high + 1) / 127).nextDown : high / 127
            self.init(source, fadesIn: fadesIn, start: start, end: end, curve: curve)
        }

        /// The gain at `value` (a key number, or velocity or controller value/127).
        public func gain(at value: Float) -> Float {
            // sfizz's gap: one step of a 7-bit value, truncated to 0 for key numbers.
            let gap: Float = source == .key ? 0 : 1 / Float(127)
            let length = (end - start) - gap
            if fadesIn {
                if value < start { return 0 }
                if length <= 0 { return 1 }
                guard value < end else { return 1 }
                let position = (value - start) / length
                return curve == .power ? position.squareRoot() : position
            }
            if length <= 0 { return 1 }
            guard value > start else { return 1 }
            let position = (value - start) / length
            if position > 1 { return 0 }
            return curve == .power ? (1 - position).squareRoot() : 1 - position
        }
    }

    /// A crossfade over one controller (0–127).
    public struct ControllerCrossfade: Hashable, Sendable {
        /// The MIDI controller followed.
        public var controller: UInt8
        /// The fade over its value/127.
        public var fade: Crossfade

        /// `fade` following `controller`.
        public init(controller: UInt8, fade: Crossfade) {
            self.controller = controller
            self.fade = fade
        }
    }
}
