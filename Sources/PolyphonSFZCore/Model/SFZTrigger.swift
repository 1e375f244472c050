/// What starts a region: a key going down (in one of several ways), a key coming up, or a
/// controller crossing into a range.
public struct SFZTrigger: Hashable, Sendable {
    /// `trigger`.
    public var kind: Kind = .attack
    /// `rt_decay`: dB per second a release-triggered region loses for every second the key was
    /// held.
    public var releaseDecay: Float = 0
    /// `rt_dead`: a release region plays even when no voice its key started sounds any more
    /// (off, the default: it plays only while one does, as in sfizz).
    public var playsAfterAttackEnded = false
    /// `start_loccN`/`start_hiccN` (`on_loccN`): the region starts when controller N enters the
    /// range.
    public var controllers: [SFZControllerRange] = []
    /// `sustain_cc`: the controller that acts as sustain pedal (64).
    public var sustainController = 64
    /// `sostenuto_cc`: the controller that acts as sostenuto pedal (66).
    public var sostenutoController = 66
    /// `sustain_lo`: the pedal counts as down from this value (MIDI units, default 1 / 127 of
    /// full scale, as sfizz).
    public var sustainThreshold: Float = 1
    /// `sostenuto_lo`.
    public var sostenutoThreshold: Float = 1
    /// `sustain_sw`: whether the sustain pedal holds the region.
    public var followsSustain = true
    /// `sostenuto_sw`.
    public var followsSostenuto = true

    /// `trigger=` values.
    public enum Kind: String, Hashable, Sendable {
        /// On note-on (the default).
        case attack
        /// On note-off (with the sustain pedal, when it is lifted).
        case release
        /// On note-off, whatever the pedal.
        case releaseKey = "release_key"
        /// On note-on when no other key is held.
        case first
        /// On note-on while another key is held.
        case legato
    }

    /// The defaults: key down starts the region.
    public init() {}

    /// Whether the region starts on a key coming up.
    public var isRelease: Bool { kind == .release || kind == .releaseKey }
}
