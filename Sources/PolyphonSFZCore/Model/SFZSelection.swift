/// When a region plays: the key, velocity, channel and controller ranges a note must fall in,
/// round robins, random layers and keyswitches.
public struct SFZSelection: Hashable, Sendable {
    /// `lokey`/`hikey` (or `key`), note names or numbers, c4 = 60.
    public var keys = SFZRange<UInt8>(0, 127)
    /// False when `key`/`hikey` is negative (`hikey=-1`): the region is only started by
    /// controllers (`start_loccN`), never by a key.
    public var triggersOnKeys = true
    /// `lovel`/`hivel`.
    public var velocities = SFZRange<UInt8>(0, 127)
    /// `lochan`/`hichan`, MIDI channels 1–16.
    public var channels = SFZRange<UInt8>(1, 16)
    /// `loccN`/`hiccN` (and `lohdccN`/`hihdccN`): every controller must be in its range.
    public var controllers: [SFZControllerRange] = []
    /// `lobend`/`hibend`, −8192…8191.
    public var pitchBend = SFZRange<Float>(-8192, 8192)
    /// `loprog`/`hiprog`, the channel's program 0–127.
    public var programs = SFZRange<UInt8>(0, 127)
    /// `lochanaft`/`hichanaft`, 0–127.
    public var channelPressure = SFZRange<Float>(0, 127)
    /// `lopolyaft`/`hipolyaft`, 0–127.
    public var keyPressure = SFZRange<Float>(0, 127)
    /// `lobpm`/`hibpm`, the host tempo.
    public var tempo = SFZRange<Float>(0, 500)
    /// `lorand`/`hirand`, 0…1: a random number drawn per note must fall in it (random layers).
    public var random = SFZRange<Float>(0, 1)
    /// `seq_length`: the round-robin cycle length, 1–100.
    public var sequenceLength = 1
    /// `seq_position`: which note of the cycle plays this region, 1–100.
    public var sequencePosition = 1
    /// `lotimer`/`hitimer`, seconds since the last note (sfizz extension).
    public var timer = SFZRange<Float>(0, .greatestFiniteMagnitude)
    /// Keyswitches.
    public var keyswitch = SFZKeyswitch()

    /// The defaults: every note, velocity, channel and controller value.
    public init() {}

    /// Whether the region is ever reachable by a key: keys and velocities not written backwards.
    public var isReachable: Bool {
        (!triggersOnKeys || (!keys.isEmpty && !velocities.isEmpty))
    }
}

/// Keyswitches: keys outside the playing range that choose which regions play.
public struct SFZKeyswitch: Hashable, Sendable {
    /// `sw_lokey`/`sw_hikey`: the keys that act as switches (SFZ v1; sfizz reads and ignores
    /// them, the switch keys being known from `sw_last` and friends).
    public var range: SFZRange<UInt8>?
    /// `sw_last`: the region plays when this was the last switch key pressed.
    public var last: UInt8?
    /// `sw_lolast`/`sw_hilast`: the region plays when the last switch key lies in this range.
    public var lastRange: SFZRange<UInt8>?
    /// `sw_down`: the region plays while this key is held.
    public var down: UInt8?
    /// `sw_up`: the region plays while this key is not held.
    public var up: UInt8?
    /// `sw_previous`: the region plays when the previous note was this key.
    public var previous: UInt8?
    /// `sw_default`: the switch in effect before any switch key is pressed.
    public var defaultKey: UInt8?
    /// `sw_label`: the articulation's name.
    public var label: String?
    /// `sw_vel`: whether the note's own velocity or the previous note's chooses the layer.
    public var velocitySource: SFZVelocitySource = .current

    /// No keyswitch.
    public init() {}

    /// Whether any switch condition is set.
    public var isUsed: Bool { last != nil || lastRange != nil || down != nil || up != nil || previous != nil }
}

/// `sw_vel`: whose velocity selects a region.
public enum SFZVelocitySource: String, Hashable, Sendable {
    /// The note's own velocity.
    case current
    /// The previous note's velocity.
    case previous
}
