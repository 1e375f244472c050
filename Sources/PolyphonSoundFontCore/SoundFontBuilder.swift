extension SoundFont {
    /// Assembles a bank in code: samples from PCM, instruments and presets from zones.
    ///
    /// Meant for tests, fixtures and bank tools. Each added sample's points are followed by the 46
    /// zero points SF2 2.04 §7.10 asks for, so interpolation past the end reads silence.
    ///
    /// ```swift
    /// var builder = SoundFont.Builder(name: "Test")
    /// let sample = builder.addSample(pcm, name: "sine", sampleRate: 44_100, originalPitch: 69)
    /// let inst = builder.addInstrument("Sine", zones: [Zone(generators: [Generator(.sampleID, Int16(sample))])])
    /// builder.addPreset("Sine", bank: 0, program: 0, zones: [Zone(generators: [Generator(.instrument, Int16(inst))])])
    /// let bank = builder.build()
    /// ```
    public struct Builder: Sendable {
        /// INFO of the bank to build; `name` is set from ``init(name:)``.
        public var info: SoundFontInfo
        /// Presets added so far; may be edited directly (e.g. to set reserved header fields).
        public var presets: [Preset] = []
        /// Instruments added so far.
        public var instruments: [Instrument] = []
        /// Sample headers added so far; positions index the points ``build()`` stores.
        public var samples: [SampleHeader] = []
        private var words: [Int16] = []
        /// Low bytes for 24-bit samples; created (zero-filled so far) when the first sample has them.
        private var lowBytes: [UInt8]?

        /// Zero points written after each sample (SF2 2.04 §7.10).
        public static let samplePadding = 46

        /// An empty bank named `name` (SF2 2.04, sound engine EMU8000).
        public init(name: String = "Polyphon") {
            info = SoundFontInfo()
            info.name = name
        }

        /// Appends a sample and returns its index in ``samples``.
        ///
        /// - Parameters:
        ///   - pcm: 16-bit sample points (the high 16 bits when `lowBytes` is given).
        ///   - low: the low 8 bits of 24-bit points (`lowBytes`), one per point; when its count
        ///     differs from `pcm`'s it is cut or zero-filled to match.
        ///   - name: the sample header's name.
        ///   - sampleRate: the rate the points were recorded at.
        ///   - originalPitch: the MIDI key the sample sounds at unshifted.
        ///   - pitchCorrection: cents to add to that pitch.
        ///   - loop: loop points relative to the sample's first point; nil sets the loop to the
        ///     whole sample (the loop only plays if a zone's `sampleModes` asks for it).
        ///   - sampleType: mono, or one side of a stereo pair.
        ///   - sampleLink: the index of the pair's other side, for a stereo pair.
        @discardableResult
        public mutating func addSample(_ pcm: [Int16], lowBytes low: [UInt8]? = nil, name: String = "Sample",
                                       sampleRate: UInt32 = 44_100, originalPitch: UInt8 = 60,
                                       pitchCorrection: Int8 = 0, loop: Range<Int>? = nil,
                                       sampleType: SampleType = .mono, sampleLink: UInt16 = 0) -> Int {
            let start = UInt32(words.count), end = start + UInt32(pcm.count)
            words += pcm
            words += repeatElement(0, count: Self.samplePadding)
            if low != nil, lowBytes == nil {
                lowBytes = [UInt8](repeating: 0, count: Int(start))
            }
            if lowBytes != nil {
                var points = low ?? []
                if points.count != pcm.count {
                    points = Array(points.prefix(pcm.count)) + repeatElement(0, count: max(0, pcm.count - points.count))
                }
                lowBytes! += points
                lowBytes! += repeatElement(0, count: Self.samplePadding)
            }
            let loopStart = loop.map { start + UInt32(clamping: max(0, $0.lowerBound)) } ?? start
            let loopEnd = loop.map { start + UInt32(clamping: max(0, $0.upperBound)) } ?? end
            samples.append(SampleHeader(name: name, start: start, end: end, loopStart: loopStart,
                                        loopEnd: loopEnd, sampleRate: sampleRate, originalPitch: originalPitch,
                                        pitchCorrection: pitchCorrection, sampleLink: sampleLink,
                                        sampleType: sampleType))
            return samples.count - 1
        }

        /// Appends an instrument and returns its index in ``instruments``. Each local zone should end
        /// with a `sampleID` generator.
        @discardableResult
        public mutating func addInstrument(_ name: String, globalZone: Zone? = nil, zones: [Zone]) -> Int {
            instruments.append(Instrument(name: name, globalZone: globalZone, zones: zones))
            return instruments.count - 1
        }

        /// Appends a preset and returns its index in ``presets``. Each local zone should end with an
        /// `instrument` generator.
        @discardableResult
        public mutating func addPreset(_ name: String, bank: UInt16 = 0, program: UInt16,
                                       globalZone: Zone? = nil, zones: [Zone]) -> Int {
            presets.append(Preset(name: name, program: program, bank: bank, globalZone: globalZone, zones: zones))
            return presets.count - 1
        }

        /// The bank, its sample points copied into memory it owns.
        public func build() -> SoundFont {
            SoundFont(info: info, presets: presets, instruments: instruments, samples: samples,
                      sampleData: SampleData(copying: words, lowBytes: lowBytes))
        }
    }

    /// A bank with one sample, one instrument and one preset: the smallest thing that plays.
    ///
    /// - Parameters:
    ///   - pcm: the sample's 16-bit points; `lowBytes` makes them 24-bit.
    ///   - lowBytes: the low 8 bits of 24-bit points, one per point.
    ///   - sampleRate: the rate the points were recorded at.
    ///   - originalPitch: the MIDI key the sample sounds at unshifted.
    ///   - loop: loop points relative to the first point. When given, the instrument zone also gets
    ///     `sampleModes` 1 (loop continuously) unless `instrumentGenerators` sets `sampleModes`.
    ///   - instrumentGenerators: the instrument zone's generators (absolute values); `sampleID` is
    ///     appended.
    ///   - instrumentModulators: the instrument zone's modulators.
    ///   - presetGenerators: the preset zone's generators (offsets); `instrument` is appended.
    ///   - presetModulators: the preset zone's modulators.
    ///   - bank: the preset's bank number.
    ///   - program: the preset's program number.
    ///   - name: the name of the bank, its preset, instrument and sample.
    public static func singleSample(
        _ pcm: [Int16], lowBytes: [UInt8]? = nil, sampleRate: UInt32 = 44_100, originalPitch: UInt8 = 60,
        loop: Range<Int>? = nil, instrumentGenerators: [Generator] = [], instrumentModulators: [Modulator] = [],
        presetGenerators: [Generator] = [], presetModulators: [Modulator] = [],
        bank: UInt16 = 0, program: UInt16 = 0, name: String = "Test"
    ) -> SoundFont {
        var builder = Builder(name: name)
        let sample = builder.addSample(pcm, lowBytes: lowBytes, name: name, sampleRate: sampleRate,
                                       originalPitch: originalPitch, loop: loop)
        var generators = instrumentGenerators
        if loop != nil, !generators.contains(where: { $0.type == .sampleModes }) {
            generators.append(Generator(.sampleModes, 1))
        }
        generators.append(Generator(.sampleID, Int16(sample)))
        let instrument = builder.addInstrument(name, zones: [Zone(generators: generators, modulators: instrumentModulators)])
        builder.addPreset(name, bank: bank, program: program, zones: [
            Zone(generators: presetGenerators + [Generator(.instrument, Int16(instrument))], modulators: presetModulators),
        ])
        return builder.build()
    }
}
