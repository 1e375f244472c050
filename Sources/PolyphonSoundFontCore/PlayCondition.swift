/// When a zone plays beyond its key and velocity ranges, and how its voice answers note-off:
/// the play-time rules of SFZ regions (round robin, random layers, keyswitches, controller,
/// bend, channel and pressure ranges, release triggers, one-shots, polyphony groups), which the
/// synthesizer evaluates at note-on and note-off against the channel's state.
///
/// SF2 zones carry none (``Zone/playCondition`` is nil) and play as SF2 says; a preset with at
/// least one zone carrying a condition is played by the condition-aware path.
public struct PlayCondition: Hashable, Sendable {
    /// What starts the zone's voice.
    public enum Trigger: UInt8, Hashable, Sendable {
        /// A key going down (SF2's only trigger).
        case attack
        /// A key coming up; with the sustain pedal down, the pedal lifting.
        case release
        /// A key coming up, whatever the pedal.
        case releaseKey
        /// A key going down while no other key is held.
        case first
        /// A key going down while another key is held.
        case legato
    }

    /// A controller's value (7-bit MIDI units) must lie in `lower...upper`.
    public struct ControllerRange: Hashable, Sendable {
        /// The controller number, 0–127.
        public var controller: UInt8
        /// Lowest value admitted.
        public var lower: Float
        /// Highest value admitted.
        public var upper: Float

        /// A condition on `controller`.
        public init(controller: UInt8, lower: Float, upper: Float) {
            self.controller = controller
            self.lower = lower
            self.upper = upper
        }
    }

    /// What starts the voice.
    public var trigger = Trigger.attack
    /// dB a release-triggered voice loses per second the key was held (`rt_decay`).
    public var releaseDecay: Float = 0
    /// Whether a release-triggered zone plays even when no voice of its key and velocity range
    /// sounds any more (`rt_dead=on`).
    public var releasePlaysAfterAttackEnded = false
    /// MIDI channels 1–16 (channel index modulo 16, plus one).
    public var channels: ClosedRange<UInt8> = 1...16
    /// Every controller must lie in its range.
    public var controllers: [ControllerRange] = []
    /// The pitch wheel, −8192…8192 around its centre.
    public var pitchBend: ClosedRange<Float> = -8192...8192
    /// The channel's program.
    public var programs: ClosedRange<UInt8> = 0...127
    /// Channel pressure.
    public var channelPressure: ClosedRange<UInt8> = 0...127
    /// The key's pressure.
    public var keyPressure: ClosedRange<UInt8> = 0...127
    /// A number drawn per note in [0, 1) must satisfy `lower ≤ r < upper` (random layers).
    public var randomLower: Float = 0
    /// See ``randomLower``.
    public var randomUpper: Float = 1
    /// Round robin: the zone plays on note `sequencePosition` of every `sequenceLength` notes
    /// that reach its key range.
    public var sequenceLength = 1
    /// See ``sequenceLength`` (1-based).
    public var sequencePosition = 1
    /// Which of the preset's round-robin counters counts for the zone (each zone its own).
    public var counter = 0
    /// Keyswitch: the last switch key pressed must lie in this range (`sw_last`, `sw_lolast`).
    public var lastKeyswitch: ClosedRange<UInt8>?
    /// The switch in effect before any switch key is pressed (`sw_default`).
    public var defaultKeyswitch: UInt8?
    /// The zone plays while this key is held (`sw_down`).
    public var keyDown: UInt8?
    /// The zone plays while this key is not held (`sw_up`).
    public var keyUp: UInt8?
    /// The zone plays when the previous note was this key (`sw_previous`).
    public var previousKey: UInt8?
    /// The voice plays to its end whatever note-off comes (`loop_mode=one_shot`).
    public var ignoresNoteOff = false
    /// The zone's polyphony group (`group`); 0 for none.
    public var group: Int = 0
    /// A voice of this zone stops when a zone of this group starts (`off_by`).
    public var offBy: Int?
    /// How: in this many seconds of release (`off_mode=fast|time`), or nil for the zone's own
    /// release (`off_mode=normal`).
    public var offTime: Float? = 0.006
    /// Which region of its instrument the zone plays (the two zones of a stereo file alike):
    /// voices of one region count as one for ``polyphony`` and stop together.
    public var region = 0
    /// How many voices may sound at once (`polyphony`, `note_polyphony`).
    public var polyphony = PolyphonyLimits()
    /// The pedal that holds the zone's voices after note-off, and its release triggers until
    /// it lifts (`sustain_cc`, `sustain_lo`, `sustain_sw`).
    public var sustainPedal = SustainPedal()

    /// No condition beyond key and velocity.
    public init() {}

    /// Whether the zone starts on a key coming up.
    public var isRelease: Bool { trigger == .release || trigger == .releaseKey }

    /// Whether the random draw `r` in [0, 1) admits the zone (sfizz: `lorand ≤ r < hirand`).
    @inlinable
    public func admitsRandom(_ r: Float) -> Bool {
        (randomLower <= r && r < randomUpper) || (r >= 1 && randomUpper >= 1)
    }
}
