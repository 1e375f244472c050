/// How many voices of a zone may sound at once, as sfizz counts them: a new voice past a limit
/// stops the oldest voice counted (the quietest on the same key for `note_polyphony`), which
/// fades out as its zone's `off_mode` says. Voices already stopped this way do not count;
/// released ones do.
public struct PolyphonyLimits: Hashable, Sendable {
    /// Voices of the zone's region (`polyphony` on a region).
    public var region: Int?
    /// Voices of every zone in its polyphony group (``PlayCondition/group``): `polyphony` with
    /// `group=N` on a region or group header.
    public var group: Int?
    /// Voices in its polyphony group on the same key (`note_polyphony`).
    public var note: Int?
    /// With `note_polyphony`, a new note stops only voices struck no harder (`note_selfmask=on`,
    /// the default); off, it stops the oldest whatever their velocity.
    public var noteSelfMask = true
    /// Limits on every voice under one header (`polyphony` written on a `<global>`,
    /// `<master>` or `<group>` without `group=`), at most three.
    public var headers: [HeaderLimit] = []

    /// A limit shared by the voices of every zone under one header.
    public struct HeaderLimit: Hashable, Sendable {
        /// Tells the header from the instrument's others (zones under it share it).
        public var header: Int
        public var limit: Int

        /// `limit` voices under header `header`.
        public init(header: Int, limit: Int) {
            self.header = header
            self.limit = limit
        }
    }

    /// No limits.
    public init() {}

    /// Whether any limit is set.
    public var isLimited: Bool { region != nil || group != nil || note != nil || !headers.isEmpty }
}

/// The controller acting as the sustain pedal for a zone's voices: down from `threshold`
/// (0–127) on, or never when `isFollowed` is false. The default is MIDI's pedal, CC 64 down
/// from 64 (SFZ instruments set their own: sfizz's counts CC 64 down from 1).
public struct SustainPedal: Hashable, Sendable {
    public var controller: UInt8 = 64
    public var threshold: UInt8 = 64
    public var isFollowed = true

    /// MIDI's pedal.
    public init() {}

    /// `controller` holding from `threshold` on, or not followed at all.
    public init(controller: UInt8, threshold: UInt8, isFollowed: Bool = true) {
        self.controller = controller
        self.threshold = threshold
        self.isFollowed = isFollowed
    }

    /// Whether the pedal holds at controller value `value`.
    @inlinable
    public func holds(_ value: UInt8) -> Bool { isFollowed && value >= threshold }
}
