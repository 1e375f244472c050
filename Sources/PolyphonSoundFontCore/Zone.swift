/// A preset or instrument zone: its generators and modulators in file order.
///
/// In a preset zone the last generator is `instrument` (41); in an instrument zone it is
/// `sampleID` (53). A zone without that terminal generator, if first, is the global zone.
public struct Zone: Hashable, Sendable {
    /// Generators in file order.
    public var generators: [Generator]
    /// Modulators in file order.
    public var modulators: [Modulator]
    /// Play-time rules of an SFZ region (nil for SF2 and DLS zones). An instrument zone's are
    /// written to and read from SF2 in a private list other readers skip (``SoundFont/serialized()``).
    public var playCondition: PlayCondition?
    /// What an instrument zone built in code plays beyond SF2 (SFZ instruments), nil for
    /// nothing. Written to and read from SF2 beside ``playCondition``.
    public var shaping: VoiceShaping? {
        get { shapingStorage?.shaping }
        set { shapingStorage = newValue.map(SharedVoiceShaping.init) }
    }
    /// Behind a reference, as in ``Region``: most zones have none.
    private var shapingStorage: SharedVoiceShaping?

    /// A zone with the given generators and modulators, its play-time rules and what it plays
    /// beyond SF2.
    public init(generators: [Generator] = [], modulators: [Modulator] = [], playCondition: PlayCondition? = nil,
                shaping: VoiceShaping? = nil) {
        self.generators = generators
        self.modulators = modulators
        self.playCondition = playCondition
        self.shaping = shaping
    }

    /// The last value set for a generator in this zone, if any.
    public func value(of type: GeneratorType) -> Int16? {
        generators.last(where: { $0.rawType == type.rawValue })?.amount
    }

    /// The zone's key range (0…127 when unset).
    public var keyRange: ClosedRange<UInt8> { range(of: .keyRange) }
    /// The zone's velocity range (0…127 when unset).
    public var velocityRange: ClosedRange<UInt8> { range(of: .velRange) }

    private func range(of type: GeneratorType) -> ClosedRange<UInt8> {
        guard let g = generators.last(where: { $0.rawType == type.rawValue }) else { return 0...127 }
        let lo = min(g.rangeLow, 127), hi = min(g.rangeHigh, 127)
        return lo <= hi ? lo...hi : hi...lo
    }
}

/// A preset (`phdr` record with its zones): what a MIDI bank/program selects.
public struct Preset: Hashable, Sendable {
    /// The preset's name (at most 20 bytes in the file).
    public var name: String
    /// MIDI program number (0–127).
    public var program: UInt16
    /// MIDI bank number; 128 holds percussion kits.
    public var bank: UInt16
    /// Reserved fields kept for lossless writing.
    public var library: UInt32
    /// Reserved `dwGenre` field.
    public var genre: UInt32
    /// Reserved `dwMorphology` field.
    public var morphology: UInt32
    /// Zone without an `instrument` generator, placed first in the file.
    public var globalZone: Zone?
    /// Zones that each select an instrument, in file order.
    public var zones: [Zone]
    /// Controller values a channel takes when it selects the preset, for controllers the MIDI
    /// stream has not set since the last reset (SFZ `set_ccN`); empty for SF2 and DLS presets.
    /// Written to and read from SF2 in a private list other readers skip (``SoundFont/serialized()``).
    public var controllerDefaults: [ControllerDefault] = []

    /// A preset with its zones.
    public init(name: String, program: UInt16, bank: UInt16, globalZone: Zone? = nil,
                zones: [Zone] = [], library: UInt32 = 0, genre: UInt32 = 0, morphology: UInt32 = 0) {
        self.name = name
        self.program = program
        self.bank = bank
        self.globalZone = globalZone
        self.zones = zones
        self.library = library
        self.genre = genre
        self.morphology = morphology
    }
}

/// An instrument (`inst` record with its zones).
public struct Instrument: Hashable, Sendable {
    /// The instrument's name (at most 20 bytes in the file).
    public var name: String
    /// Zone without a `sampleID` generator, placed first in the file: defaults for the others.
    public var globalZone: Zone?
    /// Zones that each play a sample, in file order.
    public var zones: [Zone]

    /// An instrument with its zones.
    public init(name: String, globalZone: Zone? = nil, zones: [Zone] = []) {
        self.name = name
        self.globalZone = globalZone
        self.zones = zones
    }
}
