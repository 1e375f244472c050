import PolyphonSoundFontCore

/// Notes on presets whose regions carry play conditions (``PlayCondition``, SFZ instruments):
/// regions chosen by the channel's state as sfizz chooses them — round robin, a seeded random
/// draw per note, keyswitches, controller, bend, channel, program and pressure ranges, first
/// and legato notes — release triggers on note-off (held back by the zone's sustain pedal, and
/// played by a voice an `off_by` cuts), one-shot voices, polyphony groups cutting one another
/// (`group`/`off_by`), voice limits (``VoicePool+VoiceLimits.swift``) and what a voice works out
/// at its note-on (``NoteStartShape``: envelope, delay, offset). SF2 presets never come here.
extension VoicePool {
    /// The next number of the pool's random sequence, in [0, 1) (xorshift64*, 24 bits).
    private func nextRandom() -> Float {
        randomState ^= randomState >> 12
        randomState ^= randomState << 25
        randomState ^= randomState >> 27
        let bits = (randomState &* 0x2545_F491_4F6C_DD1D) >> 40
        return Float(bits) / 16_777_216
    }

    func conditionalNoteOn(_ ch: Channel, preset p: Int, rules: PresetPlayRules, key: Int, velocity: Int, bus: Int,
                           _ context: RenderContext) {
        let state = playStates[ch.index]
        state.event &+= 1
        state.isHeld[key] = true
        if rules.isSwitchKey(key) {
            state.keyswitch = key
        } else {
            if !state.isNoteDown[key] { state.notesDown += 1 }
            state.isNoteDown[key] = true
            state.noteOnFrame[key] = now
            state.noteOnVelocity[key] = UInt8(velocity)
            state.noteOnBus[key] = bus
        }
        let glideFrom = prepareNoteOn(ch, key: key, releasingStruckKey: false, context)
        let portamento = (fromKey: glideFrom, time: ch.portamentoTime)
        let draw = nextRandom()
        let k = UInt8(key), vel = UInt8(velocity)
        for (zone, region) in presets.regions[p].enumerated() where region.keyRange.contains(k) {
            guard let condition = region.playCondition else {
                if region.velocityRange.contains(vel) {
                    startConditioned(region, zone: zone, preset: p, ch, key: key, velocity: velocity,
                                     portamento: portamento, bus: bus, context)
                }
                continue
            }
            // sfizz counts every note reaching the region's keys, whatever else decides.
            let count = state.counters[condition.counter]
            state.counters[condition.counter] = count &+ 1
            guard count % max(condition.sequenceLength, 1) == condition.sequencePosition - 1,
                  region.velocityRange.contains(vel), condition.admitsRandom(draw),
                  admits(condition, ch, state, rules, key: key) else { continue }
            switch condition.trigger {
            case .attack: break
            case .first: guard state.notesDown == 1 else { continue }
            case .legato: guard state.notesDown > 1 else { continue }
            case .release, .releaseKey: continue
            }
            startConditioned(region, zone: zone, preset: p, ch, key: key, velocity: velocity, portamento: portamento,
                             bus: bus, context)
        }
        state.previousKey = key
    }

    func conditionalNoteOff(_ ch: Channel, preset p: Int, rules: PresetPlayRules, key: Int, _ context: RenderContext) {
        guard !playStates.isEmpty else { return }
        let state = playStates[ch.index]
        state.event &+= 1
        state.isHeld[key] = false
        guard !rules.isSwitchKey(key) else { return }
        let wasDown = state.isNoteDown[key]
        if wasDown { state.notesDown -= 1 }
        state.isNoteDown[key] = false
        guard rules.hasReleaseRegions, wasDown else { return }
        startReleaseRegions(ch, preset: p, rules: rules, key: key, velocity: Int(state.noteOnVelocity[key]), context)
    }

