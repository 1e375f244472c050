/// Builds an instrument from statements the way sfizz does: blocks are collected until the next
/// header, `<global>` clears the `<master>` and `<group>` above the regions, `<master>` clears
/// the `<group>`, and each `<region>` starts from SFZ's defaults and takes the opcodes of its
/// global, master, group and own block in that order.
///
/// Each opcode is read once, when its block ends; a value that cannot be accepted skips every
/// region it covers (one warning naming the opcode and how many regions it cost), an unknown
/// opcode is warned about once and ignored.
struct SFZInstrumentBuilder {
    let limits: SFZReadingLimits

    private(set) var control = SFZControl()
    private(set) var curves = SFZCurveSet()
    private(set) var regions: [SFZRegion] = []
    private(set) var warnings: [SFZWarning] = []
    private(set) var headerCounts: [String: Int] = [:]
    private(set) var defaultKeyswitch: UInt8?

    /// One opcode of a block, read.
    private struct ReadOpcode {
        var location: SFZLocation
        var name: SFZOpcodeName
        var value: String
        var effect: SFZOpcodeEffect
        /// Index into `invalidOpcodes` when the value was refused.
        var invalidIndex: Int?
    }

    private var globalOpcodes: [ReadOpcode] = []
    private var masterOpcodes: [ReadOpcode] = []
    private var groupOpcodes: [ReadOpcode] = []
    private var parents = SFZParentHeaders()
    private var blockCounts = (global: 0, master: 0, group: 0)

    /// The header being collected and its opcodes.
    private var header: (name: String, location: SFZLocation)?
    private var members: [(name: String, value: String, location: SFZLocation)] = []

    /// Opcodes whose value was refused: where their warning sits and how many regions they cost.
    private var invalidOpcodes: [(warning: Int, message: String, regionsSkipped: Int)] = []
    private var unknownNames = Set<String>()
    private var regionLimitWarned = false
    private var orphanWarned = false

    init(limits: SFZReadingLimits) {
        self.limits = limits
    }

    // MARK: Statements in

    mutating func consume(_ statement: SFZStatement) {
        switch statement.kind {
        case .header(let name):
            flush()
            header = (name, statement.location)
            headerCounts[name, default: 0] += 1
        case .opcode(let name, let value):
            if header == nil {
                if !orphanWarned {
                    warn(.syntax, statement.location, "'\(name)=\(value)' (and any other opcode before the first header) belongs to no header; ignored")
                    orphanWarned = true
                }
                return
            }
            members.append((name, value, statement.location))
        }
    }

    /// Ends the last block and settles the warnings.
    mutating func finish() {
        flush()
        for entry in invalidOpcodes {
            let cost = entry.regionsSkipped == 0 ? "no region affected"
                : entry.regionsSkipped == 1 ? "1 region skipped" : "\(entry.regionsSkipped) regions skipped"
            warnings[entry.warning].message = entry.message + "; " + cost
        }
    }

    mutating func warn(_ kind: SFZWarning.Kind, _ location: SFZLocation?, _ message: String) {
        warnings.append(SFZWarning(kind, at: location, message))
    }

    // MARK: Blocks

    private mutating func flush() {
        defer {
            header = nil
            members = []
        }
        guard let header else { return }
        switch header.name {
        case "global":
            globalOpcodes = readRegionOpcodes()
            masterOpcodes = []
            groupOpcodes = []
            parents = SFZParentHeaders(global: blockCounts.global)
            blockCounts.global += 1
            noteDefaultKeyswitch(in: globalOpcodes)
        case "master":
            masterOpcodes = readRegionOpcodes()
            groupOpcodes = []
            parents = SFZParentHeaders(global: parents.global, master: blockCounts.master)
            blockCounts.master += 1
            noteDefaultKeyswitch(in: masterOpcodes)
        case "group":
            groupOpcodes = readRegionOpcodes()
            parents.group = blockCounts.group
            blockCounts.group += 1
            noteDefaultKeyswitch(in: groupOpcodes)
        case "region":
            let own = readRegionOpcodes()
            noteDefaultKeyswitch(in: own)
            buildRegion(at: header.location, own: own)
        case "control":
            readControl()
        case "curve":
            readCurve(at: header.location)
        case "effect":
            let type = members.first { $0.name.lowercasedASCII == "type" }?.value
            warn(.ignoredHeader, header.location,
                 "<effect>\(type.map { " (type=\($0))" } ?? "") ignored: Polyphon plays SFZ regions dry; its own reverb and chorus follow effect1/effect2 sends")
        case "sample":
            warn(.ignoredHeader, header.location, "<sample> (sample data inside the .sfz) is not supported; ignored")
        default:
            warn(.unknownHeader, header.location, "unknown header <\(header.name)>; it and its opcodes are ignored")
        }
    }

