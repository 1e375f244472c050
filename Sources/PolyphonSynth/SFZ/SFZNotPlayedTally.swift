import PolyphonSFZCore

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
        if let filter = region.filters.first {
            if SFZZoneMapping.shape(of: filter.type) == nil {
                note("fil_type=\(filter.type.rawValue) (the region plays unfiltered)", region)
            }
            if !filter.velocityTracking.controllers.isEmpty || filter.random != 0
                || filter.cutoffByChannelPressure != 0 || filter.cutoffByKeyPressure != 0 {
                note("fil_veltrack_onccN, fil_random, cutoff_chanaft, cutoff_polyaft", region)
            }
            noteControllers(filter.cutoff.controllers + filter.resonance.controllers, region)
        }
        if region.filters.count > 1 { note("second filters (fil2_type, cutoff2 …)", region) }
        if !region.equalizers.isEmpty { note("equalisers (eqN_*)", region) }
        if !region.lfos.isEmpty { note("LFOs v2 (lfoN_*)", region) }
        if region.filterLFO != nil && SFZZoneMapping.filterShape(region) == nil {
            note("fillfo_* without a filter the voice plays", region)
        }
        for lfo in [region.amplitudeLFO, region.pitchLFO, region.filterLFO].compactMap({ $0 }) {
            if SFZZoneMapping.lfoShape(lfo) == nil { note("LFO wave 12 (sample and hold)", region) }
            if !lfo.frequency.controllers.isEmpty || !lfo.depth.controllers.isEmpty || lfo.depthByChannelPressure != 0
                || lfo.depthByKeyPressure != 0 || lfo.frequencyByChannelPressure != 0 || lfo.frequencyByKeyPressure != 0 {
                note("*lfo_freq/depth_onccN and aftertouch LFO modifiers", region)
            }
        }
        if region.filterEnvelope != nil && SFZZoneMapping.filterShape(region) == nil {
            note("fileg_* without a filter the voice plays", region)
        }
        for envelope in [region.pitchEnvelope, region.filterEnvelope].compactMap({ $0 })
        where !envelope.controllerModifiers.isEmpty || !envelope.depth.controllers.isEmpty || envelope.isDynamic {
            note("pitcheg_*/fileg_* controller modifiers (*_onccN) and *_dynamic", region)
        }
        if !region.flexEnvelopes.isEmpty { note("flex envelopes (egN_*)", region) }
        let crossfade = region.crossfade
        if (crossfade.controllersIn + crossfade.controllersOut).contains(where: { !(0..<128).contains($0.controller) }) {
            note("xfin_loccN/xfout_loccN on extended controllers (≥ 128; ignored)", region)
        }
        let amplitude = region.amplitude
        noteControllers(amplitude.volume.controllers + amplitude.pan.controllers + region.pitch.tune.controllers, region)
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
        if envelope.isDynamic { note("ampeg_dynamic (stage times are read at note-on)", region) }
        let atNoteOn = envelope.controllerModifiers.map { $0.input } + playback.delay.controllers + playback.offsetControllers
        if atNoteOn.contains(where: { !SFZZoneMapping.isPlayedAtNoteOn($0) }) {
            note("ampeg_*_onccN, delay_onccN, offset_onccN with a curve or an extended controller (the input is left"
                 + " out)", region)
        }
        let pitch = region.pitch
        if pitch.keytrack < 0 || pitch.keytrack > 1200 { note("pitch_keytrack outside 0…1200 (clamped)", region) }
        if pitch.velocityTracking != SFZModulatedValue(0) || pitch.random != 0 || pitch.bendUp != 200
            || pitch.bendDown != -200 {
            note("pitch_veltrack, pitch_random, bend_up, bend_down", region)
        }
        if !playback.endControllers.isEmpty || !playback.loopStartControllers.isEmpty
            || !playback.loopEndControllers.isEmpty {
            note("controller-moved end and loop (end_onccN, loop_start_onccN, loop_end_onccN)", region)
        }
        if playback.count != nil || playback.loopCount != nil { note("count and loop_count", region) }
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
