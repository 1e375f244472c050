import PolyphonSoundFontCore

/// What a preset whose regions carry play conditions (an SFZ instrument) needs beyond its
/// regions: which keys are switch keys, the switch in effect before any is pressed, how many
/// round-robin counters it counts, and whether any region starts on a key coming up.
struct PresetPlayRules: Sendable {
    /// Keys whose note-on chooses the keyswitch (bit k of word k / 64).
    private(set) var switchKeys: (UInt64, UInt64) = (0, 0)
    /// The switch in effect before a switch key is pressed (−1: none, so keyswitched regions
    /// stay silent until one is).
    private(set) var defaultKeyswitch = -1
    /// One past the highest round-robin counter the regions use.
    private(set) var counterCount = 0
    /// Whether a note-off may start voices.
    private(set) var hasReleaseRegions = false

    /// The rules of a preset's regions; nil when none carries a condition (SF2 presets).
    init?(_ regions: [Region]) {
        var any = false
        for region in regions {
            guard let condition = region.playCondition else { continue }
            any = true
            if let keys = condition.lastKeyswitch {
                for key in keys where key < 128 { markSwitch(Int(key)) }
            }
            if defaultKeyswitch < 0, let key = condition.defaultKeyswitch { defaultKeyswitch = Int(key) }
            counterCount = max(counterCount, condition.counter + 1)
            if condition.isRelease { hasReleaseRegions = true }
        }
        guard any else { return nil }
    }

    private mutating func markSwitch(_ key: Int) {
        if key < 64 { switchKeys.0 |= 1 << UInt64(key) } else { switchKeys.1 |= 1 << UInt64(key - 64) }
    }

    /// Whether `key` is a switch key.
    func isSwitchKey(_ key: Int) -> Bool {
        key < 64 ? switchKeys.0 >> UInt64(key) & 1 == 1 : switchKeys.1 >> UInt64(key - 64) & 1 == 1
    }
}

/// What a channel remembers for presets with play conditions: the keys held and when and how
/// hard they were struck, the keyswitch, the previous note, the round-robin counters and the
/// releases the sustain pedal holds back. Allocated once per channel, so notes never allocate.
final class PlayState {
    /// Keys down, switch keys included (for `sw_down`/`sw_up`).
    var isHeld = [Bool](repeating: false, count: 128)
    /// Notes down, switch keys excluded (for `first`/`legato` and release triggers).
    var isNoteDown = [Bool](repeating: false, count: 128)
    /// How many notes are down.
    var notesDown = 0
    /// Frame and velocity of each key's last note-on.
    var noteOnFrame = [Int64](repeating: 0, count: 128)
    var noteOnVelocity = [UInt8](repeating: 0, count: 128)
    /// The output bus each key's last note-on named (where its release voices play).
    var noteOnBus = [Int](repeating: 0, count: 128)
    /// The last switch key pressed (−1: none yet, so the preset's default holds).
    var keyswitch = -1
    /// The previous note's key (−1: none).
    var previousKey = -1
    /// Round-robin counters, by ``PlayCondition/counter``.
    var counters: [Int]
    /// Release regions waiting for their sustain pedal to lift: the zone (index in the
    /// preset's regions), the key and the velocity it plays at, as sfizz keeps them (a full
    /// list drops new ones, as sfizz's does).
    var pendingReleases = [PendingRelease](repeating: PendingRelease(), count: PlayState.pendingCapacity)
    var pendingCount = 0
    static let pendingCapacity = 256
    /// Voices an `off_by` cut while starting a zone, per key: each plays the key's release
    /// regions, as a note-off would (sfizz).
    var cutVoices = [UInt8](repeating: 0, count: 128)
    var cutVelocity = [UInt8](repeating: 0, count: 128)
    /// The last zone a note started and its random draws: the second zone of a stereo file
    /// takes the first's (one sfizz voice).
    var lastStart = (event: 0, region: -1, delayDraw: Float(0), offsetDraw: Float(0))
    /// Counts note-ons, note-offs and pedal lifts, telling one start's zones from another's.
    var event = 0

    struct PendingRelease {
        var zone: Int32 = 0
        var key: UInt8 = 0
        var velocity: UInt8 = 0
    }

    init(counterCount: Int) {
        counters = [Int](repeating: 0, count: max(counterCount, 1))
    }

    /// Every key up at once (all notes off, all sound off): no note counts as held, and no
    /// release waits for the pedal.
    func forgetKeys() {
        for key in 0..<128 {
            isHeld[key] = false
            isNoteDown[key] = false
        }
        notesDown = 0
        pendingCount = 0
    }
}