    /// A controller moved on a channel playing zones with play conditions: voices whose own
    /// sustain pedal it is, and that it no longer holds, release (unless sostenuto holds them),
    /// and release regions it held back start. (MIDI's pedal at 64 is also lifted by
    /// ``Channel/VoiceCommand/releaseSustained``.)
    func pedalMoved(_ ch: Channel, controller: Int, _ context: RenderContext) {
        let value = ch.controllers[controller]
        forEachActive(onChannel: ch.index) { v in
            let pedal = v.note.sustainPedal
            guard v.note.isSustained, Int(pedal.controller) == controller, !pedal.holds(value) else { return }
            v.note.isSustained = false
            if !v.note.isSostenutoHeld { release(&v, context) }
        }
        if playStates[ch.index].pendingCount > 0 { startPendingReleases(ch, controller: controller, context) }
    }

    /// Controller `controller` moved: the release regions its pedal held back, and that it no
    /// longer holds, start — if a voice a key going down started still sounds in their ranges
    /// (unless `rt_dead`), as sfizz checks when its pedal lifts.
    func startPendingReleases(_ ch: Channel, controller: Int, _ context: RenderContext) {
        let state = playStates[ch.index]
        guard let p = ch.presetIndex, presets.playRules[p] != nil else { state.pendingCount = 0; return }
        let regions = presets.regions[p]
        let value = ch.controllers[controller]
        state.event &+= 1
        notesBegun &+= 1
        var i = 0
        while i < state.pendingCount {
            let entry = state.pendingReleases[i]
            let zone = Int(entry.zone)
            guard zone < regions.count, let condition = regions[zone].playCondition else {
                removePending(at: i, state)
                continue
            }
            let pedal = condition.sustainPedal
            guard Int(pedal.controller) == controller, !pedal.holds(value) else { i += 1; continue }
            removePending(at: i, state)
            if !condition.releasePlaysAfterAttackEnded && !attackVoiceSounds(ch, in: regions[zone]) { continue }
            startRelease(regions[zone], zone: zone, preset: p, condition, ch, key: Int(entry.key),
                         velocity: Int(entry.velocity), context)
        }
    }

    private func removePending(at i: Int, _ state: PlayState) {
        state.pendingCount -= 1
        state.pendingReleases[i] = state.pendingReleases[state.pendingCount]
    }

    /// Starts the regions a key coming up triggers, at `velocity` (the key's note-on's, or that
    /// of a voice an `off_by` cut). With its sustain pedal down, a `trigger=release` region
    /// waits for the pedal (`release_key` does not).
    private func startReleaseRegions(_ ch: Channel, preset p: Int, rules: PresetPlayRules, key: Int, velocity: Int,
                                     _ context: RenderContext) {
        let state = playStates[ch.index]
        let draw = nextRandom()
        notesBegun &+= 1
        let k = UInt8(key), vel = UInt8(velocity)
        for (zone, region) in presets.regions[p].enumerated() where region.contains(key: k, velocity: vel) {
            guard let condition = region.playCondition, condition.isRelease else { continue }
            guard condition.admitsRandom(draw), admits(condition, ch, state, rules, key: key) else { continue }
            if condition.trigger == .release {
                let pedal = condition.sustainPedal
                if pedal.holds(ch.controllers[Int(pedal.controller)]) {
                    if state.pendingCount < PlayState.pendingCapacity {
                        state.pendingReleases[state.pendingCount] = PlayState.PendingRelease(
                            zone: Int32(zone), key: k, velocity: vel)
                        state.pendingCount += 1
                    }
                    continue
                }
                if !condition.releasePlaysAfterAttackEnded && !attackVoiceSounds(ch, in: region) { continue }
            }
            startRelease(region, zone: zone, preset: p, condition, ch, key: key, velocity: velocity, context)
        }
    }

