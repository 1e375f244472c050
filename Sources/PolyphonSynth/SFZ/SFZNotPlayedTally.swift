import PolyphonSFZCore
import PolyphonSoundFontCore

/// What of an instrument the synthesizer does not play yet, counted per kind so a large
/// instrument gets one warning per kind (with its first place and how many regions it
/// concerns), not one per region.
struct SFZNotPlayedTally {
    private var counts: [String: (first: SFZLocation, regions: Int)] = [:]
    private var order: [String] = []
    private(set) var playedRegions = 0

    mutating func note(_ what: String, _ region: SFZRegion) {
        if let entry = counts[what] {
            counts[what] = (entry.first, entry.regions + 1)
        } else {
            counts[what] = (region.location, 1)
            order.append(what)
        }
    }

    /// Notes what keeps `region` out of the bank, and the opcodes it has that the voice ignores.
    mutating func record(_ region: SFZRegion) {
        if !region.selection.triggersOnKeys || !region.trigger.controllers.isEmpty {
            note("regions started by controllers, start_loccN (left out)", region)
        }
        let selection = region.selection
        let playback = region.playback
        if selection.tempo != SFZRange(0, 500) || selection.timer != SFZRange(0, .greatestFiniteMagnitude) {
            note("lobpm/hibpm and lotimer/hitimer (ignored)", region)
        }
        if selection.keyswitch.velocitySource == .previous { note("sw_vel=previous (the note's own velocity)", region) }
        if selection.controllers.contains(where: { !(0..<128).contains($0.controller) }) {
            note("conditions on extended controllers (≥ 128; ignored)", region)
        }
        if !(0..<128).contains(region.trigger.sustainController) {
            note("sustain_cc on an extended controller (≥ 128; the pedal is not followed)", region)
        }
        let played = region.filters.prefix(SFZZoneMapping.playedFilters)
        if played.contains(where: { $0.cutoffByChannelPressure != 0 || $0.cutoffByKeyPressure != 0 }) {
            note("cutoff_chanaft, cutoff_polyaft", region)
        }
        if played.contains(where: { !$0.velocityTracking.controllers.allSatisfy(SFZZoneMapping.isPlayedController) }) {
            note("fil_veltrack_onccN with a step or a source other than CC 0–127 (the input is left out)", region)
        }
        if region.filters.count > SFZZoneMapping.playedFilters { note("filters after the second", region) }
        if region.equalizers.count > SFZZoneMapping.playedEqualizers { note("equaliser bands after the third", region) }
        let filterInputs = SFZZoneMapping.filterControllerInputs(region)
        if filterInputs.contains(where: { !SFZZoneMapping.isFilterPlayed($0) }) {
            note("filter and equaliser *_onccN from a source other than CC 0–127, bend, aftertouch, velocity or key"
                 + " (the input is left out)", region)
        }
        if filterInputs.filter({ SFZZoneMapping.isFilterPlayed($0) && $0.depth != 0 }).count > ShapedControllers.capacity {
            note("more than \(ShapedControllers.capacity) controllers on the filters and equaliser (the rest left out)",
                 region)
        }
        if region.filterLFO != nil && SFZZoneMapping.filterShape(region) == nil {
            note("fillfo_* without a filter the voice plays", region)
        }
        recordRoutedModulation(region)
        if region.filterEnvelope != nil && SFZZoneMapping.filterShape(region) == nil {
            note("fileg_* without a filter the voice plays", region)
        }
        for envelope in [region.pitchEnvelope, region.filterEnvelope].compactMap({ $0 })
        where !envelope.controllerModifiers.isEmpty || !envelope.depth.controllers.isEmpty || envelope.isDynamic {
            note("pitcheg_*/fileg_* controller modifiers (*_onccN) and *_dynamic", region)
        }
        let crossfade = region.crossfade
        if (crossfade.controllersIn + crossfade.controllersOut).contains(where: { !(0..<128).contains($0.controller) }) {
            note("xfin_loccN/xfout_loccN on extended controllers (≥ 128; ignored)", region)
        }
        let amplitude = region.amplitude
        let voiceInputs = amplitude.volume.controllers + amplitude.pan.controllers + region.pitch.tune.controllers
        if voiceInputs.contains(where: { SFZZoneMapping.source(of: $0.controller) == nil }) {
            note("volume_onccN, pan_onccN, pitch_onccN from a source other than CC 0–127, bend, aftertouch, velocity"
                 + " or key (the input is left out)", region)
        }
        if voiceInputs.filter(SFZZoneMapping.isShapedVoiceInput).count + (SFZZoneMapping.bendIsShaped(region) ? 2 : 0)
            > ShapedControllers.capacity {
            note("more than \(ShapedControllers.capacity) volume, pan and pitch controllers with a curve, step or"
                 + " smoothing (the rest left out)", region)
        }
        let shaped = amplitude.amplitude.controllers + amplitude.velocityTracking.controllers
            + amplitude.width.controllers + amplitude.position.controllers
        if shaped.contains(where: { !SFZZoneMapping.isPlayedController($0) }) {
            note("amplitude_onccN, amp_veltrack_onccN, width_onccN, position_onccN with a step or a source"
                 + " other than CC 0–127 (the input is left out)", region)
        }
        if shaped.contains(where: { SFZZoneMapping.isPlayedController($0) && $0.smoothing > 0 }) {
            note("*_smoothccN (the value follows the controller at once)", region)
        }
        if !amplitude.effectSends.isEmpty { note("effect sends", region) }
        let envelope = region.amplitudeEnvelope
        let atNoteOn = envelope.controllerModifiers.map { $0.input } + playback.delay.controllers + playback.offsetControllers
        if atNoteOn.contains(where: { !SFZZoneMapping.isPlayedAtNoteOn($0) }) {
            note("ampeg_*_onccN, delay_onccN, offset_onccN on an extended controller (the input is left"
                 + " out)", region)
        }
        let pitch = region.pitch
        if pitch.keytrack < 0 || pitch.keytrack > 1200 { note("pitch_keytrack outside 0…1200 (clamped)", region) }
        if pitch.velocityTracking.controllers.contains(where: { !SFZZoneMapping.isPlayedAtNoteOn($0) }) {
            note("pitch_veltrack_onccN on an extended controller (the input is left out)", region)
        }
        if (playback.endControllers + playback.loopStartControllers + playback.loopEndControllers)
            .contains(where: { !SFZZoneMapping.isPlayedAtNoteOn($0) }) {
            note("end_onccN, loop_start_onccN, loop_end_onccN on an extended controller (the input is left out)", region)
        }
    }

