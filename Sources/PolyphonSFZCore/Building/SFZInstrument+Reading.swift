extension SFZInstrument {
    /// Reads the instrument whose root file is `path` in `fileSystem`: its text and includes,
    /// every region with its inherited opcodes, and where each sample file is. Samples are not
    /// decoded (see ``sampleProvider``).
    ///
    /// What is wrong but readable becomes ``warnings``: unknown opcodes (once each), values out of
    /// range and missing samples (the regions concerned are left out), broken `#include`s.
    /// - Throws: ``SFZError`` when the file cannot be read or is not SFZ text at all.
    public init(path: String, fileSystem: any SFZFileSystem,
                limits: SFZReadingLimits = SFZReadingLimits()) throws(SFZError) {
        var reader = SFZStatementReader(fileSystem: fileSystem, limits: limits)
        try reader.read(rootPath: path)
        try self.init(reading: reader, path: path, fileSystem: fileSystem, limits: limits)
    }

    /// Reads an instrument from `text`, as if it were the file `path` of `fileSystem` (whose
    /// directory anchors `#include`s and sample paths; the file itself need not exist).
    /// - Throws: ``SFZError`` when the text is not SFZ at all.
    public init(text: String, path: String, fileSystem: any SFZFileSystem = SFZMemoryFileSystem(),
                limits: SFZReadingLimits = SFZReadingLimits()) throws(SFZError) {
        let bytes = Array(text.utf8)
        if let why = Self.binaryContent(bytes) { throw SFZError(path: path, kind: .notSFZ(why)) }
        var reader = SFZStatementReader(fileSystem: fileSystem, limits: limits)
        reader.read(text: bytes, path: path)
        try self.init(reading: reader, path: path, fileSystem: fileSystem, limits: limits)
    }

    private init(reading reader: SFZStatementReader, path: String, fileSystem: any SFZFileSystem,
                 limits: SFZReadingLimits) throws(SFZError) {
        guard reader.statements.contains(where: { if case .header = $0.kind { return true } else { return false } }) else {
            let firstProblem = reader.warnings.first.map { " (first problem: \($0))" } ?? ""
            throw SFZError(path: path, kind: .notSFZ("no <region>, <group>, <control> or other header\(firstProblem)"))
        }
        var builder = SFZInstrumentBuilder(limits: limits)
        for statement in reader.statements { builder.consume(statement) }
        builder.finish()

        var warnings = reader.warnings + builder.warnings
        let rootDirectory = SFZPath.directory(of: fileSystem.resolve(SFZPath.normalized(path)) ?? SFZPath.normalized(path))
        var samples: [SFZSampleFile] = []
        /// Each file once, by where it is and which way it plays, whatever name reached it.
        var sampleIndexes: [String: Int] = [:]
        /// Missing samples: where first named, how many regions they cost.
        var missing: [String: (location: SFZLocation, wanted: String, regions: Int)] = [:]
        var missingOrder: [String] = []
        var resolutions: [String: String?] = [:]
        var regions: [SFZRegion] = []
        regions.reserveCapacity(builder.regions.count)
        for var region in builder.regions {
            guard case .file(let name) = region.playback.sample else {
                regions.append(region)
                continue
            }
            let wanted = SFZPath.join(rootDirectory, name)
            let resolved: String?
            if let known = resolutions[wanted] {
                resolved = known
            } else {
                resolved = fileSystem.resolve(wanted)
                resolutions[wanted] = resolved
            }
            guard let resolved else {
                if missing[name] == nil {
                    missing[name] = (region.location, wanted, 0)
                    missingOrder.append(name)
                }
                missing[name]!.regions += 1
                continue
            }
            let file = SFZSampleFile(name: name, path: resolved, isReversed: region.playback.isReversed)
            let key = (file.isReversed ? "<" : ">") + resolved
            if let index = sampleIndexes[key] {
                region.sampleIndex = index
            } else {
                sampleIndexes[key] = samples.count
                region.sampleIndex = samples.count
                samples.append(file)
            }
            regions.append(region)
        }
        for name in missingOrder {
            let entry = missing[name]!
            let cost = entry.regions == 1 ? "1 region skipped" : "\(entry.regions) regions skipped"
            warnings.append(SFZWarning(.missingSample, at: entry.location, "sample '\(name)' not found (looked for \(entry.wanted)); \(cost)"))
        }
        if warnings.count > limits.maximumWarningCount {
            let dropped = warnings.count - limits.maximumWarningCount
            warnings.removeLast(dropped)
            warnings.append(SFZWarning(.limitReached, at: nil, "… and \(dropped) more warnings"))
        }
        self.init(path: path, control: builder.control, regions: regions, samples: samples, curves: builder.curves,
                  defaultKeyswitch: builder.defaultKeyswitch, warnings: warnings, headerCounts: builder.headerCounts)
    }

    /// Why `bytes` cannot be SFZ text (NUL bytes, a known binary format), nil when they may be.
    static func binaryContent(_ bytes: [UInt8]) -> String? {
        let head = bytes.prefix(4096)
        guard head.contains(0) else { return nil }
        let magic = head.prefix(4)
        let printable = magic.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        let start = printable ? " (it starts with '\(String(decoding: magic, as: UTF8.self))')" : ""
        return "binary data, not text\(start)"
    }
}
