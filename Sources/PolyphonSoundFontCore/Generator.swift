/// The SoundFont 2 generator operators (SF2 2.04 §8.1.2).
///
/// Raw values are the `sfGenOper` numbers stored in the file. Reserved and unused ids
/// (14, 18–20, 42, 49, 55, 59) have cases so a parsed bank can be written back unchanged,
/// but the engine ignores them.
public enum GeneratorType: UInt16, CaseIterable, Sendable {
    case startAddrsOffset = 0
    case endAddrsOffset = 1
    case startloopAddrsOffset = 2
    case endloopAddrsOffset = 3
    case startAddrsCoarseOffset = 4
    case modLfoToPitch = 5
    case vibLfoToPitch = 6
    case modEnvToPitch = 7
    case initialFilterFc = 8
    case initialFilterQ = 9
    case modLfoToFilterFc = 10
    case modEnvToFilterFc = 11
    case endAddrsCoarseOffset = 12
    case modLfoToVolume = 13
    case unused1 = 14
    case chorusEffectsSend = 15
    case reverbEffectsSend = 16
    case pan = 17
    case unused2 = 18
    case unused3 = 19
    case unused4 = 20
    case delayModLFO = 21
    case freqModLFO = 22
    case delayVibLFO = 23
    case freqVibLFO = 24
    case delayModEnv = 25
    case attackModEnv = 26
    case holdModEnv = 27
    case decayModEnv = 28
    case sustainModEnv = 29
    case releaseModEnv = 30
    case keynumToModEnvHold = 31
    case keynumToModEnvDecay = 32
    case delayVolEnv = 33
    case attackVolEnv = 34
    case holdVolEnv = 35
    case decayVolEnv = 36
    case sustainVolEnv = 37
    case releaseVolEnv = 38
    case keynumToVolEnvHold = 39
    case keynumToVolEnvDecay = 40
    case instrument = 41
    case reserved1 = 42
    case keyRange = 43
    case velRange = 44
    case startloopAddrsCoarseOffset = 45
    case keynum = 46
    case velocity = 47
    case initialAttenuation = 48
    case reserved2 = 49
    case endloopAddrsCoarseOffset = 50
    case coarseTune = 51
    case fineTune = 52
    case sampleID = 53
    case sampleModes = 54
    case reserved3 = 55
    case scaleTuning = 56
    case exclusiveClass = 57
    case overridingRootKey = 58
    case unused5 = 59
    case endOper = 60

    /// Number of generator slots in a ``GeneratorSet`` (ids 0…60).
    public static let slotCount = 61

    /// The spec's default value (SF2 2.04 §8.1.3), used when no zone sets the generator.
    public var defaultValue: Int32 {
        switch self {
        case .initialFilterFc: return 13500
        case .delayModLFO, .delayVibLFO, .delayModEnv, .attackModEnv, .holdModEnv, .decayModEnv,
             .releaseModEnv, .delayVolEnv, .attackVolEnv, .holdVolEnv, .decayVolEnv, .releaseVolEnv:
            return -12000
        case .keyRange, .velRange: return 0x7F00  // lo 0, hi 127 packed as the file stores it
        case .keynum, .velocity, .overridingRootKey: return -1
        case .scaleTuning: return 100
        default: return 0
        }
    }

    /// The valid range from the spec's table; summed values are clamped into it before use.
    public var range: ClosedRange<Int32> {
        switch self {
        case .startAddrsOffset, .startloopAddrsOffset, .endloopAddrsOffset,
             .startAddrsCoarseOffset, .startloopAddrsCoarseOffset, .endloopAddrsCoarseOffset:
            return -2_000_000_000...2_000_000_000
        case .endAddrsOffset, .endAddrsCoarseOffset: return -2_000_000_000...2_000_000_000
        case .modLfoToPitch, .vibLfoToPitch, .modEnvToPitch: return -12000...12000
        case .initialFilterFc: return 1500...13500
        case .initialFilterQ: return 0...960
        case .modLfoToFilterFc, .modEnvToFilterFc: return -12000...12000
        case .modLfoToVolume: return -960...960
        case .chorusEffectsSend, .reverbEffectsSend: return 0...1000
        case .pan: return -500...500
        case .delayModLFO, .delayVibLFO, .delayModEnv, .delayVolEnv: return -12000...5000
        case .freqModLFO, .freqVibLFO: return -16000...4500
        case .attackModEnv, .decayModEnv, .releaseModEnv, .attackVolEnv, .decayVolEnv:
            return -12000...8000
        case .releaseVolEnv: return -12000...8000
        case .holdModEnv, .holdVolEnv: return -12000...5000
        case .sustainModEnv: return 0...1000
        case .sustainVolEnv: return 0...1440
        case .keynumToModEnvHold, .keynumToModEnvDecay, .keynumToVolEnvHold, .keynumToVolEnvDecay:
            return -1200...1200
        case .keynum, .velocity: return -1...127
        case .initialAttenuation: return 0...1440
        case .coarseTune: return -120...120
        case .fineTune: return -99...99
        case .sampleModes: return 0...3
        case .scaleTuning: return 0...1200
        case .exclusiveClass: return 0...127
        case .overridingRootKey: return -1...127
        default: return Int32(Int16.min)...Int32(Int16.max)
        }
    }

