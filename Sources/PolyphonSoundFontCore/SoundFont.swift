/// The INFO list of a SoundFont (SF2 2.04 §5).
public struct SoundFontInfo: Hashable, Sendable {
    /// `ifil`: 2.1 / 2.4 for SF2, 3.x for SF3.
    public var versionMajor: UInt16 = 2
    /// `ifil` minor version.
    public var versionMinor: UInt16 = 4
    /// `isng`: target sound engine, "EMU8000" by default.
    public var soundEngine: String = "EMU8000"
    /// `INAM`: the bank's name.
    public var name: String = ""
    /// `irom`: the ROM that ROM samples refer to.
    public var romName: String?
    /// `iver` major version.
    public var romVersionMajor: UInt16?
    /// `iver` minor version.
    public var romVersionMinor: UInt16?
    /// `ICRD`: creation date, free text.
    public var creationDate: String?
    /// `IENG`: the sound designers and engineers.
    public var engineers: String?
    /// `IPRD`: the product the bank is for.
    public var product: String?
    /// `ICOP`: copyright notice.
    public var copyright: String?
    /// `ICMT`: comments, possibly several lines.
    public var comments: String?
    /// `ISFT`: the tools that created and last edited the bank.
    public var software: String?

    /// Empty INFO for an SF2 2.04 bank.
    public init() {}
}

/// A SoundFont bank: INFO, the preset → instrument → sample hierarchy and the sample pool.
///
/// A value type over immutable, shared sample data: copying a `SoundFont` copies the tables,
/// never the samples, and any number of synthesizers on any threads may play one bank.
public struct SoundFont: Sendable {
    /// The INFO list: version, name and descriptive fields.
    public var info: SoundFontInfo
    /// Presets in file order (not sorted by bank and program).
    public var presets: [Preset]
    /// Instruments, indexed by preset zones' `instrument` generator.
    public var instruments: [Instrument]
    /// Sample headers, indexed by instrument zones' `sampleID` generator.
    public var samples: [SampleHeader]
    /// The sample pool the headers point into.
    public var sampleData: SampleData
    /// What was wrong but readable in the file this bank came from.
    public var warnings: [SoundFontWarning]

    /// A bank from its parts (see ``SoundFont/Builder`` for building one from PCM).
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
    /// What was wrong and what the reader did about it.
    public var message: String

    /// A warning about `chunk`, at `offset` when known.
    public init(chunk: String, offset: Int? = nil, message: String) {
        self.chunk = chunk
        self.offset = offset
        self.message = message
    }

    /// One line: `chunk at byte N: message`.
    public var description: String {
        if let offset { return "\(chunk) at byte \(offset): \(message)" }
        return "\(chunk): \(message)"
    }
}
