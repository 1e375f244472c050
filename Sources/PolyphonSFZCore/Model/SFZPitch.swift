/// A region's pitch: the key its sample sounds at, how keys and velocity move it, tuning and
/// the pitch wheel.
public struct SFZPitch: Hashable, Sendable {
    /// `pitch_keycenter`: the key at which the sample plays at its recorded pitch (60).
    public var keycenter: UInt8 = 60
    /// `pitch_keycenter=sample`: take the key from the sample file's `smpl`/`INST` chunk.
    public var keycenterFromSample = false
    /// `pitch_keytrack`: cents per key away from the keycenter (100; 0 plays every key at the
    /// sample's pitch).
    public var keytrack: Float = 100
    /// `pitch_veltrack`: cents added at full velocity; `pitch_veltrack_onccN` adds to it.
    public var velocityTracking = SFZModulatedValue(0)
    /// `pitch_random`: the most cents a note's random detune adds (a uniform draw in 0…this,
    /// one way, as sfizz draws it).
    public var random: Float = 0
    /// `transpose`: semitones.
    public var transpose: Float = 0
    /// `tune` (`pitch`) in cents, and `tune_onccN`/`pitch_onccN` moving it.
    public var tune = SFZModulatedValue(0)
    /// `bend_up`: cents at full upward pitch bend (200).
    public var bendUp: Float = 200
    /// `bend_down`: cents at full downward pitch bend (−200).
    public var bendDown: Float = -200
    /// `bend_step`: the bend moves in steps of this many cents (1).
    public var bendStep: Float = 1
    /// `bend_smooth`: milliseconds of smoothing.
    public var bendSmoothing = 0

    /// The defaults.
    public init() {}
}
