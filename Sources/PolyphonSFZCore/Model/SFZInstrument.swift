/// An SFZ instrument: its regions with every inherited opcode applied, the sample files they
/// play, the curves and control settings, and what was wrong but readable.
///
/// A value type; its decoded samples live in the ``sampleProvider`` (shared by every copy and
/// every synthesizer that plays the instrument). Read one with
/// ``init(path:fileSystem:limits:)``, or from disk with PolyphonSFZ's
/// `SFZInstrument(contentsOf:)`.
public struct SFZInstrument: Sendable {
    /// The root file.
    public var path: String
    /// `<control>` settings.
    public var control: SFZControl
    /// The playable regions, in file order. Regions with an invalid opcode value, a missing
    /// sample or nothing that can ever trigger them are left out (and warned about).
    public var regions: [SFZRegion]
    /// The sample files the regions play, each once, in order of first use.
    public var samples: [SFZSampleFile]
    /// `<curve>`s, with sfizz's predefined ones.
    public var curves: SFZCurveSet
    /// The key switch in effect before any is pressed (the last `sw_default` read).
    public var defaultKeyswitch: UInt8?
    /// What was wrong but readable, in the order found (duplicates merged).
    public var warnings: [SFZWarning]
    /// How many headers of each kind the text holds (`region`, `group`, `effect` …).
    public var headerCounts: [String: Int]
    /// Decodes the sample files when a voice first needs them (PolyphonSFZ supplies one
    /// reading from disk); nil when the instrument was read without one.
    public var sampleProvider: (any SFZSampleProvider)?

    /// An instrument from its parts.
    public init(path: String, control: SFZControl = SFZControl(), regions: [SFZRegion], samples: [SFZSampleFile],
                curves: SFZCurveSet = SFZCurveSet(), defaultKeyswitch: UInt8? = nil, warnings: [SFZWarning] = [],
                headerCounts: [String: Int] = [:], sampleProvider: (any SFZSampleProvider)? = nil) {
        self.path = path
        self.control = control
        self.regions = regions
        self.samples = samples
        self.curves = curves
        self.defaultKeyswitch = defaultKeyswitch
        self.warnings = warnings
        self.headerCounts = headerCounts
        self.sampleProvider = sampleProvider
    }

    /// Whether any region holds the note `key` at `velocity` as sfizz selects regions on
    /// note-on: key, velocity and triggers by key (not yet keyswitches, controllers or round
    /// robins).
    public func regionIndexes(key: UInt8, velocity: UInt8) -> [Int] {
        regions.indices.filter {
            let s = regions[$0].selection
            return s.triggersOnKeys && s.keys.contains(key) && s.velocities.contains(velocity)
        }
    }

    /// True when the regions look like a drum kit: every region plays one key (or a few) with
    /// `pitch_keytrack=0` or `loop_mode=one_shot` — the hint for which MIDI channel an SFZ
    /// plays on when the user does not say.
    public var looksLikeDrumKit: Bool {
        guard !regions.isEmpty else { return false }
        return regions.allSatisfy { region in
            region.selection.keys.upper &- region.selection.keys.lower < 3
                && (region.pitch.keytrack == 0 || region.playback.loopMode == .oneShot)
        }
    }
}

/// A sample file an instrument's regions play.
public struct SFZSampleFile: Hashable, Sendable {
    /// The path as the regions name it (`default_path` prefixed, `/` separated).
    public var name: String
    /// The file found for it (resolved against the root file's directory, with letter case
    /// corrected where the file system differs).
    public var path: String
    /// Whether the regions play it backwards (`direction=reverse`): decoded reversed.
    public var isReversed: Bool

    /// A sample file `name` found at `path`.
    public init(name: String, path: String, isReversed: Bool = false) {
        self.name = name
        self.path = path
        self.isReversed = isReversed
    }
}
