/// A region's level and place in the stereo field, and how keys and velocity shape them.
public struct SFZAmplitude: Hashable, Sendable {
    /// `volume` (`gain`) in dB, and `volume_onccN` moving it.
    public var volume = SFZModulatedValue(0)
    /// `amplitude` in percent (100), and `amplitude_onccN`.
    public var amplitude = SFZModulatedValue(100)
    /// `pan`, −100 (left) … 100 (right), and `pan_onccN`.
    public var pan = SFZModulatedValue(0)
    /// `position` of a stereo sample's centre, −100 … 100, and `position_onccN`.
    public var position = SFZModulatedValue(0)
    /// `width` of a stereo sample, −100 … 100 (100: as recorded; 0: mono), and `width_onccN`.
    public var width = SFZModulatedValue(100)
    /// `amp_keycenter`: the key at which `amp_keytrack` has no effect (60).
    public var keycenter: UInt8 = 60
    /// `amp_keytrack`: dB per key away from `amp_keycenter`.
    public var keytrack: Float = 0
    /// `amp_veltrack` in percent (100: velocity 1 is silent; 0: velocity has no effect), and
    /// `amp_veltrack_onccN` (with `amp_veltrack_curveccN`).
    public var velocityTracking = SFZModulatedValue(100)
    /// `amp_velcurve_N`: points of the velocity → gain curve (gain 0…1), sorted by velocity.
    /// Empty means sfizz's default, gain = (velocity / 127)².
    public var velocityCurve: [SFZVelocityPoint] = []
    /// `amp_random`: dB of random level change per note (±).
    public var random: Float = 0
    /// `global_amplitude`, `master_amplitude`, `group_amplitude` in percent (100).
    public var globalAmplitude: Float = 100
    /// See ``globalAmplitude``.
    public var masterAmplitude: Float = 100
    /// See ``globalAmplitude``.
    public var groupAmplitude: Float = 100
    /// `global_volume`, `master_volume`, `group_volume` in dB.
    public var globalVolume: Float = 0
    /// See ``globalVolume``.
    public var masterVolume: Float = 0
    /// See ``globalVolume``.
    public var groupVolume: Float = 0
    /// `effect1`, `effect2`, …: send levels in percent to the effect buses (by ARIA's convention
    /// 1 is reverb and 2 chorus).
    public var effectSends: [SFZEffectSend] = []

    /// The defaults: full level, centred.
    public init() {}
}

/// One point of `amp_velcurve_N`.
public struct SFZVelocityPoint: Hashable, Sendable {
    /// The velocity, 0–127.
    public var velocity: UInt8
    /// The gain at that velocity, 0…1.
    public var gain: Float

    /// Gain `gain` at `velocity`.
    public init(velocity: UInt8, gain: Float) {
        self.velocity = velocity
        self.gain = gain
    }
}

/// `effectN`: how much of a region goes to effect bus N.
public struct SFZEffectSend: Hashable, Sendable {
    /// The bus, from 1.
    public var bus: Int
    /// The level in percent.
    public var level: Float

    /// `level` percent to `bus`.
    public init(bus: Int, level: Float) {
        self.bus = bus
        self.level = level
    }
}