    /// Starts one release region's voice, `rt_decay` dB quieter for every second the key was
    /// held.
    private func startRelease(_ region: Region, zone: Int, preset p: Int, _ condition: PlayCondition, _ ch: Channel,
                              key: Int, velocity: Int, _ context: RenderContext) {
        let state = playStates[ch.index]
        let held = Float(now - state.noteOnFrame[key]) / Float(sampleRate)
        var decayed = region
        if condition.releaseDecay > 0 {
            // rt_decay in dB as the attenuation generator's raw units (cB ÷ 0.4).
            let raw = condition.releaseDecay * held * 10 / 0.4
            let total = Float(decayed.generators[.initialAttenuation]) + raw
            // + 0.5 and truncation rounds (both are ≥ 0); WebAssembly's core has no roundf.
            decayed.generators[.initialAttenuation] = Int32(min(total, 1_000_000) + 0.5)
        }
        startConditioned(decayed, zone: zone, preset: p, ch, key: key, velocity: velocity,
                         portamento: (fromKey: -1, time: 0), bus: state.noteOnBus[key], context, releaseTriggered: true)
    }

    /// Whether a voice a key going down started still sounds on the channel in the region's
    /// key and velocity ranges (sfizz plays a release region only then, unless `rt_dead`).
    private func attackVoiceSounds(_ ch: Channel, in region: Region) -> Bool {
        var found = false
        forEachActive(onChannel: ch.index) { v in
            if !v.note.isReleaseTriggered && region.contains(key: UInt8(v.note.key), velocity: UInt8(v.note.velocity)) {
                found = true
            }
        }
        return found
    }

    /// Whether the channel's state admits `condition` (round robin and random aside).
    private func admits(_ condition: PlayCondition, _ ch: Channel, _ state: PlayState, _ rules: PresetPlayRules,
                        key: Int) -> Bool {
        if !condition.channels.contains(UInt8(ch.index % 16 + 1)) { return false }
        for range in condition.controllers {
            let value = Float(ch.controllers[Int(range.controller)])
            if value < range.lower || value > range.upper { return false }
        }
        let bend = Float(Int(ch.pitchWheel) - 8192)
        if !condition.pitchBend.contains(bend) { return false }
        if !condition.programs.contains(ch.program) || !condition.channelPressure.contains(ch.channelPressure)
            || !condition.keyPressure.contains(ch.polyPressure[key]) { return false }
        if let keys = condition.lastKeyswitch {
            let current = state.keyswitch >= 0 ? state.keyswitch : rules.defaultKeyswitch
            guard current >= 0, keys.contains(UInt8(current)) else { return false }
        }
        if let down = condition.keyDown, !state.isHeld[Int(down)] { return false }
        if let up = condition.keyUp, state.isHeld[Int(up)] { return false }
        if let previous = condition.previousKey, state.previousKey != Int(previous) { return false }
        return true
    }