    /// Generators that only make sense at instrument level; the spec says a preset zone
    /// that sets them is to be ignored (SF2 2.04 §8.1.3).
    public var isInstrumentOnly: Bool {
        switch self {
        case .startAddrsOffset, .endAddrsOffset, .startloopAddrsOffset, .endloopAddrsOffset,
             .startAddrsCoarseOffset, .endAddrsCoarseOffset, .startloopAddrsCoarseOffset,
             .endloopAddrsCoarseOffset, .keynum, .velocity, .sampleModes, .exclusiveClass,
             .overridingRootKey, .sampleID:
            return true
        default:
            return false
        }
    }
}

/// One generator record as stored in a zone: the raw operator id (kept even when unknown so
/// the writer can reproduce it) and its 16-bit amount.
public struct Generator: Hashable, Sendable {
    /// The `sfGenOper` id as stored in the file (see ``GeneratorType``).
    public var rawType: UInt16
    /// The `genAmount` field: a signed value, or two range bytes for keyRange/velRange.
    public var amount: Int16

    /// A generator of a known type.
    public init(_ type: GeneratorType, _ amount: Int16) {
        self.rawType = type.rawValue
        self.amount = amount
    }

    /// A generator from its raw id, known or not.
    public init(rawType: UInt16, amount: Int16) {
        self.rawType = rawType
        self.amount = amount
    }

    /// The known generator, or nil for ids past 60.
    public var type: GeneratorType? { GeneratorType(rawValue: rawType) }

    /// For keyRange/velRange: the low byte of the amount.
    public var rangeLow: UInt8 { UInt8(truncatingIfNeeded: UInt16(bitPattern: amount)) }
    /// For keyRange/velRange: the high byte of the amount.
    public var rangeHigh: UInt8 { UInt8(truncatingIfNeeded: UInt16(bitPattern: amount) >> 8) }

    /// A keyRange or velRange generator from its bounds.
    public static func range(_ type: GeneratorType, _ r: ClosedRange<UInt8>) -> Generator {
        Generator(rawType: type.rawValue,
                  amount: Int16(bitPattern: UInt16(r.lowerBound) | UInt16(r.upperBound) << 8))
    }
}

/// A full set of generator values for one voice, indexed by ``GeneratorType`` raw value.
///
/// Stored inline in a SIMD vector so a voice can copy and sum sets without allocating.
public struct GeneratorSet: Hashable, Sendable {
    /// One value per generator id (slots past ``GeneratorType/slotCount`` are unused).
    public var values: SIMD64<Int32>

    /// Every generator at its spec default.
    public static let defaults: GeneratorSet = {
        var v = SIMD64<Int32>(repeating: 0)
        for g in GeneratorType.allCases { v[Int(g.rawValue)] = g.defaultValue }
        return GeneratorSet(values: v)
    }()

    /// All zeros: the neutral element for preset-level offsets.
    public static let zero = GeneratorSet(values: SIMD64<Int32>(repeating: 0))

    /// A set from raw values indexed by generator id.
    public init(values: SIMD64<Int32>) { self.values = values }

    @inlinable
    public subscript(_ type: GeneratorType) -> Int32 {
        get { values[Int(type.rawValue)] }
        set { values[Int(type.rawValue)] = newValue }
    }

    /// The value clamped into the generator's spec range.
    @inlinable
    public func clamped(_ type: GeneratorType) -> Int32 {
        let r = type.range
        return Swift.min(Swift.max(values[Int(type.rawValue)], r.lowerBound), r.upperBound)
    }
}
