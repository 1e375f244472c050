extension SFZOpcodeTable {
    /// Level and stereo field: volume, amplitude, pan, position, width, key and velocity
    /// tracking, velocity curves, random level, the per-level gains, effect sends.
    mutating func addAmplitude() {
        modulated("volume", value: SFZSpecs.volume, depth: SFZSpecs.volume) { r, _, change in change(&r.amplitude.volume) }
        modulated("amplitude", value: SFZSpecs.amplitude, depth: SFZSpecs.amplitudeModulation) { r, _, change in
            change(&r.amplitude.amplitude)
        }
        modulated("pan", value: SFZSpecs.pan, depth: SFZSpecs.panModulation) { r, _, change in change(&r.amplitude.pan) }
        modulated("position", value: SFZSpecs.pan, depth: SFZSpecs.panModulation) { r, _, change in change(&r.amplitude.position) }
        modulated("width", value: SFZSpecs.width, depth: SFZSpecs.panModulation) { r, _, change in change(&r.amplitude.width) }
        key("amp_keycenter") { r, _, v in r.amplitude.keycenter = v }
        real("amp_keytrack", SFZSpecs.ampKeytrack) { r, _, v in r.amplitude.keytrack = v }
        real("amp_veltrack", SFZSpecs.ampVeltrack) { r, _, v in r.amplitude.velocityTracking.value = v }
        checked("amp_veltrack_oncc&", controller: true) { t, p in
            t.real(p, SFZSpecs.ampVeltrack) { r, a, v in r.amplitude.velocityTracking.updateController(a.numbers.last!) { $0.depth = v } }
        }
        checked("amp_veltrack_curvecc&", controller: true) { t, p in
            t.integer(p, .strict(0, 255)) { r, a, v in r.amplitude.velocityTracking.updateController(a.numbers.last!) { $0.curve = v } }
        }
        real("amp_random", SFZSpecs.ampRandom) { r, _, v in r.amplitude.random = v }
        add("amp_velcurve_&") { arguments in
            guard let velocity = arguments.numbers.last, velocity <= 127 else { return .unknown }
            switch SFZSpecs.ampVelcurve.read(arguments.value) {
            case .failure(let problem): return .invalid(problem.message)
            case .success(let gain):
                let point = SFZVelocityPoint(velocity: UInt8(velocity), gain: SFZValueSpec.float(gain))
                return .apply { region in
                    var points = region.amplitude.velocityCurve.filter { $0.velocity != point.velocity }
                    points.append(point)
                    points.sort { $0.velocity < $1.velocity }
                    region.amplitude.velocityCurve = points
                }
            }
        }
        real("global_amplitude", SFZSpecs.amplitude) { r, _, v in r.amplitude.globalAmplitude = v }
        real("master_amplitude", SFZSpecs.amplitude) { r, _, v in r.amplitude.masterAmplitude = v }
        real("group_amplitude", SFZSpecs.amplitude) { r, _, v in r.amplitude.groupAmplitude = v }
        real("global_volume", SFZSpecs.volume) { r, _, v in r.amplitude.globalVolume = v }
        real("master_volume", SFZSpecs.volume) { r, _, v in r.amplitude.masterVolume = v }
        real("group_volume", SFZSpecs.volume) { r, _, v in r.amplitude.groupVolume = v }
        add("effect&") { arguments in
            guard let bus = arguments.numbers.last, (1...256).contains(bus) else { return .unknown }
            switch SFZSpecs.effect.read(arguments.value) {
            case .failure(let problem): return .invalid(problem.message)
            case .success(let level):
                let send = SFZEffectSend(bus: bus, level: SFZValueSpec.float(level))
                return .apply { region in
                    region.amplitude.effectSends.removeAll { $0.bus == bus }
                    region.amplitude.effectSends.append(send)
                }
            }
        }
    }

    /// Key, velocity and controller crossfades.
    mutating func addCrossfades() {
        key("xfin_lokey") { r, _, v in r.crossfade.keyIn.lower = v }
        key("xfin_hikey") { r, _, v in r.crossfade.keyIn.upper = v }
        key("xfout_lokey") { r, _, v in r.crossfade.keyOut.lower = v }
        key("xfout_hikey") { r, _, v in r.crossfade.keyOut.upper = v }
        real("xfin_lovel", SFZSpecs.midiValue) { r, _, v in r.crossfade.velocityIn.lower = v }
        real("xfin_hivel", SFZSpecs.midiValue) { r, _, v in r.crossfade.velocityIn.upper = v }
        real("xfout_lovel", SFZSpecs.midiValue) { r, _, v in r.crossfade.velocityOut.lower = v }
        real("xfout_hivel", SFZSpecs.midiValue) { r, _, v in r.crossfade.velocityOut.upper = v }
        let curve: @Sendable (String) -> SFZCrossfadeCurve? = { SFZCrossfadeCurve(rawValue: $0) }
        choice("xf_keycurve", "gain, power", curve) { r, _, v in r.crossfade.keyCurve = v }
        choice("xf_velcurve", "gain, power", curve) { r, _, v in r.crossfade.velocityCurve = v }
        choice("xf_cccurve", "gain, power", curve) { r, _, v in r.crossfade.controllerCurve = v }
        controllerBounds(lower: "xfin_locc&", upper: "xfin_hicc&", SFZSpecs.midiValue, defaults: SFZCrossfade.controllerInDefaults) { r, change in
            change(&r.crossfade.controllersIn)
        }
        controllerBounds(lower: "xfout_locc&", upper: "xfout_hicc&", SFZSpecs.midiValue, defaults: SFZCrossfade.controllerOutDefaults) { r, change in
            change(&r.crossfade.controllersOut)
        }
    }
}