    private mutating func readRegionOpcodes() -> [ReadOpcode] {
        members.map { member in
            let name = SFZOpcodeName(member.name, scope: .region)
            let effect = SFZRegionOpcodes.effect(of: name, value: member.value, limits: limits)
            var opcode = ReadOpcode(location: member.location, name: name, value: member.value, effect: effect)
            switch effect {
            case .unknown:
                if unknownNames.insert(name.canonical).inserted {
                    let hint = SFZControlOpcodes.knows(SFZOpcodeName(member.name, scope: .control))
                        ? " (it belongs in <control>)" : ""
                    warn(.unknownOpcode, member.location, "unknown opcode '\(member.name)'\(hint); ignored wherever it appears")
                }
            case .invalid(let why):
                warn(.invalidValue, member.location, "\(member.name)=\(member.value): \(why)")
                invalidOpcodes.append((warnings.count - 1, warnings[warnings.count - 1].message, 0))
                opcode.invalidIndex = invalidOpcodes.count - 1
            case .apply, .ignored:
                break
            }
            return opcode
        }
    }

    private mutating func noteDefaultKeyswitch(in opcodes: [ReadOpcode]) {
        for opcode in opcodes where opcode.name.canonical == "sw_default" {
            if case .success(let key) = SFZValueSpec.key.read(opcode.value) { defaultKeyswitch = UInt8(key) }
        }
    }

    // MARK: Regions

    /// A `polyphony` in the header block at `level` (0 global, 1 master, 2 group) limits every
    /// voice under the block, as sfizz keeps it — except on a `<group>` whose block (or
    /// master's) sets `group=`: then it is that polyphony group's limit, which the region's own
    /// `group` and `polyphony` carry.
    private func noteHeaderLimit(_ level: Int, _ list: [ReadOpcode], in region: inout SFZRegion) {
        func has(_ name: String, _ opcodes: [ReadOpcode]) -> Bool {
            opcodes.contains { $0.name.canonical == name && $0.invalidIndex == nil }
        }
        guard has("polyphony", list), let limit = region.polyphony.limit,
              let header = SFZHeaderLimit.Header(rawValue: level) else { return }
        let index: Int?
        switch header {
        case .global: index = region.parents.global
        case .master: index = region.parents.master
        case .group:
            if has("group", groupOpcodes) || has("group", masterOpcodes) { return }
            index = region.parents.group
        }
        if let index { region.polyphony.headerLimits.append(SFZHeaderLimit(header: header, index: index, limit: limit)) }
    }

    private mutating func buildRegion(at location: SFZLocation, own: [ReadOpcode]) {
        guard regions.count < limits.maximumRegionCount else {
            if !regionLimitWarned {
                warn(.limitReached, location, "more than \(limits.maximumRegionCount) regions; this one and the rest are dropped")
                regionLimitWarned = true
            }
            return
        }
        var region = SFZRegion(location: location)
        region.parents = parents
        var refused: [Int] = []
        for (level, list) in [globalOpcodes, masterOpcodes, groupOpcodes, own].enumerated() {
            for opcode in list {
                switch opcode.effect {
                case .apply(let change): change(&region)
                case .invalid: refused.append(opcode.invalidIndex!)
                case .unknown, .ignored: break
                }
            }
            if level < 3 { noteHeaderLimit(level, list, in: &region) }
        }
        guard refused.isEmpty else {
            for index in refused { invalidOpcodes[index].regionsSkipped += 1 }
            return
        }
        if case .file(let name) = region.playback.sample {
            region.playback.sample = .file(control.defaultPath + name)
        }
        let offset = control.octaveOffset * 12 + control.noteOffset
        if offset != 0 { region.offsetKeys(by: offset) }

        if region.playback.sample == nil {
            return warn(.unplayableRegion, location, "region names no sample (sample=); skipped")
        }
        if region.playback.end == 0 {
            return warn(.unplayableRegion, location, "end=0 silences the region; skipped")
        }
        let selection = region.selection
        if selection.triggersOnKeys && (selection.keys.isEmpty || selection.velocities.isEmpty) && region.trigger.controllers.isEmpty {
            let what = selection.keys.isEmpty ? "keys \(selection.keys.lower) > \(selection.keys.upper)"
                                              : "velocities \(selection.velocities.lower) > \(selection.velocities.upper)"
            return warn(.unplayableRegion, location, "no note can play the region (\(what)); skipped")
        }
        regions.append(region)
    }

