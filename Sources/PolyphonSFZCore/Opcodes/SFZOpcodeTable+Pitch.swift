extension SFZOpcodeTable {
    /// Pitch: keycenter, key and velocity tracking, tuning, transposition, pitch bend range.
    mutating func addPitch() {
        add("pitch_keycenter") { arguments in
            if arguments.value == "sample" { return .apply { $0.pitch.keycenterFromSample = true } }
            guard case .success(let v) = SFZValueSpec.key.read(arguments.value) else {
                return .invalid(Self.problem(SFZValueSpec.key, arguments.value) + " (nor 'sample')")
            }
            return .apply { $0.pitch.keycenter = UInt8(v); $0.pitch.keycenterFromSample = false }
        }
        real("pitch_keytrack", SFZSpecs.pitchKeytrack) { r, _, v in r.pitch.keytrack = v }
        real("pitch_veltrack", SFZSpecs.pitchVeltrack) { r, _, v in r.pitch.velocityTracking.value = v }
        checked("pitch_veltrack_oncc&", controller: true) { t, p in
            t.real(p, SFZSpecs.pitchVeltrack) { r, a, v in r.pitch.velocityTracking.updateController(a.numbers.last!) { $0.depth = v } }
        }
        checked("pitch_veltrack_curvecc&", controller: true) { t, p in
            t.integer(p, .strict(0, 255)) { r, a, v in r.pitch.velocityTracking.updateController(a.numbers.last!) { $0.curve = v } }
        }
        real("pitch_random", SFZSpecs.pitchRandom) { r, _, v in r.pitch.random = v }
        real("transpose", SFZSpecs.transpose) { r, _, v in r.pitch.transpose = v }
        modulated("pitch", value: SFZSpecs.tune, depth: SFZSpecs.pitchModulation) { r, _, change in change(&r.pitch.tune) }
        real("bend_up", SFZSpecs.bendRange) { r, _, v in r.pitch.bendUp = v }
        real("bend_down", SFZSpecs.bendRange) { r, _, v in r.pitch.bendDown = v }
        real("bend_step", SFZSpecs.bendStep) { r, _, v in r.pitch.bendStep = v }
        integer("bend_smooth", SFZSpecs.smoothing) { r, _, v in r.pitch.bendSmoothing = v }
    }
}
