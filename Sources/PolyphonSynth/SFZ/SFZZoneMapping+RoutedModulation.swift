import PolyphonSFZCore
import PolyphonSoundFontCore

extension SFZZoneMapping {
    /// The filter stages a region's voice plays (its first `filters` filters and `bands`
    /// equaliser bands): routes to any other are left out.
    struct PlayedStages {
        var filters: Int
        var bands: Int

        init(_ region: SFZRegion) {
            filters = min(region.filters.count, playedFilters)
            bands = min(region.equalizers.count, playedEqualizers)
        }
    }

    /// The region's v2 LFOs (`lfoN_*`), then the v1 ones that need more than ``LFOShape`` (a
    /// controller or aftertouch moving their rate or depth, or sample-and-hold), as routed LFOs;
    /// at most ``RoutedLFOShape/voiceLimit``.
    static func routedLFOs(_ region: SFZRegion) -> [RoutedLFOShape] {
        let stages = PlayedStages(region)
        var lfos = region.lfos.map { routedLFO($0, stages: stages) }
        let legacy: [(SFZLegacyLFO?, ModulationTarget)] = [
            (region.amplitudeLFO, .volume), (region.pitchLFO, .pitch), (stages.filters > 0 ? region.filterLFO : nil, .cutoff),
        ]
        for case let (lfo?, target) in legacy where playsAsRouted(lfo) { lfos.append(routedLFO(lfo, target: target)) }
        return Array(lfos.prefix(RoutedLFOShape.voiceLimit))
    }

    /// Whether a v1 LFO plays as a routed LFO rather than an ``LFOShape``.
    static func playsAsRouted(_ lfo: SFZLegacyLFO) -> Bool {
        lfoShape(lfo) == nil || !lfo.frequency.controllers.isEmpty || !lfo.depth.controllers.isEmpty
            || lfo.depthByChannelPressure != 0 || lfo.depthByKeyPressure != 0 || lfo.frequencyByChannelPressure != 0
            || lfo.frequencyByKeyPressure != 0
    }

    static func routedLFO(_ lfo: SFZLFO, stages: PlayedStages) -> RoutedLFOShape {
        let waves = lfo.subwaves.prefix(RoutedLFOShape.waveLimit).map { sub in
            RoutedLFOShape.Wave(LFOShape.Wave(rawValue: UInt8(clamping: sub.wave.rawValue)) ?? .triangle,
                                offset: sub.offset, ratio: sub.ratio, scale: sub.scale)
        }
        var shape = RoutedLFOShape(frequency: lfo.frequency.value, waves: waves,
                                   routes: lfo.routes.compactMap { route($0, stages: stages) })
        shape.frequencyControllers = controllerDepths(lfo.frequency.controllers)
        shape.phase = lfo.phase.value
        shape.phaseControllers = controllerDepths(lfo.phase.controllers)
        // sfizz reads lfoN_stepX in percent; a sequence of no steps silences the first wave.
        shape.steps = (lfo.steps ?? []).prefix(RoutedLFOShape.stepLimit).map { $0 / 100 }
        if lfo.steps?.isEmpty == true, !shape.waves.isEmpty { shape.waves[0].offset = 0; shape.waves[0].scale = 0 }
        shape.delay = lfo.delay.value
        shape.delayControllers = controllerDepths(lfo.delay.controllers)
        shape.fade = lfo.fade.value
        shape.fadeControllers = controllerDepths(lfo.fade.controllers)
        shape.count = lfo.count
        return shape
    }

