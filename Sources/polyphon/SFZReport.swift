import PolyphonSFZ

/// What `polyphon info x.sfz` says about an SFZ instrument, as text or (with `--json`) as JSON.
///
/// JSON keys (stable; camelCase):
/// - `path` (string): the file as given.
/// - `headers` (object): how many headers of each kind the text holds (`region`, `group` …).
/// - `regionCount` (int): playable regions (those skipped for a warning are not counted).
/// - `defaultPath` (string, optional), `noteOffset`, `octaveOffset` (ints, optional):
///   `<control>` settings as last set.
/// - `defaultKeyswitch` (int, optional): the `sw_default` in effect.
/// - `controllerDefaults` (array, optional): `set_ccN`/`set_hdccN` as `controller` (int) and
///   `value` (number, 0–127; a `set_hdccN` scaled), in controller order.
/// - `keyMap` (array): runs of keys with the same regions, each `lowKey`, `highKey`, `regions`
///   (how many regions a note there can start, all velocities and conditions together).
/// - `regions` (array), in file order: `line` (`file:line` of the `<region>`), `keys`
///   (`[low, high]`, absent for regions no key starts), `velocities` (`[low, high]`),
///   `sample` (string: file name or `*generator`), `keycenter` (int), `trigger` (string),
///   `loopMode` (string, absent when left to the sample), `conditions` (strings such as
///   `"seq 2/4"`, `"sw_last c1"`, `"cc64 0…63"`, `"rand 0…0.5"`).
/// - `samples` (array): `name`, `path` (the file found), and from its header `frames`,
///   `sampleRate`, `channels`, `loop` (`[first, last]`, optional), `rootKey` (optional), or
///   `error` (string) when the header cannot be read.
/// - `warnings` (array of strings): `file:line: message`, one line each.
struct SFZReport: Codable, Sendable {
    struct KeyRun: Codable, Sendable, Equatable {
        var lowKey: Int
        var highKey: Int
        var regions: Int
    }

    struct RegionEntry: Codable, Sendable, Equatable {
        var line: String
        var keys: [Int]?
        var velocities: [Int]
        var sample: String
        var keycenter: Int
        var trigger: String
        var loopMode: String?
        var conditions: [String]
    }

    struct ControllerDefaultEntry: Codable, Sendable, Equatable {
        var controller: Int
        var value: Float
    }

    struct SampleEntry: Codable, Sendable, Equatable {
        var name: String
        var path: String
        var frames: Int?
        var sampleRate: Double?
        var channels: Int?
        var loop: [Int]?
        var rootKey: Int?
        var error: String?
    }

    var path: String
    var headers: [String: Int]
    var regionCount: Int
    var defaultPath: String?
    var noteOffset: Int?
    var octaveOffset: Int?
    var defaultKeyswitch: Int?
    var controllerDefaults: [ControllerDefaultEntry]?
    var keyMap: [KeyRun]
    var regions: [RegionEntry]
    var samples: [SampleEntry]
    var warnings: [String]

    init(instrument: SFZInstrument, path: String) {
        self.path = path
        headers = instrument.headerCounts
        regionCount = instrument.regions.count
        let control = instrument.control
        defaultPath = control.defaultPath.isEmpty ? nil : control.defaultPath
        noteOffset = control.noteOffset == 0 ? nil : control.noteOffset
        octaveOffset = control.octaveOffset == 0 ? nil : control.octaveOffset
        defaultKeyswitch = instrument.defaultKeyswitch.map(Int.init)
        let defaults = control.controllerDefaults.sorted { $0.key < $1.key }
        controllerDefaults = defaults.isEmpty ? nil : defaults.map { ControllerDefaultEntry(controller: $0.key, value: $0.value) }
        keyMap = Self.keyMap(instrument.regions)
        regions = instrument.regions.map(Self.entry)
        samples = instrument.samples.indices.map { index in
            let file = instrument.samples[index]
            var entry = SampleEntry(name: file.name, path: file.path)
            guard let store = instrument.sampleStore else { return entry }
            do throws(SFZSampleError) {
                let metadata = try store.metadata(at: index)
                entry.frames = metadata.frameCount
                entry.sampleRate = metadata.sampleRate
                entry.channels = metadata.channelCount
                entry.loop = metadata.loop.map { [$0.lower, $0.upper] }
                entry.rootKey = metadata.rootKey.map(Int.init)
            } catch {
                entry.error = error.reason
            }
            return entry
        }
        warnings = instrument.warnings.map(\.description)
    }

    /// Runs of keys that the same number of key-started regions cover.
    static func keyMap(_ regions: [SFZRegion]) -> [KeyRun] {
        var counts = [Int](repeating: 0, count: 128)
        for region in regions where region.selection.triggersOnKeys && !region.selection.keys.isEmpty {
            for key in Int(region.selection.keys.lower)...Int(region.selection.keys.upper) { counts[key] += 1 }
        }
        var runs: [KeyRun] = []
        for key in 0..<128 where counts[key] > 0 {
            if let last = runs.last, last.highKey == key - 1, last.regions == counts[key] {
                runs[runs.count - 1].highKey = key
            } else {
                runs.append(KeyRun(lowKey: key, highKey: key, regions: counts[key]))
            }
        }
        return runs
    }

