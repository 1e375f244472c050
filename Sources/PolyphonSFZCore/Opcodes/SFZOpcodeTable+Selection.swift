extension SFZOpcodeTable {
    /// Which notes and conditions select a region: keys, velocities, channels, controllers,
    /// bend, program, pressure, tempo, random layers, round robins, keyswitches.
    mutating func addSelection() {
        key("lokey") { r, _, v in r.selection.keys.lower = v }
        // `hikey=-1` / `key=-1`: no key starts the region (it is started by controllers).
        add("hikey") { arguments in
            if let n = SFZValueReader.leadingInteger(arguments.value), n < 0 {
                return .apply { $0.selection.triggersOnKeys = false }
            }
            guard case .success(let v) = SFZValueSpec.key.read(arguments.value) else {
                return .invalid(Self.problem(SFZValueSpec.key, arguments.value))
            }
            return .apply { $0.selection.keys.upper = UInt8(v); $0.selection.triggersOnKeys = true }
        }
        add("key") { arguments in
            if let n = SFZValueReader.leadingInteger(arguments.value), n < 0 {
                return .apply { $0.selection.triggersOnKeys = false }
            }
            guard case .success(let v) = SFZValueSpec.key.read(arguments.value) else {
                return .invalid(Self.problem(SFZValueSpec.key, arguments.value))
            }
            let key = UInt8(v)
            return .apply {
                $0.selection.keys = SFZRange(key, key)
                $0.selection.triggersOnKeys = true
                $0.pitch.keycenter = key
                $0.pitch.keycenterFromSample = false
            }
        }
        let velocity = SFZValueSpec.strict(0, 127).integer
        integer("lovel", velocity) { r, _, v in r.selection.velocities.lower = UInt8(v) }
        integer("hivel", velocity) { r, _, v in r.selection.velocities.upper = UInt8(v) }
        let channel = SFZValueSpec.strict(1, 16).integer
        integer("lochan", channel) { r, _, v in r.selection.channels.lower = UInt8(v) }
        integer("hichan", channel) { r, _, v in r.selection.channels.upper = UInt8(v) }
        let everyValue = SFZRange<Float>(0, 127)
        let controllers: ControllerRangesAccess = { r, change in change(&r.selection.controllers) }
        controllerBounds(lower: "locc&", upper: "hicc&", SFZSpecs.midiValue, defaults: everyValue, controllers)
        controllerBounds(lower: "lohdcc&", upper: "hihdcc&", SFZSpecs.normalized, scale: 127, defaults: everyValue, controllers)
        real("lobend", SFZSpecs.pitchBendValue) { r, _, v in r.selection.pitchBend.lower = v }
        real("hibend", SFZSpecs.pitchBendValue) { r, _, v in r.selection.pitchBend.upper = v }
        let program = SFZValueSpec.strict(0, 127).integer
        integer("loprog", program) { r, _, v in r.selection.programs.lower = UInt8(v) }
        integer("hiprog", program) { r, _, v in r.selection.programs.upper = UInt8(v) }
        real("lochanaft", SFZSpecs.midiValue) { r, _, v in r.selection.channelPressure.lower = v }
        real("hichanaft", SFZSpecs.midiValue) { r, _, v in r.selection.channelPressure.upper = v }
        real("lopolyaft", SFZSpecs.midiValue) { r, _, v in r.selection.keyPressure.lower = v }
        real("hipolyaft", SFZSpecs.midiValue) { r, _, v in r.selection.keyPressure.upper = v }
        real("lobpm", SFZSpecs.tempo) { r, _, v in r.selection.tempo.lower = v }
        real("hibpm", SFZSpecs.tempo) { r, _, v in r.selection.tempo.upper = v }
        real("lorand", SFZSpecs.normalized) { r, _, v in r.selection.random.lower = v }
        real("hirand", SFZSpecs.normalized) { r, _, v in r.selection.random.upper = v }
        real("lotimer", SFZSpecs.timer) { r, _, v in r.selection.timer.lower = v }
        real("hitimer", SFZSpecs.timer) { r, _, v in r.selection.timer.upper = v }
        integer("seq_length", SFZSpecs.sequence) { r, _, v in r.selection.sequenceLength = v }
        integer("seq_position", SFZSpecs.sequence) { r, _, v in r.selection.sequencePosition = v }

        key("sw_lokey") { r, _, v in r.selection.keyswitch.range = SFZRange(v, r.selection.keyswitch.range?.upper ?? 127) }
        key("sw_hikey") { r, _, v in r.selection.keyswitch.range = SFZRange(r.selection.keyswitch.range?.lower ?? 0, v) }
        key("sw_last") { r, _, v in
            // sfizz: a range given by sw_lolast/sw_hilast wins over sw_last.
            if r.selection.keyswitch.lastRange == nil { r.selection.keyswitch.last = v }
        }
        key("sw_lolast") { r, _, v in
            r.selection.keyswitch.lastRange = SFZRange(v, r.selection.keyswitch.lastRange?.upper ?? v)
            r.selection.keyswitch.last = nil
        }
        key("sw_hilast") { r, _, v in
            r.selection.keyswitch.lastRange = SFZRange(r.selection.keyswitch.lastRange?.lower ?? v, v)
            r.selection.keyswitch.last = nil
        }
        key("sw_down") { r, _, v in r.selection.keyswitch.down = v }
        key("sw_up") { r, _, v in r.selection.keyswitch.up = v }
        key("sw_previous") { r, _, v in r.selection.keyswitch.previous = v }
        key("sw_default") { r, _, v in r.selection.keyswitch.defaultKey = v }
        text("sw_label") { r, _, v in r.selection.keyswitch.label = v }
        choice("sw_vel", "current, previous", { SFZVelocitySource(rawValue: $0) }) { r, _, v in r.selection.keyswitch.velocitySource = v }
    }

    /// The message for a value `spec` does not accept.
    static func problem(_ spec: SFZValueSpec, _ value: String) -> String {
        if case .failure(let problem) = spec.read(value) { return problem.message }
        return "'\(value)' is not accepted"
    }
}