    /// Starts `region`'s voice (zone `zone` of preset `p`) after cutting the voices its
    /// polyphony group turns off — whose keys then play their release regions, as sfizz does —
    /// and those its voice limits stop; marks how the voice answers note-off, and applies what
    /// it works out at note-on (its start waits for its `delay`).
    private func startConditioned(_ region: Region, zone: Int, preset p: Int, _ ch: Channel, key: Int, velocity: Int,
                                  portamento: (fromKey: Int, time: Float), bus: Int, _ context: RenderContext,
                                  releaseTriggered: Bool = false) {
        guard let sample = samples.playable(region.sampleIndex) else { return }
        let condition = region.playCondition
        let state = playStates[ch.index]
        // The second zone of a stereo file is the same sfizz voice: it cuts and stops nothing more.
        let isTwin = condition.map { state.lastStart.event == state.event && state.lastStart.region == $0.region } ?? false
        if !isTwin {
            cutOffGroups(condition?.group ?? 0, ch, key: key, context)
            if let condition, condition.polyphony.isLimited {
                enforceLimits(condition, preset: p, ch, key: key, velocity: velocity, context)
            }
        }
        guard let slot = start(region: region, sample: sample, loopPeak: samples.loopPeak(region.sampleIndex),
                               channel: ch, key: key, velocity: velocity, portamento: portamento, bus: bus,
                               context: context) else { return }
        if let condition {
            voices[slot].note.group = condition.group
            voices[slot].note.offBy = condition.offBy
            voices[slot].note.offTime = condition.offTime
            voices[slot].note.isReleaseTriggered = releaseTriggered
            voices[slot].note.preset = p
            voices[slot].note.region = condition.region
            voices[slot].note.isTwin = isTwin
            voices[slot].note.sustainPedal = condition.sustainPedal
            voices[slot].note.headers = Self.headerIDs(condition.polyphony)
            if condition.ignoresNoteOff || releaseTriggered {
                voices[slot].note.ignoresNoteOff = true
                voices[slot].note.isKeyReleased = true
            }
        }
        let noteStart = region.shaping?.noteStart
        if !isTwin {
            // Draws only for zones that use them, so other instruments' sequences stay as they were.
            state.lastStart = noteStart == nil ? (state.event, condition?.region ?? -1, 0, 0)
                : (state.event, condition?.region ?? -1, nextRandom(), nextRandom())
        }
        if let noteStart {
            // pitch_random draws from the note's number, as amp_random and fil_random do: the
            // channel's sequence stays as it was for instruments without it.
            let pitchDraw = noteStart.pitch.map { NoteDraw.uniform(noteSeed(key: key), stream: $0.randomStream) } ?? 0
            let wait = voices[slot].applyNoteStart(noteStart, channel: ch,
                                                   draws: (state.lastStart.delayDraw, state.lastStart.offsetDraw,
                                                           pitchDraw),
                                                   context: context)
            if wait > 0 {
                voices[slot].note.startFrame = now + Int64(wait)
                nextScheduledFrame = min(nextScheduledFrame, voices[slot].note.startFrame)
            }
        }
    }

    /// Voices on the channel whose `off_by` names `group` stop (not those of the same group on
    /// the same key), and each key a cut voice was struck on plays its release regions.
    private func cutOffGroups(_ group: Int, _ ch: Channel, key: Int, _ context: RenderContext) {
        let state = playStates[ch.index]
        var cut = false
        forEachActive(onChannel: ch.index) { v in
            guard let offBy = v.note.offBy, offBy == group, !v.note.isStopped, !v.note.isReleaseTriggered,
                  v.note.group != group || v.note.key != key else { return }
            if !v.note.isTwin {
                if state.cutVoices[v.note.key] < UInt8.max { state.cutVoices[v.note.key] += 1 }
                state.cutVelocity[v.note.key] = UInt8(v.note.velocity)
                cut = true
            }
            stop(&v, context)
        }
        guard cut else { return }
        for cutKey in 0..<128 where state.cutVoices[cutKey] > 0 {
            let count = state.cutVoices[cutKey]
            state.cutVoices[cutKey] = 0
            guard let p = ch.presetIndex, let rules = presets.playRules[p], rules.hasReleaseRegions else { continue }
            for _ in 0..<count {
                state.event &+= 1
                startReleaseRegions(ch, preset: p, rules: rules, key: cutKey, velocity: Int(state.cutVelocity[cutKey]),
                                    context)
            }
        }
        state.event &+= 1
    }

    /// Stops `v` as sfizz's "off" does: a fade of its zone's `off_time` (or its own release
    /// for `off_mode=normal`), after which it no longer counts against any limit. A voice
    /// still waiting for its `delay` never sounds.
    func stop(_ v: inout Voice, _ context: RenderContext) {
        v.note.isStopped = true
        v.note.offBy = nil
        if v.note.startFrame > now { v.kill(); return }
        if let seconds = v.note.offTime {
            // sfizz's release falls e⁻⁹ in its time, SF2's 96 dB: stretched as the zones' are.
            let timecents = 1200 * Math.log2(Double(max(seconds, 0.001) * SFZZoneMapping.envelopeTimeStretch))
            v.quickRelease(context, timecents: Float(timecents))
        } else {
            v.release(context)
        }
    }
}
