import PolyphonSFZCore
import PolyphonSoundFontCore

extension SFZZoneMapping {
    /// What the region plays beyond SF2: its filters and equaliser bands with the controllers
    /// moving them through the instrument's `curves`, `pitcheg` and `fileg`, `amplfo`,
    /// `pitchlfo` and `fillfo` (the filter's only with a filter to move, as in sfizz), its v2
    /// LFOs and flex envelopes; nil when none of them.
    static func shaping(_ region: SFZRegion, curves: SFZCurveSet = SFZCurveSet(), stream: UInt32 = 0) -> VoiceShaping? {
        let filter = region.filters.first.map { filterShape($0, curves: curves, stream: filterStream(stream, index: 0)) }
        func plain(_ lfo: SFZLegacyLFO?) -> LFOShape? { lfo.flatMap { playsAsRouted($0) ? nil : lfoShape($0) } }
        var shaping = VoiceShaping(filter: filter, pitchEnvelope: region.pitchEnvelope.map(envelopeShape),
                                   filterEnvelope: filter == nil ? nil : region.filterEnvelope.map(envelopeShape),
                                   volumeLFO: plain(region.amplitudeLFO), pitchLFO: plain(region.pitchLFO),
                                   filterLFO: filter == nil ? nil : plain(region.filterLFO))
        addFilterStages(region, curves: curves, stream: stream, to: &shaping)
        shaping.controllerModulations += voiceControllerModulations(region, curves: curves)
        shaping.routedLFOs = routedLFOs(region)
        shaping.flexEnvelopes = flexEnvelopes(region)
        return shaping.isEmpty ? nil : shaping
    }

    /// An SFZ v1 LFO in the voice's terms; nil for sample-and-hold, which the voice lacks.
    static func lfoShape(_ lfo: SFZLegacyLFO) -> LFOShape? {
        guard let wave = LFOShape.Wave(rawValue: UInt8(clamping: lfo.wave.rawValue)) else { return nil }
        return LFOShape(wave, frequency: lfo.frequency.value, depth: lfo.depth.value, delay: lfo.delay, fade: lfo.fade)
    }

    /// An SFZ envelope (`pitcheg_*`, `fileg_*`) in the voice's terms: percents as 0…1.
    static func envelopeShape(_ envelope: SFZEnvelope) -> ModulationEnvelopeShape {
        var shape = ModulationEnvelopeShape(depth: envelope.depth.value)
        shape.delay = envelope.delay
        shape.start = envelope.start / 100
        shape.attack = envelope.attack
        shape.hold = envelope.hold
        shape.decay = envelope.decay
        shape.sustain = envelope.sustain / 100
        shape.release = envelope.release
        let byVelocity = envelope.velocityModifiers
        shape.velocityToDelay = byVelocity[.delay] ?? 0
        shape.velocityToAttack = byVelocity[.attack] ?? 0
        shape.velocityToHold = byVelocity[.hold] ?? 0
        shape.velocityToDecay = byVelocity[.decay] ?? 0
        shape.velocityToSustain = (byVelocity[.sustain] ?? 0) / 100
        shape.velocityToRelease = byVelocity[.release] ?? 0
        shape.velocityToDepth = envelope.velocityToDepth
        return shape
    }

    /// The region's first filter as the voice's ``FilterShape`` (sfizz's designs), nil when it
    /// has none.
    static func filterShape(_ region: SFZRegion) -> FilterShape? {
        region.filters.first.map { filterShape($0) }
    }

    /// A filter as the voice's ``FilterShape``; `curves` are the instrument's (for
    /// `fil_veltrack_curveccN`), `stream` numbers its `fil_random` draws.
    static func filterShape(_ filter: SFZFilter, curves: SFZCurveSet = SFZCurveSet(), stream: UInt32 = 0) -> FilterShape {
        let (response, poles) = shape(of: filter.type)
        var shape = FilterShape(response, poles: poles, cutoff: filter.cutoff.value, resonance: filter.resonance.value,
                                keytrack: filter.keytrack, keycenter: filter.keycenter,
                                velocityTracking: filter.velocityTracking.value)
        shape.gain = filter.gain.value
        // Cents, as the value they add to.
        shape.velocityTrackingControllers = depths(filter.velocityTracking.controllers, curves, divisor: 1)
        shape.random = filter.random
        shape.randomStream = stream
        return shape
    }

    /// The draw stream of a region's filter `index` (0, 1): apart from the region's
    /// `amp_random` stream (the region's number) and from each other, so they draw independently.
    static func filterStream(_ region: UInt32, index: Int) -> UInt32 {
        region ^ (UInt32(index + 1) << 29)
    }

    /// The response and order of a `fil_type`. The state-variable low-pass, high-pass and
    /// band-reject have their biquad twins' response (sfizz's TPT state-variable filter and the
    /// RBJ biquad are the same bilinear transform of the same analogue filter); its band-pass
    /// peaks at Q where the RBJ one peaks at 0 dB.
    static func shape(of type: SFZFilterType) -> (FilterShape.Response, Int) {
        switch type {
        case .lowpass1Pole: (.lowPass, 1)
        case .lowpass2Pole, .lowpass2PoleStateVariable: (.lowPass, 2)
        case .lowpass4Pole: (.lowPass, 4)
        case .lowpass6Pole: (.lowPass, 6)
        case .highpass1Pole: (.highPass, 1)
        case .highpass2Pole, .highpass2PoleStateVariable: (.highPass, 2)
        case .highpass4Pole: (.highPass, 4)
        case .highpass6Pole: (.highPass, 6)
        case .bandpass1Pole: (.bandPass, 1)
        case .bandpass2Pole: (.bandPass, 2)
        case .bandpass2PoleStateVariable: (.stateVariableBandPass, 2)
        case .bandReject2Pole, .bandReject2PoleStateVariable: (.bandReject, 2)
        case .lowShelf: (.lowShelf, 2)
        case .highShelf: (.highShelf, 2)
        case .peaking: (.peaking, 2)
        case .pink: (.pink, 2)
        }
    }
}
