/// The kind of a sample (SF2 2.04 §7.10 `sfSampleLink`), kept raw so ROM and unknown values survive.
public struct SampleType: Hashable, Sendable {
    /// The `sfSampleType` field as stored in the file.
    public var rawValue: UInt16
    /// A type from its file value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// A mono sample.
    public static let mono = SampleType(rawValue: 1)
    /// The right half of a stereo pair.
    public static let right = SampleType(rawValue: 2)
    /// The left half of a stereo pair.
    public static let left = SampleType(rawValue: 4)
    /// Part of a linked chain (not supported by common synths; played as mono).
    public static let linked = SampleType(rawValue: 8)
    /// ROM variants: the data is in a sound card's ROM, not in the file.
    public static let romMono = SampleType(rawValue: 0x8001)
    /// ROM right half.
    public static let romRight = SampleType(rawValue: 0x8002)
    /// ROM left half.
    public static let romLeft = SampleType(rawValue: 0x8004)
    /// ROM linked.
    public static let romLinked = SampleType(rawValue: 0x8008)

    /// SF3: the sample's span holds an Ogg Vorbis stream rather than PCM.
    public static let vorbisFlag: UInt16 = 0x10

    /// True for ROM samples, whose data is not in the file.
    public var isROM: Bool { rawValue & 0x8000 != 0 }
    /// True for SF3 samples stored as Ogg Vorbis.
    public var isCompressed: Bool { rawValue & Self.vorbisFlag != 0 }
    /// The channel role with ROM and compression flags stripped: 1 mono, 2 right, 4 left, 8 linked.
    public var role: UInt16 { rawValue & 0x000F }
    /// True for the left half of a stereo pair.
    public var isLeft: Bool { role == 4 }
    /// True for the right half of a stereo pair.
    public var isRight: Bool { role == 2 }
}

/// A sample header (`shdr` record). Positions are in sample points from the start of the
/// `smpl` chunk, as in the file (for SF3 compressed samples: byte offsets of the Ogg stream,
/// with loop points relative to the decoded sample's start, as sf3convert writes them).
public struct SampleHeader: Hashable, Sendable {
    /// The sample's name (at most 20 bytes in the file).
    public var name: String
    /// First point of the sample.
    public var start: UInt32
    /// One past the last point of the sample.
    public var end: UInt32
    /// First point of the loop.
    public var loopStart: UInt32
    /// One past the last point of the loop.
    public var loopEnd: UInt32
    /// Recording rate in Hz.
    public var sampleRate: UInt32
    /// MIDI key the sample was recorded at (255 is read as 60, per the spec).
    public var originalPitch: UInt8
    /// Pitch correction in cents.
    public var pitchCorrection: Int8
    /// Index of the other half of a stereo pair.
    public var sampleLink: UInt16
    /// Mono/left/right/linked, ROM and compression flags.
    public var sampleType: SampleType

    /// A sample header with every field given.
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
