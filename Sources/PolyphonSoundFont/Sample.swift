/// The kind of a sample (SF2 2.04 §7.10 `sfSampleLink`), kept raw so ROM and unknown values survive.
public struct SampleType: Hashable, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let mono = SampleType(rawValue: 1)
    public static let right = SampleType(rawValue: 2)
    public static let left = SampleType(rawValue: 4)
    public static let linked = SampleType(rawValue: 8)
    public static let romMono = SampleType(rawValue: 0x8001)
    public static let romRight = SampleType(rawValue: 0x8002)
    public static let romLeft = SampleType(rawValue: 0x8004)
    public static let romLinked = SampleType(rawValue: 0x8008)

    /// SF3: the sample's span holds an Ogg Vorbis stream rather than PCM.
    public static let vorbisFlag: UInt16 = 0x10

    public var isROM: Bool { rawValue & 0x8000 != 0 }
    public var isCompressed: Bool { rawValue & Self.vorbisFlag != 0 }
    /// The channel role with ROM and compression flags stripped: 1 mono, 2 right, 4 left, 8 linked.
    public var role: UInt16 { rawValue & 0x000F }
    public var isLeft: Bool { role == 4 }
    public var isRight: Bool { role == 2 }
}

/// A sample header (`shdr` record). Positions are in sample points from the start of the
/// `smpl` chunk, as in the file (for SF3 compressed samples: byte offsets of the Ogg stream,
/// with loop points relative to the decoded sample's start, as sf3convert writes them).
public struct SampleHeader: Hashable, Sendable {
    public var name: String
    public var start: UInt32
    public var end: UInt32
    public var loopStart: UInt32
    public var loopEnd: UInt32
    public var sampleRate: UInt32
    /// MIDI key the sample was recorded at (255 is read as 60, per the spec).
    public var originalPitch: UInt8
    /// Pitch correction in cents.
    public var pitchCorrection: Int8
    /// Index of the other half of a stereo pair.
    public var sampleLink: UInt16
    public var sampleType: SampleType

    public init(name: String, start: UInt32, end: UInt32, loopStart: UInt32, loopEnd: UInt32,
                sampleRate: UInt32, originalPitch: UInt8, pitchCorrection: Int8 = 0,
                sampleLink: UInt16 = 0, sampleType: SampleType = .mono) {
        self.name = name
        self.start = start
        self.end = end
        self.loopStart = loopStart
        self.loopEnd = loopEnd
        self.sampleRate = sampleRate
        self.originalPitch = originalPitch
        self.pitchCorrection = pitchCorrection
        self.sampleLink = sampleLink
        self.sampleType = sampleType
    }
}
