import PolyphonSoundFontCore

/// Notes on presets whose regions carry play conditions (``PlayCondition``, SFZ instruments):
/// regions chosen by the channel's state as sfizz chooses them — round robin, a seeded random
/// draw per note, keyswitches, controller, bend, channel, program and pressure ranges, first
/// and legato notes — release triggers on note-off (held back by the sustain pedal), one-shot
/// voices, and polyphony groups cutting one another (`group`/`off_by`). SF2 presets never come
/// here.
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
        let glideFrom = prepareNoteOn(ch, key: key, context)
        let portamento = (fromKey: glideFrom, time: ch.portamentoTime)
        let draw = nextRandom()
        let k = UInt8(key), vel = UInt8(velocity)
        for region in presets.regions[p] where region.keyRange.contains(k) {
            guard let condition = region.playCondition else {
                if region.velocityRange.contains(vel) {
                    startConditioned(region, ch, key: key, velocity: velocity, portamento: portamento, bus: bus, context)
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
            startConditioned(region, ch, key: key, velocity: velocity, portamento: portamento, bus: bus, context)
        }
        state.previousKey = key
    }

    func conditionalNoteOff(_ ch: Channel, preset p: Int, rules: PresetPlayRules, key: Int, _ context: RenderContext) {
        guard !playStates.isEmpty else { return }
        let state = playStates[ch.index]
        state.isHeld[key] = false
        guard !rules.isSwitchKey(key) else { return }
        let wasDown = state.isNoteDown[key]
        if wasDown { state.notesDown -= 1 }
        state.isNoteDown[key] = false
        guard rules.hasReleaseRegions, wasDown else { return }
        startReleaseRegions(ch, preset: p, rules: rules, key: key, pedalLifted: false, context)
    }

    /// The sustain pedal lifted: release regions of the keys it held back start.
    func startPendingReleases(_ ch: Channel, _ context: RenderContext) {
        let state = playStates[ch.index]
        state.hasPendingRelease = false
        guard let p = ch.presetIndex, let rules = presets.playRules[p] else {
            for key in 0..<128 { state.pendingRelease[key] = false }
            return
        }
        for key in 0..<128 where state.pendingRelease[key] {
            state.pendingRelease[key] = false
            startReleaseRegions(ch, preset: p, rules: rules, key: key, pedalLifted: true, context)
        }
    }

    /// Starts the regions a key coming up triggers, at the velocity the key was struck with and
    /// `rt_decay` dB quieter for every second it was held. With the sustain pedal down,
    /// `trigger=release` waits for the pedal (`release_key` does not).
    private func startReleaseRegions(_ ch: Channel, preset p: Int, rules: PresetPlayRules, key: Int, pedalLifted: Bool,
                                     _ context: RenderContext) {
        let state = playStates[ch.index]
        let velocity = Int(state.noteOnVelocity[key])
        let held = Float(now - state.noteOnFrame[key]) / Float(sampleRate)
        let draw = nextRandom()
        notesBegun &+= 1
        let k = UInt8(key), vel = UInt8(velocity)
        for region in presets.regions[p] where region.contains(key: k, velocity: vel) {
            guard let condition = region.playCondition, condition.isRelease else { continue }
            if condition.trigger == .release {
                if pedalLifted == false && ch.sustain {
                    state.pendingRelease[key] = true
                    state.hasPendingRelease = true
                    continue
                }
            } else if pedalLifted {
                continue
            }
            guard condition.admitsRandom(draw), admits(condition, ch, state, rules, key: key) else { continue }
            if condition.trigger == .release && !condition.releasePlaysAfterAttackEnded
                && !attackVoiceSounds(ch, in: region) { continue }
            var decayed = region
            if condition.releaseDecay > 0 {
                // rt_decay in dB as the attenuation generator's raw units (cB ÷ 0.4).
                let raw = condition.releaseDecay * held * 10 / 0.4
                let total = Float(decayed.generators[.initialAttenuation]) + raw
                // + 0.5 and truncation rounds (both are ≥ 0); WebAssembly's core has no roundf.
                decayed.generators[.initialAttenuation] = Int32(min(total, 1_000_000) + 0.5)
            }
            startConditioned(decayed, ch, key: key, velocity: velocity, portamento: (fromKey: -1, time: 0),
                             bus: state.noteOnBus[key], context, releaseTriggered: true)
        }
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

    /// Starts `region`'s voice after cutting the voices its polyphony group turns off, and marks
    /// how the voice answers note-off.
    private func startConditioned(_ region: Region, _ ch: Channel, key: Int, velocity: Int,
                                  portamento: (fromKey: Int, time: Float), bus: Int, _ context: RenderContext,
                                  releaseTriggered: Bool = false) {
        guard let sample = samples.playable(region.sampleIndex) else { return }
        let condition = region.playCondition
        let group = condition?.group ?? 0
        forEachActive(onChannel: ch.index) { v in
            guard let offBy = v.note.offBy, offBy == group, !v.note.isReleaseTriggered,
                  v.note.group != group || v.note.key != key else { return }
            v.note.offBy = nil
            if let seconds = v.note.offTime {
                // sfizz's release falls e⁻⁹ in its time, SF2's 96 dB: stretched as the zones' are.
                let timecents = 1200 * Math.log2(Double(max(seconds, 0.001) * SFZZoneMapping.envelopeTimeStretch))
                v.quickRelease(context, timecents: Float(timecents))
            } else {
                v.release(context)
            }
        }
        guard let slot = start(region: region, sample: sample, loopPeak: samples.loopPeak(region.sampleIndex),
                               channel: ch, key: key, velocity: velocity, portamento: portamento, bus: bus,
                               context: context) else { return }
        guard let condition else { return }
        voices[slot].note.group = condition.group
        voices[slot].note.offBy = condition.offBy
        voices[slot].note.offTime = condition.offTime
        voices[slot].note.isReleaseTriggered = releaseTriggered
        if condition.ignoresNoteOff || releaseTriggered {
            voices[slot].note.ignoresNoteOff = true
            voices[slot].note.isKeyReleased = true
        }
    }
}
