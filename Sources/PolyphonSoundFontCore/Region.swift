/// What one voice needs to start: the generator set and modulator list that result from
/// combining a preset zone with an instrument zone (SF2 2.04 §9.4), resolved once so the
/// engine never walks the zone tables while playing.
public struct Region: Sendable {
    /// Notes this region answers: the intersection of preset and instrument zone key ranges.
    public var keyRange: ClosedRange<UInt8>
    /// Velocities this region answers: the intersection of both zones' velocity ranges.
    public var velocityRange: ClosedRange<UInt8>
    /// Instrument values (local over global over spec defaults) plus preset offsets (local
    /// over global), **not yet clamped**: the engine adds modulator output, then clamps with
    /// ``GeneratorType/range``. initialAttenuation here is the raw file value (the engine
    /// applies FluidSynth's 0.4 factor).
    public var generators: GeneratorSet
    /// Merged modulators: the ten defaults, replaced by identical instrument modulators
    /// (local over global), then preset modulators added (summing amounts of identical ones,
    /// local over global). Modulators with amount 0 are kept (they cancel a default).
    public var modulators: [Modulator]
    /// Index into ``SoundFont/samples``.
    public var sampleIndex: Int
    /// The instrument zone's play-time rules (nil: the region plays whenever it contains the
    /// note, as SF2 says).
    public var playCondition: PlayCondition?
    /// What the instrument zone plays beyond SF2 (else its global zone's), nil for nothing.
    public var shaping: VoiceShaping? {
        get { shapingStorage?.shaping }
        set { shapingStorage = newValue.map(SharedVoiceShaping.init) }
    }
    /// Behind a reference: most regions (every SF2 one) have none, and a bank holds thousands.
    private var shapingStorage: SharedVoiceShaping?

    /// A region from already resolved values (see ``SoundFont/regions(forPresetAt:defaultModulators:)``).
    public init(keyRange: ClosedRange<UInt8>, velocityRange: ClosedRange<UInt8>,
                generators: GeneratorSet, modulators: [Modulator], sampleIndex: Int,
                playCondition: PlayCondition? = nil, shaping: VoiceShaping? = nil) {
        self.keyRange = keyRange
        self.velocityRange = velocityRange
        self.generators = generators
        self.modulators = modulators
        self.sampleIndex = sampleIndex
        self.playCondition = playCondition
        self.shaping = shaping
    }

    /// True when the note falls inside both ranges.
    @inlinable
    public func contains(key: UInt8, velocity: UInt8) -> Bool {
        keyRange.contains(key) && velocityRange.contains(velocity)
    }
}