    /// Notes what of the region's v2 LFOs and flex envelopes (and the v1 LFOs played as routed
    /// ones) the voice leaves out.
    private mutating func recordRoutedModulation(_ region: SFZRegion) {
        let stages = SFZZoneMapping.PlayedStages(region)
        let legacy = [region.amplitudeLFO, region.pitchLFO, stages.filters > 0 ? region.filterLFO : nil].compactMap { $0 }
        if region.lfos.count + legacy.filter(SFZZoneMapping.playsAsRouted).count > RoutedLFOShape.voiceLimit {
            note("more than \(RoutedLFOShape.voiceLimit) lfoN (with the v1 LFOs moved by controllers or aftertouch)"
                 + " (the further ones are left out)", region)
        }
        var inputs = legacy.flatMap { $0.frequency.controllers + $0.depth.controllers }
        var routes: [SFZModulationRoute] = []
        for lfo in region.lfos {
            if (lfo.steps?.count ?? 0) > RoutedLFOShape.stepLimit {
                note("lfoN_stepX after the \(RoutedLFOShape.stepLimit)th (left out)", region)
            }
            if lfo.beats != SFZModulatedValue(0) {
                note("lfoN_beats (the LFO plays lfoN_freq, as sfizz_render's: sfizz follows the beats only while a"
                     + " host's transport plays)", region)
            }
            inputs += lfo.frequency.controllers + lfo.phase.controllers + lfo.delay.controllers + lfo.fade.controllers
            routes += lfo.routes
        }
        if region.flexEnvelopes.count > FlexEnvelopeShape.voiceLimit {
            note("more than \(FlexEnvelopeShape.voiceLimit) egN (the further ones are left out)", region)
        }
        for envelope in region.flexEnvelopes {
            if envelope.points.count > FlexEnvelopeShape.pointLimit {
                note("egN points after the \(FlexEnvelopeShape.pointLimit)th (left out)", region)
            }
            inputs += envelope.points.flatMap { $0.time.controllers + $0.level.controllers }
            routes += envelope.routes
        }
        var chainRoutes = 0
        for route in routes {
            inputs += route.depth.controllers
            if let played = SFZZoneMapping.route(route, stages: stages) {
                if RoutedModulation.filterChainSlot(played.target) != nil { chainRoutes += 1 }
            } else if case .lfoFrequency = route.target {
                note("egN_freq_lfoX (left out)", region)
            } else {
                note("lfoN_/egN_ targets on a filter or equaliser band the region does not have (left out)", region)
            }
        }
        if chainRoutes > RoutedModulation.filterChainRouteLimit {
            note("more than \(RoutedModulation.filterChainRouteLimit) lfoN_/egN_ routes to filter gains, the second"
                 + " filter and the equaliser bands (the further ones are left out)", region)
        }
        noteControllers(inputs, region)
    }

    /// Notes the controller inputs of `region` the voice does not follow as sfizz does (a curve,
    /// a step or a source it lacks) or follows without smoothing.
    private mutating func noteControllers(_ inputs: [SFZControllerInput], _ region: SFZRegion) {
        if inputs.contains(where: { !SFZZoneMapping.isPlayed($0) }) {
            note("*_onccN with a curve (*_curveccN), a step (*_stepccN) or a source other than CC 0–127, bend,"
                 + " aftertouch, velocity or key (the input is left out)", region)
        }
        if inputs.contains(where: { SFZZoneMapping.isPlayed($0) && $0.smoothing > 0 }) {
            note("*_smoothccN (the value follows the controller at once)", region)
        }
    }

    /// Counts a region the bank plays.
    mutating func recordPlayed(_ region: SFZRegion) {
        playedRegions += 1
    }

    /// One warning per kind, in the order first met.
    var warnings: [SFZWarning] {
        order.map { what in
            let entry = counts[what]!
            let regions = entry.regions == 1 ? "1 region" : "\(entry.regions) regions"
            return SFZWarning(.notPlayed, at: entry.first, "not played yet: \(what); \(regions)")
        }
    }
}
