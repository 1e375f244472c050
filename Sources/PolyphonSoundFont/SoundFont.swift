/// The INFO list of a SoundFont (SF2 2.04 §5).
public struct SoundFontInfo: Hashable, Sendable {
    /// `ifil`: 2.1 / 2.4 for SF2, 3.x for SF3.
    public var versionMajor: UInt16 = 2
    public var versionMinor: UInt16 = 4
    /// `isng`: target sound engine, "EMU8000" by default.
    public var soundEngine: String = "EMU8000"
    /// `INAM`: the bank's name.
    public var name: String = ""
    /// `irom` / `iver`: ROM name and version, when samples refer to a ROM.
    public var romName: String?
    public var romVersionMajor: UInt16?
    public var romVersionMinor: UInt16?
    /// `ICRD`, `IENG`, `IPRD`, `ICOP`, `ICMT`, `ISFT`.
    public var creationDate: String?
    public var engineers: String?
    public var product: String?
    public var copyright: String?
    public var comments: String?
    public var software: String?

    public init() {}
}

/// A SoundFont bank: INFO, the preset → instrument → sample hierarchy and the sample pool.
///
/// A value type over immutable, shared sample data: copying a `SoundFont` copies the tables,
/// never the samples, and any number of synthesizers on any threads may play one bank.
public struct SoundFont: Sendable {
    public var info: SoundFontInfo
    public var presets: [Preset]
    public var instruments: [Instrument]
    public var samples: [SampleHeader]
    public var sampleData: SampleData
    /// What was wrong but readable in the file this bank came from.
    public var warnings: [SoundFontWarning]

    public init(info: SoundFontInfo = SoundFontInfo(), presets: [Preset], instruments: [Instrument],
                samples: [SampleHeader], sampleData: SampleData, warnings: [SoundFontWarning] = []) {
        self.info = info
        self.presets = presets
        self.instruments = instruments
        self.samples = samples
        self.sampleData = sampleData
        self.warnings = warnings
    }

    /// True for SF3 banks (ifil major 3), whose samples may be Ogg Vorbis streams.
    public var isSF3: Bool { info.versionMajor >= 3 }

    /// The index of the preset with this bank and program, if the bank has one.
    public func presetIndex(bank: Int, program: Int) -> Int? {
        presets.firstIndex { Int($0.bank) == bank && Int($0.program) == program }
    }
}

/// Something that was wrong in a bank but did not stop it from loading.
public struct SoundFontWarning: Hashable, Sendable, CustomStringConvertible {
    /// The chunk the problem is in (e.g. "shdr").
    public var chunk: String
    /// Byte offset from the start of the file, when known.
    public var offset: Int?
    public var message: String

    public init(chunk: String, offset: Int? = nil, message: String) {
        self.chunk = chunk
        self.offset = offset
        self.message = message
    }

    public var description: String {
        if let offset { return "\(chunk) at byte \(offset): \(message)" }
        return "\(chunk): \(message)"
    }
}
