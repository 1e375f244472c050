extension SFZOpcodeTable {
    /// What plays and how: sample, direction, offsets, end, loops, delay, the wavetable
    /// oscillator.
    mutating func addPlayback() {
        add("sample") { arguments in
            let value = arguments.value
            guard !value.isEmpty else { return .ignored }  // sfizz: an empty sample= changes nothing
            let source: SFZSampleSource
            if value.utf8.first == UInt8(ascii: "*") {
                guard let generator = SFZGenerator(sampleName: value) else {
                    return .invalid("'\(value)' is not a generator (*sine, *triangle, *saw, *square, *noise, *gnoise, *silence)")
                }
                source = .generator(generator)
            } else {
                source = .file(value.replacingBackslashes())
            }
            return .apply { $0.playback.sample = source }
        }
        integer("sample_quality", .strict(0, 10)) { r, _, v in r.playback.quality = v }
        // sfizz: anything but "reverse" plays forwards.
        text("direction") { r, _, v in r.playback.isReversed = v == "reverse" }
        modulated("delay", value: SFZSpecs.delay, depth: SFZSpecs.delay) { r, _, change in change(&r.playback.delay) }
        real("delay_random", SFZSpecs.delay) { r, _, v in r.playback.delayRandom = v }
        integer("offset", SFZSpecs.offset) { r, _, v in r.playback.offset = v }
        integer("offset_random", SFZSpecs.offset) { r, _, v in r.playback.offsetRandom = v }
        checked("offset_oncc&", controller: true) { t, p in
            t.real(p, SFZSpecs.offsetModulation) { r, a, v in r.playback.offsetControllers.update(a.numbers.last!) { $0.depth = v } }
        }
        integer("end", SFZSpecs.sampleEnd) { r, _, v in r.playback.end = v }
        checked("end_oncc&", controller: true) { t, p in
            t.real(p, SFZSpecs.sampleEndModulation) { r, a, v in r.playback.endControllers.update(a.numbers.last!) { $0.depth = v } }
        }
        integer("count", SFZSpecs.sampleCount) { r, _, v in
            r.playback.count = v
            r.playback.loopMode = .oneShot
        }
        choice("loop_mode", "no_loop, one_shot, loop_continuous, loop_sustain", { SFZLoopMode(rawValue: $0) }) { r, _, v in
            r.playback.loopMode = v
        }
        integer("loop_start", SFZSpecs.loopPoint) { r, _, v in r.playback.loopStart = v }
        integer("loop_end", SFZSpecs.loopPoint) { r, _, v in r.playback.loopEnd = v }
        integer("loop_count", SFZSpecs.sampleCount) { r, _, v in r.playback.loopCount = v }
        real("loop_crossfade", SFZSpecs.loopCrossfade) { r, _, v in r.playback.loopCrossfade = v }
        checked("loop_start_oncc&", controller: true) { t, p in
            t.real(p, SFZSpecs.loopModulation) { r, a, v in r.playback.loopStartControllers.update(a.numbers.last!) { $0.depth = v } }
        }
        checked("loop_end_oncc&", controller: true) { t, p in
            t.real(p, SFZSpecs.loopModulation) { r, a, v in r.playback.loopEndControllers.update(a.numbers.last!) { $0.depth = v } }
        }

        real("oscillator_phase", SFZSpecs.oscillatorPhase) { r, _, v in
            r.playback.oscillator.phase = v >= 0 ? v - v.rounded(.down) : -1
        }
        choice("oscillator", "auto, on, off", { text -> SFZOscillator.Mode? in
            if text == "auto" { return .automatic }
            return SFZValueReader.boolean(text).map { $0 ? .on : .off }
        }) { r, _, v in r.playback.oscillator.mode = v }
        integer("oscillator_mode", .strict(0, 2)) { r, _, v in r.playback.oscillator.modulation = v }
        integer("oscillator_multi", .clamped(1, 9)) { r, _, v in r.playback.oscillator.voices = v }
        modulated("oscillator_detune", value: SFZSpecs.oscillatorDetune, depth: SFZSpecs.oscillatorDetune) { r, _, change in
            change(&r.playback.oscillator.detune)
        }
        modulated("oscillator_mod_depth", value: SFZSpecs.oscillatorModulationDepth, depth: SFZSpecs.oscillatorModulationDepth) { r, _, change in
            change(&r.playback.oscillator.modulationDepth)
        }
        integer("oscillator_quality", .strict(0, 3)) { r, _, v in r.playback.oscillator.quality = v }
    }

    /// Polyphony groups, voice limits, output.
    mutating func addPolyphony() {
        integer("group", SFZSpecs.group) { r, _, v in r.polyphony.group = Int64(v) }
        integer("off_by", SFZSpecs.group) { r, _, v in r.polyphony.offBy = Int64(v) }
        choice("off_mode", "fast, normal, time", { SFZOffMode(rawValue: $0) }) { r, _, v in r.polyphony.offMode = v }
        real("off_time", SFZSpecs.offTime) { r, _, v in
            r.polyphony.offMode = .time
            r.polyphony.offTime = v
        }
        integer("polyphony", SFZSpecs.polyphony) { r, _, v in r.polyphony.limit = v }
        integer("note_polyphony", SFZSpecs.notePolyphony) { r, _, v in r.polyphony.noteLimit = v }
        choice("note_selfmask", "on, mask, off", { text -> Bool? in
            switch text {
            case "on", "mask": return true
            case "off": return false
            default: return nil
            }
        }) { r, _, v in r.polyphony.noteSelfMask = v }
        integer("output", SFZSpecs.output) { r, _, v in r.polyphony.output = v }
    }
}

extension Array where Element == SFZControllerInput {
    /// The input for `controller`, created at depth 0 when there is none.
    mutating func update(_ controller: Int, _ change: (inout SFZControllerInput) -> Void) {
        if let index = firstIndex(where: { $0.controller == controller }) {
            change(&self[index])
        } else {
            var input = SFZControllerInput(controller: controller)
            change(&input)
            append(input)
        }
    }
}