    // MARK: <control> and <curve>

    private mutating func readControl() {
        control.defaultPath = ""  // sfizz: every <control> starts from no default path
        for member in members {
            let name = SFZOpcodeName(member.name, scope: .control)
            switch SFZControlOpcodes.apply(name, member.value, to: &control, limits: limits) {
            case .applied:
                break
            case .invalid(let why):
                warn(.invalidValue, member.location, "\(member.name)=\(member.value): \(why); ignored")
            case .unknown:
                if unknownNames.insert(name.canonical).inserted {
                    let hint = SFZRegionOpcodes.knows(SFZOpcodeName(member.name, scope: .region).pattern)
                        ? " (it is a region opcode: put it in <global>, <group> or <region>)" : ""
                    warn(.unknownOpcode, member.location, "unknown <control> opcode '\(member.name)'\(hint); ignored")
                }
            }
        }
    }

    private mutating func readCurve(at location: SFZLocation) {
        var index: Int?
        var points: [Int: Float] = [:]
        for member in members {
            let name = SFZOpcodeName(member.name, scope: .other)
            switch name.pattern {
            case "curve_index":
                switch SFZValueSpec.strict(0, Double(SFZCurveSet.maximumIndex)).integer.read(member.value) {
                case .success(let v): index = Int(v)
                case .failure(let problem): warn(.invalidValue, member.location, "curve_index=\(member.value): \(problem.message); ignored")
                }
            case "v&":
                guard let point = name.numbers.last, point < 128 else {
                    warn(.invalidValue, member.location, "\(member.name): curve points are v000 … v127; ignored")
                    continue
                }
                guard let value = SFZValueReader.leadingReal(member.value) else {
                    warn(.invalidValue, member.location, "\(member.name)=\(member.value): not a number; ignored")
                    continue
                }
                points[point] = SFZValueSpec.float(value)
            default:
                if unknownNames.insert("curve:" + name.canonical).inserted {
                    warn(.unknownOpcode, member.location, "unknown <curve> opcode '\(member.name)'; ignored")
                }
            }
        }
        if curves.add(SFZCurve(points: points), index: index) == nil {
            warn(.invalidValue, location, index == nil
                 ? "<curve> without curve_index after curves with one: ignored (as in sfizz)"
                 : "<curve> index out of range; ignored")
        }
    }
}

extension SFZRegion {
    /// Moves every key the region names by `offset` semitones, clamped to 0–127, as sfizz
    /// applies `note_offset`/`octave_offset`: key range (unless it is the full range), keycenter,
    /// keyswitches, key crossfades (unless at their defaults).
    mutating func offsetKeys(by offset: Int) {
        func moved(_ key: UInt8) -> UInt8 { UInt8(min(max(Int(key) + offset, 0), 127)) }
        if selection.keys != SFZRange(0, 127) {
            selection.keys = SFZRange(moved(selection.keys.lower), moved(selection.keys.upper))
        }
        pitch.keycenter = moved(pitch.keycenter)
        selection.keyswitch.up = selection.keyswitch.up.map(moved)
        selection.keyswitch.last = selection.keyswitch.last.map(moved)
        selection.keyswitch.down = selection.keyswitch.down.map(moved)
        selection.keyswitch.previous = selection.keyswitch.previous.map(moved)
        if crossfade.keyIn != SFZRange(0, 0) {
            crossfade.keyIn = SFZRange(moved(crossfade.keyIn.lower), moved(crossfade.keyIn.upper))
        }
        if crossfade.keyOut != SFZRange(127, 127) {
            crossfade.keyOut = SFZRange(moved(crossfade.keyOut.lower), moved(crossfade.keyOut.upper))
        }
    }
}

extension String {
    /// ASCII letters in lower case.
    var lowercasedASCII: String { SFZPath.caseFolded(self) }
}
