/// One region of an SFZ instrument with every opcode of its `<global>`, `<master>`, `<group>`
/// and own block applied in that order (later ones override), as sfizz builds it: the complete
/// description of what plays, when and how.
///
/// Values are in the units the SFZ format documents them in (dB, cents, percent, seconds, MIDI
/// 0–127), so they read as the file reads; the engine converts.
public struct SFZRegion: Hashable, Sendable {
    /// Where the `<region>` header was written.
    public var location: SFZLocation
    /// The blocks the region sits in (to group regions as their headers do, e.g. for
    /// `polyphony` written on a `<group>`).
    public var parents = SFZParentHeaders()
    /// When the region plays.
    public var selection = SFZSelection()
    /// What starts it.
    public var trigger = SFZTrigger()
    /// Pitch.
    public var pitch = SFZPitch()
    /// Level and stereo placement.
    public var amplitude = SFZAmplitude()
    /// Crossfades by key, velocity and controller.
    public var crossfade = SFZCrossfade()
    /// What is played and how.
    public var playback = SFZPlayback()
    /// Voice limits and polyphony groups.
    public var polyphony = SFZPolyphony()
    /// `ampeg_*`.
    public var amplitudeEnvelope = SFZEnvelope.amplitudeDefault
    /// `pitcheg_*`, nil when none is written.
    public var pitchEnvelope: SFZEnvelope?
    /// `fileg_*`, nil when none is written.
    public var filterEnvelope: SFZEnvelope?
    /// `fil_*`/`cutoff`/`resonance` (index 0) and `filN_*` (index N−1); empty for no filter.
    public var filters: [SFZFilter] = []
    /// `eqN_*` (index N−1).
    public var equalizers: [SFZEqualizer] = []
    /// `amplfo_*`, nil when none is written.
    public var amplitudeLFO: SFZLegacyLFO?
    /// `pitchlfo_*`, nil when none is written.
    public var pitchLFO: SFZLegacyLFO?
    /// `fillfo_*`, nil when none is written.
    public var filterLFO: SFZLegacyLFO?
    /// `lfoN_*` (index N−1).
    public var lfos: [SFZLFO] = []
    /// `egN_*` (index N−1).
    public var flexEnvelopes: [SFZFlexEnvelope] = []
    /// Which of ``SFZInstrument/samples`` the region plays, once the loader has found its file;
    /// nil for a generator.
    public var sampleIndex: Int?

    /// A region at `location` with SFZ's defaults.
    public init(location: SFZLocation) {
        self.location = location
    }
}

/// The `<global>`, `<master>` and `<group>` blocks a region sits in, by their order of
/// appearance in the instrument (nil where there is none above the region).
public struct SFZParentHeaders: Hashable, Sendable {
    /// The `<global>` block.
    public var global: Int?
    /// The `<master>` block.
    public var master: Int?
    /// The `<group>` block.
    public var group: Int?

    /// No parents.
    public init(global: Int? = nil, master: Int? = nil, group: Int? = nil) {
        self.global = global
        self.master = master
        self.group = group
    }
}
