/// How a region's voices limit and silence one another: polyphony groups (`group`/`off_by`,
/// the SFZ take on exclusive classes), voice limits, and the output it plays to.
public struct SFZPolyphony: Hashable, Sendable {
    /// `group` (`polyphony_group`): the region's polyphony group (0: none).
    public var group: Int64 = 0
    /// `off_by`: a note starting a region of this group silences this region's voices.
    public var offBy: Int64?
    /// `off_mode`: how those voices stop.
    public var offMode: SFZOffMode = .fast
    /// `off_time`: seconds of the release when `off_mode=time` (setting it implies that mode).
    public var offTime: Float = 0.006
    /// `polyphony`: the most voices this region (or, written on a group, the group) plays at
    /// once; nil for no limit (sfizz: 256).
    public var limit: Int?
    /// `polyphony` written on the `<global>`, `<master>` or `<group>` (one without `group=`)
    /// the region sits under: a limit on all the voices under that block together, as sfizz
    /// keeps one per block. (The region's ``limit`` inherits the value too.)
    public var headerLimits: [SFZHeaderLimit] = []
    /// `note_polyphony`: the most voices of this region one key plays at once.
    public var noteLimit: Int?
    /// `note_selfmask`: whether a softer new note may silence a louder one of the same key.
    public var noteSelfMask = true
    /// `output`: the stereo output the region plays to (0).
    public var output = 0

    /// No limits.
    public init() {}
}

/// `off_mode` values.
public enum SFZOffMode: String, Hashable, Sendable {
    /// A fast fade (sfizz: 10 ms).
    case fast
    /// The region's own release.
    case normal
    /// A release of `off_time` seconds.
    case time
}

/// A voice limit written on a header: `limit` voices under block `index` (by order of
/// appearance among the instrument's blocks of its kind).
public struct SFZHeaderLimit: Hashable, Sendable {
    /// The kinds of block a limit may be written on.
    public enum Header: Int, Hashable, Sendable {
        case global, master, group
    }

    public var header: Header
    public var index: Int
    public var limit: Int

    /// `limit` voices under block `index` of kind `header`.
    public init(header: Header, index: Int, limit: Int) {
        self.header = header
        self.index = index
        self.limit = limit
    }
}