    static func entry(_ region: SFZRegion) -> RegionEntry {
        let s = region.selection
        var conditions: [String] = []
        if s.sequenceLength > 1 || s.sequencePosition > 1 { conditions.append("seq \(s.sequencePosition)/\(s.sequenceLength)") }
        if s.random != SFZRange(0, 1) { conditions.append("rand \(s.random.lower)…\(s.random.upper)") }
        if let last = s.keyswitch.last { conditions.append("sw_last \(SFZNoteName.name(of: Int(last)))") }
        if let range = s.keyswitch.lastRange {
            conditions.append("sw_last \(SFZNoteName.name(of: Int(range.lower)))…\(SFZNoteName.name(of: Int(range.upper)))")
        }
        if let down = s.keyswitch.down { conditions.append("sw_down \(SFZNoteName.name(of: Int(down)))") }
        if let up = s.keyswitch.up { conditions.append("sw_up \(SFZNoteName.name(of: Int(up)))") }
        if let previous = s.keyswitch.previous { conditions.append("sw_previous \(SFZNoteName.name(of: Int(previous)))") }
        for cc in s.controllers { conditions.append("cc\(cc.controller) \(format(cc.range.lower))…\(format(cc.range.upper))") }
        for cc in region.trigger.controllers { conditions.append("start on cc\(cc.controller) \(format(cc.range.lower))…\(format(cc.range.upper))") }
        if s.channels != SFZRange(1, 16) { conditions.append("channels \(s.channels.lower)…\(s.channels.upper)") }
        if region.polyphony.group != 0 { conditions.append("group \(region.polyphony.group)") }
        if let offBy = region.polyphony.offBy { conditions.append("off_by \(offBy)") }
        return RegionEntry(
            line: region.location.description,
            keys: s.triggersOnKeys ? [Int(s.keys.lower), Int(s.keys.upper)] : nil,
            velocities: [Int(s.velocities.lower), Int(s.velocities.upper)],
            sample: region.playback.sample?.description ?? "",
            keycenter: Int(region.pitch.keycenter),
            trigger: region.trigger.kind.rawValue,
            loopMode: region.playback.loopMode?.rawValue,
            conditions: conditions)
    }

    private static func format(_ value: Float) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    private static func key(_ number: Int) -> String { "\(SFZNoteName.name(of: number)) (\(number))" }

    /// The report for people.
    var text: String {
        var lines: [String] = []
        lines.append("File: \(path)")
        lines.append("Kind: SFZ instrument")
        let order = ["control", "global", "master", "group", "region", "curve", "effect"]
        let counted = headers.sorted { a, b in
            (order.firstIndex(of: a.key) ?? order.count, a.key) < (order.firstIndex(of: b.key) ?? order.count, b.key)
        }
        lines.append("Headers: " + counted.map { "\($0.value) <\($0.key)>" }.joined(separator: ", "))
        if let defaultPath { lines.append("Default path: \(defaultPath)") }
        if let noteOffset { lines.append("Note offset: \(noteOffset)") }
        if let octaveOffset { lines.append("Octave offset: \(octaveOffset)") }
        if let defaultKeyswitch { lines.append("Default keyswitch: \(Self.key(defaultKeyswitch))") }
        if let controllerDefaults {
            lines.append("Controller defaults: " + controllerDefaults.map { "CC \($0.controller) = \(Self.format($0.value))" }
                .joined(separator: ", "))
        }
        lines.append("Regions: \(regionCount)")
        lines.append("Key map:")
        if keyMap.isEmpty { lines.append("  (no region is started by a key)") }
        for run in keyMap {
            let keys = run.lowKey == run.highKey ? Self.key(run.lowKey) : "\(Self.key(run.lowKey)) – \(Self.key(run.highKey))"
            lines.append("  \(keys): \(run.regions) region\(run.regions == 1 ? "" : "s")")
        }
        lines.append("Region list:")
        for region in regions {
            var line = "  \(region.line): "
            if let keys = region.keys {
                line += keys[0] == keys[1] ? SFZNoteName.name(of: keys[0]) : "\(SFZNoteName.name(of: keys[0]))–\(SFZNoteName.name(of: keys[1]))"
            } else {
                line += "no key"
            }
            line += " vel \(region.velocities[0])–\(region.velocities[1]) → \(region.sample) (keycenter \(SFZNoteName.name(of: region.keycenter)))"
            if region.trigger != "attack" { line += ", trigger=\(region.trigger)" }
            if let loopMode = region.loopMode { line += ", \(loopMode)" }
            if !region.conditions.isEmpty { line += ", " + region.conditions.joined(separator: ", ") }
            lines.append(line)
        }
        lines.append("Samples: \(samples.count)")
        for sample in samples {
            var line = "  \(sample.name)"
            if let error = sample.error {
                line += ": cannot read (\(error))"
            } else if let frames = sample.frames, let rate = sample.sampleRate, let channels = sample.channels {
                line += ": \(frames) frames, \(Self.format(Float(rate))) Hz, \(channels == 1 ? "mono" : "stereo")"
                if let loop = sample.loop { line += ", loop \(loop[0])…\(loop[1])" }
                if let root = sample.rootKey { line += ", root \(Self.key(root))" }
            }
            if sample.path != sample.name && !sample.path.hasSuffix("/" + sample.name) { line += " [\(sample.path)]" }
            lines.append(line)
        }
        lines.append("Warnings: \(warnings.count)")
        for warning in warnings { lines.append("  \(warning)") }
        return lines.joined(separator: "\n")
    }
}
