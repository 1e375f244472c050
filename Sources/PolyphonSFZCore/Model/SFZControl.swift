/// What `<control>` blocks set for the whole instrument.
///
/// `default_path`, `note_offset` and `octave_offset` act on the regions that follow them and
/// are applied as the regions are read (a new `<control>` resets `default_path`); what is kept
/// here is their last value.
public struct SFZControl: Hashable, Sendable {
    /// `default_path`: prefixed to the sample paths of the regions that follow.
    public var defaultPath = ""
    /// `note_offset`: semitones added to every key the following regions name.
    public var noteOffset = 0
    /// `octave_offset`: octaves added likewise.
    public var octaveOffset = 0
    /// `set_ccN` (and `set_hdccN`, scaled to 0–127): controller values before any MIDI
    /// arrives.
    public var controllerDefaults: [Int: Float] = [:]
    /// `label_ccN`: names of controllers.
    public var controllerLabels: [Int: String] = [:]
    /// `label_keyN`: names of keys.
    public var keyLabels: [Int: String] = [:]
    /// `hint_*`: advice to the player (`hint_ram_based`, `hint_stealing` …), kept as written.
    public var hints: [String: String] = [:]

    /// Nothing set.
    public init() {}
}