    /// A v1 LFO as a routed LFO of one wave and one route; aftertouch as sfizz's sources 129
    /// (channel) and 130 (key).
    static func routedLFO(_ lfo: SFZLegacyLFO, target: ModulationTarget) -> RoutedLFOShape {
        func pressure(_ channel: Float, _ key: Float) -> [ControllerDepth] {
            [ControllerDepth(controller: 129, depth: channel), ControllerDepth(controller: 130, depth: key)]
                .filter { $0.depth != 0 }
        }
        let route = ModulationRoute(target, depth: lfo.depth.value,
                                    depthControllers: controllerDepths(lfo.depth.controllers)
                                        + pressure(lfo.depthByChannelPressure, lfo.depthByKeyPressure))
        let wave = LFOShape.Wave(rawValue: UInt8(clamping: lfo.wave.rawValue)) ?? .sine
        var shape = RoutedLFOShape(frequency: lfo.frequency.value, waves: [RoutedLFOShape.Wave(wave)], routes: [route])
        shape.frequencyControllers = controllerDepths(lfo.frequency.controllers)
            + pressure(lfo.frequencyByChannelPressure, lfo.frequencyByKeyPressure)
        shape.delay = lfo.delay
        shape.fade = lfo.fade
        return shape
    }

    /// The region's flex envelopes (`egN_*`), at most ``FlexEnvelopeShape/voiceLimit`` of
    /// ``FlexEnvelopeShape/pointLimit`` points.
    static func flexEnvelopes(_ region: SFZRegion) -> [FlexEnvelopeShape] {
        let stages = PlayedStages(region)
        return region.flexEnvelopes.prefix(FlexEnvelopeShape.voiceLimit).map { envelope in
            let points = envelope.points.prefix(FlexEnvelopeShape.pointLimit).map { point in
                var p = FlexEnvelopeShape.Point(time: point.time.value, level: point.level.value, shape: point.shape)
                p.timeControllers = controllerDepths(point.time.controllers)
                p.levelControllers = controllerDepths(point.level.controllers)
                return p
            }
            var shape = FlexEnvelopeShape(points: points, sustain: envelope.sustainPoint,
                                          routes: envelope.routes.compactMap { route($0, stages: stages) })
            shape.isDynamic = envelope.isDynamic
            shape.drivesAmplitude = envelope.drivesAmplitude
            return shape
        }
    }

    /// Whether one of the envelopes the voice plays replaces the amplitude envelope: the zone's
    /// SF2 volume envelope then holds at full level.
    static func playsFlexAmplitudeEnvelope(_ region: SFZRegion) -> Bool {
        region.flexEnvelopes.prefix(FlexEnvelopeShape.voiceLimit).contains(where: { $0.drivesAmplitude })
    }

    /// A route in the voice's units (the amplitude's percent as a factor), nil for a target the
    /// voice lacks: a filter's or band's only when the voice plays it (`egN_freq_lfoX` not).
    static func route(_ route: SFZModulationRoute, stages: PlayedStages) -> ModulationRoute? {
        let target: ModulationTarget
        var scale: Float = 1
        switch route.target {
        case .pitch: target = .pitch
        case .volume: target = .volume
        case .amplitude: target = .amplitude; scale = 0.01
        case .pan: target = .pan
        case .width: target = .width
        case .position: target = .position
        case .cutoff(filter: let f) where f < stages.filters: target = f == 0 ? .cutoff : .secondCutoff
        case .resonance(filter: let f) where f < stages.filters: target = f == 0 ? .resonance : .secondResonance
        case .filterGain(filter: let f) where f < stages.filters: target = f == 0 ? .filterGain : .secondFilterGain
        case .equalizerFrequency(band: let b) where b < stages.bands: target = .band(b, part: 0)!
        case .equalizerBandwidth(band: let b) where b < stages.bands: target = .band(b, part: 1)!
        case .equalizerGain(band: let b) where b < stages.bands: target = .band(b, part: 2)!
        default: return nil
        }
        return ModulationRoute(target, depth: route.depth.value * scale,
                               depthControllers: controllerDepths(route.depth.controllers, scale: scale))
    }

    /// The inputs the voice follows (``isPlayed(_:)``), each depth times `scale`.
    static func controllerDepths(_ inputs: [SFZControllerInput], scale: Float = 1) -> [ControllerDepth] {
        inputs.filter(isPlayed).map { ControllerDepth(controller: $0.controller, depth: $0.depth * scale) }
    }
}
