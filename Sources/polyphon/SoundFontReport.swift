import PolyphonSoundFont

/// What `polyphon info` says about a SoundFont, as text for people or JSON for scripts.
///
/// ## JSON keys
/// Stable, camelCase; optional INFO fields are omitted when the bank does not have them.
/// - `path` (string): the file as given on the command line.
/// - `version` (string): the `ifil` version, e.g. `"2.1"`, `"3.1"`.
/// - `name` (string): `INAM`, the bank's name.
/// - `soundEngine` (string): `isng`, e.g. `"EMU8000"`.
/// - `romName` (string, optional): `irom`; `romVersion` (string, optional): `iver`, e.g. `"1.0"`.
/// - `creationDate`, `engineers`, `product`, `copyright`, `comments`, `software` (strings,
///   optional): `ICRD`, `IENG`, `IPRD`, `ICOP`, `ICMT`, `ISFT`.
/// - `isSF3` (bool): true for SF3 banks (`ifil` 3.x).
/// - `presetCount`, `instrumentCount`, `sampleCount` (ints).
/// - `compressedSampleCount` (int): samples stored as Ogg Vorbis (SF3).
/// - `sampleDataBytes` (int): size of the `smpl` chunk in bytes.
/// - `has24BitSamples` (bool): true when an `sm24` chunk was read.
/// - `presets` (array), sorted by bank then program, each with `bank` (int), `program` (int),
///   `name` (string) and `zoneCount` (int: the zones that select an instrument; a global zone is
///   not counted).
/// - `warnings` (array of strings): what was wrong but readable, one line each
///   (`"chunk at byte N: message"`).
struct SoundFontReport: Codable, Sendable {
    /// One preset line of the report.
    struct PresetEntry: Codable, Sendable, Equatable {
        var bank: Int
        var program: Int
        var name: String
        var zoneCount: Int
    }

    var path: String
    var version: String
    var name: String
    var soundEngine: String
    var romName: String?
    var romVersion: String?
    var creationDate: String?
    var engineers: String?
    var product: String?
    var copyright: String?
    var comments: String?
    var software: String?
    var isSF3: Bool
    var presetCount: Int
    var instrumentCount: Int
    var sampleCount: Int
    var compressedSampleCount: Int
    var sampleDataBytes: Int
    var has24BitSamples: Bool
    var presets: [PresetEntry]
    var warnings: [String]

    init(soundFont font: SoundFont, path: String) {
        let info = font.info
        self.path = path
        version = "\(info.versionMajor).\(info.versionMinor)"
        name = info.name
        soundEngine = info.soundEngine
        romName = info.romName
        if let major = info.romVersionMajor, let minor = info.romVersionMinor {
            romVersion = "\(major).\(minor)"
        }
        creationDate = info.creationDate
        engineers = info.engineers
        product = info.product
        copyright = info.copyright
        comments = info.comments
        software = info.software
        isSF3 = font.isSF3
        presetCount = font.presets.count
        instrumentCount = font.instruments.count
        sampleCount = font.samples.count
        compressedSampleCount = font.samples.filter { $0.sampleType.isCompressed }.count
        sampleDataBytes = font.sampleData.parts.isEmpty ? font.sampleData.bytes.count : 2 * font.sampleData.pointCount
        has24BitSamples = font.sampleData.has24BitPoints
        presets = font.presets
            .map { PresetEntry(bank: Int($0.bank), program: Int($0.program), name: $0.name, zoneCount: $0.zones.count) }
            .sorted { ($0.bank, $0.program, $0.name) < ($1.bank, $1.program, $1.name) }
        warnings = font.warnings.map(\.description)
    }

    /// The report for people: INFO fields, counts, the preset list and the warnings.
    var text: String {
        var lines: [String] = []
        func field(_ label: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            // Multi-line comments stay readable: continuation lines are indented under the value.
            let parts = value.split(separator: "\n", omittingEmptySubsequences: false)
            lines.append("\(label): \(parts[0])")
            let indent = String(repeating: " ", count: label.count + 2)
            for part in parts.dropFirst() { lines.append(part.isEmpty ? "" : indent + part) }
        }
        field("File", path)
        field("Version", version)
        field("Name", name.isEmpty ? "(none)" : name)
        field("Sound engine", soundEngine)
        field("ROM", [romName, romVersion].compactMap { $0 }.joined(separator: " "))
        field("Created", creationDate)
        field("Engineers", engineers)
        field("Product", product)
        field("Copyright", copyright)
        field("Comments", comments)
        field("Software", software)
        lines.append("SF3: \(isSF3 ? "yes" : "no")")
        lines.append("Instruments: \(instrumentCount)")
        lines.append("Samples: \(sampleCount)" + (compressedSampleCount > 0 ? " (\(compressedSampleCount) Ogg Vorbis)" : ""))
        lines.append("Sample data: \(sampleDataBytes) bytes" + (has24BitSamples ? " (24-bit)" : ""))
        lines.append("Presets: \(presetCount)")
        for preset in presets {
            lines.append("  \(preset.bank):\(preset.program) \(preset.name) (\(preset.zoneCount) zone\(preset.zoneCount == 1 ? "" : "s"))")
        }
        lines.append("Warnings: \(warnings.count)")
        for warning in warnings { lines.append("  \(warning)") }
        return lines.joined(separator: "\n")
    }
}
