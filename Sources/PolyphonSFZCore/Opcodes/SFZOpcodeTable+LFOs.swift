extension SFZOpcodeTable {
    typealias LegacyLFOAccess = @Sendable (inout SFZRegion, (inout SFZLegacyLFO) -> Void) -> Void

    /// The SFZ v1 LFOs `amplfo_*` (depth in dB), `pitchlfo_*` and `fillfo_*` (cents).
    mutating func addLegacyLFOs() {
        let lfos: [(String, SFZValueSpec, SFZValueSpec, LegacyLFOAccess)] = [
            ("amplfo", SFZSpecs.ampLFODepth, SFZSpecs.volume, { region, change in
                var lfo = region.amplitudeLFO ?? SFZLegacyLFO()
                change(&lfo)
                region.amplitudeLFO = lfo
            }),
            ("pitchlfo", SFZSpecs.pitchLFODepth, SFZSpecs.pitchModulation, { region, change in
                var lfo = region.pitchLFO ?? SFZLegacyLFO()
                change(&lfo)
                region.pitchLFO = lfo
            }),
            ("fillfo", SFZSpecs.pitchLFODepth, SFZSpecs.filterCutoffModulation, { region, change in
                var lfo = region.filterLFO ?? SFZLegacyLFO()
                change(&lfo)
                region.filterLFO = lfo
            }),
        ]
        for (prefix, depthSpec, depthModulation, access) in lfos {
            real("\(prefix)_delay", SFZSpecs.lfoTime) { r, _, v in access(&r) { $0.delay = v } }
            real("\(prefix)_fade", SFZSpecs.lfoTime) { r, _, v in access(&r) { $0.fade = v } }
            modulated("\(prefix)_freq", value: SFZSpecs.lfoFrequency, depth: SFZSpecs.lfoFrequencyModulation) { r, _, change in
                access(&r) { change(&$0.frequency) }
            }
            modulated("\(prefix)_depth", value: depthSpec, depth: depthModulation) { r, _, change in
                access(&r) { change(&$0.depth) }
            }
            real("\(prefix)_depthchanaft", depthModulation) { r, _, v in access(&r) { $0.depthByChannelPressure = v } }
            real("\(prefix)_depthpolyaft", depthModulation) { r, _, v in access(&r) { $0.depthByKeyPressure = v } }
            real("\(prefix)_freqchanaft", SFZSpecs.lfoFrequencyModulation) { r, _, v in access(&r) { $0.frequencyByChannelPressure = v } }
            real("\(prefix)_freqpolyaft", SFZSpecs.lfoFrequencyModulation) { r, _, v in access(&r) { $0.frequencyByKeyPressure = v } }
            choice("\(prefix)_wave", Self.waveNames, Self.wave) { r, _, v in access(&r) { $0.wave = v } }
        }
    }

    /// The SFZ v2 LFOs `lfoN_*`: rate, phase, delay, fade, count, step sequences, sub-waves and
    /// routes to targets.
    mutating func addLFOs() {
        let lfo: @Sendable (SFZOpcodeArguments) -> Int = { $0.index(0)! }
        modulated("lfo&_freq", value: SFZSpecs.lfoFrequency, depth: SFZSpecs.lfoFrequencyModulation, indexes: [0]) { r, a, change in
            r.withLFO(lfo(a)) { change(&$0.frequency) }
        }
        modulated("lfo&_beats", value: SFZSpecs.lfoBeats, depth: SFZSpecs.lfoBeatsModulation, indexes: [0]) { r, a, change in
            r.withLFO(lfo(a)) { change(&$0.beats) }
        }
        modulated("lfo&_phase", value: SFZSpecs.lfoPhase, depth: SFZSpecs.lfoPhaseModulation, indexes: [0]) { r, a, change in
            r.withLFO(lfo(a)) { change(&$0.phase) }
        }
        checked("lfo&_delay", indexes: [0]) { t, p in
            t.real(p, SFZSpecs.lfoTime) { r, a, v in r.withLFO(lfo(a)) { $0.delay.value = v } }
        }
        checked("lfo&_delay_oncc&", indexes: [0], controller: true) { t, p in
            t.real(p, SFZSpecs.lfoTime) { r, a, v in r.withLFO(lfo(a)) { $0.delay.updateController(a.numbers.last!) { $0.depth = v } } }
        }
        checked("lfo&_fade", indexes: [0]) { t, p in
            t.real(p, SFZSpecs.lfoTime) { r, a, v in r.withLFO(lfo(a)) { $0.fade.value = v } }
        }
        checked("lfo&_fade_oncc&", indexes: [0], controller: true) { t, p in
            t.real(p, SFZSpecs.lfoTime) { r, a, v in r.withLFO(lfo(a)) { $0.fade.updateController(a.numbers.last!) { $0.depth = v } } }
        }
        checked("lfo&_count", indexes: [0]) { t, p in
            t.integer(p, SFZSpecs.lfoCount) { r, a, v in r.withLFO(lfo(a)) { $0.count = v } }
        }
        checked("lfo&_steps", indexes: [0]) { t, p in
            t.integer(p, SFZSpecs.lfoSteps) { r, a, v in
                r.withLFO(lfo(a)) { l in
                    var steps = l.steps ?? []
                    if steps.count > v { steps.removeLast(steps.count - v) }
                    while steps.count < v { steps.append(0) }
                    l.steps = steps
                }
            }
        }
        add("lfo&_step&") { arguments in
            guard let index = arguments.index(0), arguments.numbers.count == 2,
                  (1...128).contains(arguments.numbers[1]) else { return .unknown }
            let step = arguments.numbers[1] - 1
            switch SFZSpecs.lfoStep.read(arguments.value) {
            case .failure(let problem): return .invalid(problem.message)
            case .success(let value):
                let v = SFZValueSpec.float(value)
                return .apply { region in
                    region.withLFO(index) { l in
                        var steps = l.steps ?? []
                        while steps.count <= step { steps.append(0) }
                        steps[step] = v
                        l.steps = steps
                    }
                }
            }
        }
        // Sub-waves 1…8 (sfizz's limit).
        func subwave(_ name: String, _ register: (inout SFZOpcodeTable, String) -> Void) {
            var inner = SFZOpcodeTable()
            register(&inner, "lfo&_\(name)&")
            let handler = inner.handlers["lfo&_\(name)&"]!
            add("lfo&_\(name)&") { arguments in
                guard arguments.index(0) != nil, arguments.numbers.count == 2, (1...8).contains(arguments.numbers[1]) else {
                    return .unknown
                }
                return handler(arguments)
            }
        }
        let sub: @Sendable (SFZOpcodeArguments) -> Int = { $0.numbers[1] - 1 }
        subwave("wave") { t, p in
            t.choice(p, Self.waveNames, Self.wave) { r, a, v in r.withLFO(lfo(a)) { $0.withSubwave(sub(a)) { $0.wave = v } } }
        }
        subwave("offset") { t, p in
            t.real(p, SFZSpecs.lfoOffset) { r, a, v in r.withLFO(lfo(a)) { $0.withSubwave(sub(a)) { $0.offset = v } } }
        }
        subwave("ratio") { t, p in
            t.real(p, SFZSpecs.lfoRatio) { r, a, v in r.withLFO(lfo(a)) { $0.withSubwave(sub(a)) { $0.ratio = v } } }
        }
        subwave("scale") { t, p in
            t.real(p, SFZSpecs.lfoScale) { r, a, v in r.withLFO(lfo(a)) { $0.withSubwave(sub(a)) { $0.scale = v } } }
        }
        addRoutes(prefix: "lfo&_") { r, a, target, change in r.withLFO(lfo(a)) { $0.routes.update(target, change) } }
    }

    /// The SFZ v2 flex envelopes `egN_*`: points, sustain point, routes.
    mutating func addFlexEnvelopes() {
        let envelope: @Sendable (SFZOpcodeArguments) -> Int = { $0.index(0)! }
        // Points are numbered from 0.
        let point: @Sendable (SFZOpcodeArguments) -> Int? = { a in
            a.numbers.count >= 2 && a.numbers[1] <= a.limits.maximumOpcodeIndex ? a.numbers[1] : nil
        }
        func pointOpcode(_ pattern: String, controller: Bool = false, _ register: (inout SFZOpcodeTable, String) -> Void) {
            checked(pattern, indexes: [0], controller: controller) { t, p in
                var inner = SFZOpcodeTable()
                register(&inner, p)
                let handler = inner.handlers[p]!
                t.add(p) { arguments in point(arguments) == nil ? .unknown : handler(arguments) }
            }
        }
        pointOpcode("eg&_time&") { t, p in
            t.real(p, SFZSpecs.flexTime) { r, a, v in r.withFlexEnvelope(envelope(a)) { $0.withPoint(point(a)!) { $0.time.value = v } } }
        }
        pointOpcode("eg&_time&_oncc&", controller: true) { t, p in
            t.real(p, SFZSpecs.flexTimeModulation) { r, a, v in
                r.withFlexEnvelope(envelope(a)) { $0.withPoint(point(a)!) { $0.time.updateController(a.numbers.last!) { $0.depth = v } } }
            }
        }
        pointOpcode("eg&_level&") { t, p in
            t.real(p, SFZSpecs.flexLevel) { r, a, v in r.withFlexEnvelope(envelope(a)) { $0.withPoint(point(a)!) { $0.level.value = v } } }
        }
        pointOpcode("eg&_level&_oncc&", controller: true) { t, p in
            t.real(p, SFZSpecs.flexLevel) { r, a, v in
                r.withFlexEnvelope(envelope(a)) { $0.withPoint(point(a)!) { $0.level.updateController(a.numbers.last!) { $0.depth = v } } }
            }
        }
        pointOpcode("eg&_shape&") { t, p in
            t.real(p, SFZSpecs.flexShape) { r, a, v in r.withFlexEnvelope(envelope(a)) { $0.withPoint(point(a)!) { $0.shape = v } } }
        }
        checked("eg&_sustain", indexes: [0]) { t, p in
            t.integer(p, SFZSpecs.flexSustain) { r, a, v in r.withFlexEnvelope(envelope(a)) { $0.sustainPoint = v } }
        }
        checked("eg&_dynamic", indexes: [0]) { t, p in
            t.flag(p) { r, a, v in r.withFlexEnvelope(envelope(a)) { $0.isDynamic = v } }
        }
        checked("eg&_ampeg", indexes: [0]) { t, p in
            t.flag(p) { r, a, v in r.withFlexEnvelope(envelope(a)) { $0.drivesAmplitude = v } }
        }
        addRoutes(prefix: "eg&_") { r, a, target, change in r.withFlexEnvelope(envelope(a)) { $0.routes.update(target, change) } }
        // egN_freq_lfoX: the envelope moves the frequency of v2 LFO X.
        let lfoTarget: @Sendable (SFZOpcodeArguments) -> SFZModulationTarget = { .lfoFrequency(lfo: $0.index(1)!) }
        modulated("eg&_freq_lfo&", value: SFZSpecs.lfoFrequencyModulation, depth: SFZSpecs.lfoFrequencyModulation, indexes: [0, 1]) { r, a, change in
            r.withFlexEnvelope(envelope(a)) { $0.routes.update(lfoTarget(a), change) }
        }
    }

    typealias RouteAccess = @Sendable (inout SFZRegion, SFZOpcodeArguments, SFZModulationTarget, (inout SFZModulatedValue) -> Void) -> Void

    /// The targets a v2 LFO or flex envelope can be routed to, with their depth specs: `…_pitch`,
    /// `…_cutoff2`, `…_eq1gain` and their controller forms.
    private mutating func addRoutes(prefix: String, _ access: @escaping RouteAccess) {
        let plain: [(String, SFZModulationTarget, SFZValueSpec)] = [
            ("amplitude", .amplitude, SFZSpecs.amplitudeModulation),
            ("pan", .pan, SFZSpecs.panModulation),
            ("width", .width, SFZSpecs.panModulation),
            ("position", .position, SFZSpecs.panModulation),
            ("pitch", .pitch, SFZSpecs.pitchModulation),
            ("volume", .volume, SFZSpecs.volume),
        ]
        for (name, target, spec) in plain {
            modulated(prefix + name, value: spec, depth: spec, indexes: [0]) { r, a, change in access(&r, a, target, change) }
        }
        let indexed: [(String, @Sendable (Int) -> SFZModulationTarget, SFZValueSpec)] = [
            ("cutoff&", { .cutoff(filter: $0) }, SFZSpecs.filterCutoffModulation),
            ("resonance&", { .resonance(filter: $0) }, SFZSpecs.filterResonance),
            ("fil&gain", { .filterGain(filter: $0) }, SFZSpecs.filterGain),
            ("eq&gain", { .equalizerGain(band: $0) }, SFZSpecs.eqGain),
            ("eq&freq", { .equalizerFrequency(band: $0) }, SFZSpecs.eqFrequencyModulation),
            ("eq&bw", { .equalizerBandwidth(band: $0) }, SFZSpecs.eqBandwidthModulation),
        ]
        for (name, target, spec) in indexed {
            modulated(prefix + name, value: spec, depth: spec, indexes: [0, 1]) { r, a, change in
                access(&r, a, target(a.index(1)!), change)
            }
        }
    }

    static let waveNames = "0 triangle, 1 sine, 2 pulse 75 %, 3 square, 4 pulse 25 %, 5 pulse 12.5 %, 6 ramp, 7 saw, 12 sample and hold"

    static let wave: @Sendable (String) -> SFZLFOWave? = { text in
        SFZValueReader.leadingInteger(text).flatMap { Int(exactly: $0) }.flatMap { SFZLFOWave(rawValue: $0) }
    }
}

extension SFZLFO {
    mutating func withSubwave(_ index: Int, _ change: (inout SFZLFOSubwave) -> Void) {
        while subwaves.count <= index { subwaves.append(SFZLFOSubwave()) }
        change(&subwaves[index])
    }
}

extension SFZFlexEnvelope {
    mutating func withPoint(_ index: Int, _ change: (inout SFZFlexEnvelopePoint) -> Void) {
        while points.count <= index { points.append(SFZFlexEnvelopePoint()) }
        change(&points[index])
    }
}
