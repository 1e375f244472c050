/// A preset or instrument zone: its generators and modulators in file order.
///
/// In a preset zone the last generator is `instrument` (41); in an instrument zone it is
/// `sampleID` (53). A zone without that terminal generator, if first, is the global zone.
public struct Zone: Hashable, Sendable {
    public var generators: [Generator]
    public var modulators: [Modulator]

    public init(generators: [Generator] = [], modulators: [Modulator] = []) {
        self.generators = generators
        self.modulators = modulators
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
    public var name: String
    public var program: UInt16
    public var bank: UInt16
    /// Reserved fields kept for lossless writing.
    public var library: UInt32
    public var genre: UInt32
    public var morphology: UInt32
    /// Zone without an `instrument` generator, placed first in the file.
    public var globalZone: Zone?
    public var zones: [Zone]

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
    public var name: String
    public var globalZone: Zone?
    public var zones: [Zone]

    public init(name: String, globalZone: Zone? = nil, zones: [Zone] = []) {
        self.name = name
        self.globalZone = globalZone
        self.zones = zones
    }
}
