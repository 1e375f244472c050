import PolyphonSoundFontCore

/// What the SoundFont 2 rules make of a voice's generators, modulators and channel: the values
/// control points work from. Recomputed at the start and whenever the channel changes.
struct VoiceParameters {
    /// Total attenuation in centibels (0…1440), generator part scaled by FluidSynth's 0.4.
    var attenuation: Float = 0
    /// Pitch offset from the sample's own pitch in cents (key, root, tuning, modulators, RPNs).
    var pitchCents: Float = 0
    /// The key's pitch under the tuning the note started in (or was last retuned to).
    var keyPitch = KeyPitch()
    /// Sample rate over output rate.
    var sampleRateRatio: Double = 1
    var filterCutoffCents: Float = 13500
    var filterQ: Float = 0
    /// Control periods the cutoff takes to follow its modulators: 1 unless FluidSynth's block
    /// timing asks for its lag (``FluidSynthBlockTiming/cutoffLag(qCentibels:)``).
    var filterCutoffLag: Float = 1
    /// The filter runs: a cutoff below fully open, some resonance, or something moving it.
    var filterActive = false
    var panLeft: Float = 0.7071
    var panRight: Float = 0.7071
    /// The pan moves within a chunk (an SFZ pan LFO or envelope): the mix ramps the gains from
    /// ``panFrom``, those of the chunk before, to the ones above (``MixTarget/addPanning``).
    var pansWithinChunk = false
    var panFrom = SIMD2<Float>(0.7071, 0.7071)
    var reverbSend: Float = 0
    var chorusSend: Float = 0
    var modLfoToPitch: Float = 0
    var vibLfoToPitch: Float = 0
    var modEnvToPitch: Float = 0
    var modLfoToFilter: Float = 0
    var modEnvToFilter: Float = 0
    var modLfoToVolume: Float = 0
    /// The soft pedal's extra attenuation.
    var softPedalCentibels: Float = 0
    /// Portamento: the pitch still to glide (cents, reaching 0) and its step per frame.
    var portamentoCents: Float = 0
    var portamentoStep: Float = 0

    var usesModulationLFO: Bool { modLfoToPitch != 0 || modLfoToFilter != 0 || modLfoToVolume != 0 }
    var usesModulationEnvelope: Bool { modEnvToPitch != 0 || modEnvToFilter != 0 }

    /// Starts a glide from `fromKey` (≥ 0) to `key` over `seconds`, or none; under a tuning the
    /// glide spans the two keys' tuned pitches.
    mutating func startPortamento(from fromKey: Int, to key: Int, seconds: Float, outputRate: Double,
                                  tuning: TuningTable? = nil) {
        if fromKey >= 0 && seconds > 0 && fromKey != key {
            portamentoCents = Float(fromKey - key) * 100
            if let tuning { portamentoCents += tuning.deviation(ofKey: fromKey) - tuning.deviation(ofKey: key) }
            portamentoStep = -portamentoCents / max(1, Float(seconds) * Float(outputRate))
        } else {
            portamentoCents = 0
            portamentoStep = 0
        }
    }

    /// Moves the glide on by `elapsed` frames.
    mutating func advancePortamento(_ elapsed: Int) {
        guard portamentoStep != 0 else { return }
        portamentoCents += portamentoStep * Float(elapsed)
        if (portamentoStep < 0 && portamentoCents <= 0) || (portamentoStep > 0 && portamentoCents >= 0) {
            portamentoCents = 0
            portamentoStep = 0
        }
    }
}

extension Voice {
    /// The oscillator over the sample, its addresses moved by the offset generators and clamped
    /// into the sample's own span, as FluidSynth does.
    mutating func setUpOscillator() {
        func gen(_ t: GeneratorType) -> Int { Int(generators[Int(t.rawValue)]) }
        var start = sample.start + gen(.startAddrsOffset) + 32768 * gen(.startAddrsCoarseOffset)
        var end = sample.end + gen(.endAddrsOffset) + 32768 * gen(.endAddrsCoarseOffset)
        var loopStart = sample.loopStart + gen(.startloopAddrsOffset) + 32768 * gen(.startloopAddrsCoarseOffset)
        var loopEnd = sample.loopEnd + gen(.endloopAddrsOffset) + 32768 * gen(.endloopAddrsCoarseOffset)
        let lo = sample.start, hi = sample.end
        start = min(max(start, lo), hi)
        end = min(max(end, start), hi)
        loopStart = min(max(loopStart, start), end)
        loopEnd = min(max(loopEnd, loopStart), end)
        var osc = Oscillator()
        osc.start = start
        osc.end = end
        osc.loopStart = loopStart
        osc.loopEnd = loopEnd
        osc.phase = UInt64(start) << 32
        // Loops shorter than 2 points cannot be played; treat them as no loop.
        osc.isLooping = (loopMode == 1 || loopMode == 3) && loopEnd - loopStart >= 2
        osc.hasLooped = false
        osc.isFinished = end <= start
        oscillator = osc
    }

    /// The generator's base value (region only) or total (region + modulators + NRPN), clamped.
    func clampedGenerator(_ t: GeneratorType, base: Bool = false) -> Float {
        let i = Int(t.rawValue)
        let v = base ? generators[i] : generators[i] + modulation[i]
        let r = t.range
        return min(max(v, Float(r.lowerBound)), Float(r.upperBound))
    }

    /// Evaluates the modulators against the channel, plus the channel's NRPN offsets.
    mutating func updateModulation(_ ch: Channel, _ context: RenderContext) {
        let ctx = ModulatorEvaluation.Context(channel: ch, key: effectiveKey, velocity: effectiveVelocity)
        modulation = ModulatorEvaluation.sum(modulators, context: ctx, velocityToFilter: context.velocityToFilter)
            + ch.generatorOffsets
    }

    /// The key the SF2 rules use: the keynum generator when set, else the note's.
    var effectiveKey: Int {
        let k = Int(generators[Int(GeneratorType.keynum.rawValue)])
        return k >= 0 && k <= 127 ? k : note.key
    }

    /// The key the sample sounds at its own pitch: the overridingRootKey generator when set,
    /// else the sample's original pitch.
    var rootKey: Int {
        let o = Int(generators[Int(GeneratorType.overridingRootKey.rawValue)])
        return o >= 0 && o <= 127 ? o : sample.originalPitch
    }

    var effectiveVelocity: Int {
        let v = Int(generators[Int(GeneratorType.velocity.rawValue)])
        return v >= 0 && v <= 127 ? v : note.velocity
    }

    /// Generator plus modulation, clamped to the generator's range.
    @inline(__always)
    func total(_ t: GeneratorType) -> Float {
        let i = Int(t.rawValue)
        let r = t.range
        return min(max(generators[i] + modulation[i], Float(r.lowerBound)), Float(r.upperBound))
    }

    /// Derives the parameters control points use: attenuation, pitch, filter, pan, sends, and
    /// how much the LFOs and modulation envelope move pitch, cutoff and volume.
    mutating func updateParameters(_ ch: Channel, _ context: RenderContext) {
        let att = Int(GeneratorType.initialAttenuation.rawValue)
        // FluidSynth's EMU factor: only the generator part is scaled by 0.4. A shaped amplitude
        // (SFZ) may be louder than 0 dB, and adds the note's part.
        if isShaped && shapedAmplitude.isActive {
            shapedAmplitude.update(ch)
            sound.attenuation = min(max(0.4 * generators[att] + modulation[att], -1440), 1440)
                + shapedAmplitude.noteCentibels
        } else {
            sound.attenuation = min(max(0.4 * generators[att] + modulation[att], 0), 1440)
        }
        sound.softPedalCentibels = ch.soft ? 30 : 0

        let root = rootKey
        let scale = total(.scaleTuning)
        sound.pitchCents = sound.keyPitch.cents(scaleTuning: scale, key: effectiveKey, root: root)
            + 100 * total(.coarseTune) + total(.fineTune)
            + Float(sample.pitchCorrection) + modulation[Int(Modulator.initialPitchDestination)]
            + 100 * ch.coarseTuning + ch.fineTuning
        sound.sampleRateRatio = sample.sampleRate / context.outputRate

        sound.filterCutoffCents = total(.initialFilterFc)
        sound.filterQ = total(.initialFilterQ)
        sound.filterCutoffLag = context.fluidSynthBlockTiming ? FluidSynthBlockTiming.cutoffLag(qCentibels: sound.filterQ) : 1
        sound.modLfoToPitch = total(.modLfoToPitch)
        sound.vibLfoToPitch = total(.vibLfoToPitch)
        sound.modEnvToPitch = total(.modEnvToPitch)
        sound.modLfoToFilter = total(.modLfoToFilterFc)
        sound.modEnvToFilter = total(.modEnvToFilterFc)
        sound.modLfoToVolume = total(.modLfoToVolume)
        if ch.soft { sound.filterCutoffCents = max(1500, sound.filterCutoffCents - 600) }
        let wasActive = sound.filterActive
        // A shaped filter plays in place of the SF2 low-pass.
        sound.filterActive = !(isShaped && shapedFilter.isActive) && (sound.filterCutoffCents < 13500 || sound.filterQ > 0
            || sound.modLfoToFilter != 0 || sound.modEnvToFilter != 0)
        if sound.filterActive && !wasActive { filter.reset() }

        // An SFZ voice's pan controllers (``ShapedVoiceControllers``) add theirs, 0 for SF2.
        let controlledPan = isShaped ? voiceControllers.panPermille : 0
        let shapedPan = isShaped
            ? shapedAmplitude.stereoGains(panModulation: modulation[Int(GeneratorType.pan.rawValue)] + controlledPan, ch)
            : nil
        let pan = shapedPan ?? Units.panGains(total(.pan) + controlledPan)
        sound.panLeft = pan.left
        sound.panRight = pan.right
        sound.reverbSend = total(.reverbEffectsSend) / 1000
        sound.chorusSend = total(.chorusEffectsSend) / 1000
    }

    /// A time generator in seconds, with its key scaling (timecents per key from 60).
    @inline(__always)
    func seconds(_ t: GeneratorType, keyScale: GeneratorType? = nil, allowZero: Bool = false) -> Double {
        let i = Int(t.rawValue)
        var tc = generators[i] + modulation[i]
        if allowZero && tc <= -32768 { return 0 }
        if let ks = keyScale {
            tc += total(ks) * Float(60 - effectiveKey)
        }
        let r = t.range
        tc = min(max(tc, Float(r.lowerBound)), Float(r.upperBound))
        return Double(Units.timecentsToSeconds(tc))
    }

    /// Starts both envelopes and both LFOs from the generators; the volume envelope's delay
    /// and attack begin at `startLevel` (SFZ `ampeg_start`; 0 for SF2).
    mutating func startEnvelopesAndLFOs(_ context: RenderContext, startLevel: Float = 0) {
        let rate = context.outputRate
        let volume = volumeStageFrames(context)
        var modulation = StageFrames(delay: seconds(.delayModEnv, allowZero: true) * rate,
                                     attack: seconds(.attackModEnv, allowZero: true) * rate,
                                     hold: seconds(.holdModEnv, keyScale: .keynumToModEnvHold, allowZero: true) * rate,
                                     decay: seconds(.decayModEnv, keyScale: .keynumToModEnvDecay) * rate,
                                     release: releaseSeconds(volume: false) * rate)
        var modLfoDelay = seconds(.delayModLFO) * rate, vibLfoDelay = seconds(.delayVibLFO) * rate
        if context.fluidSynthBlockTiming {
            modulation = FluidSynthBlockTiming.stages(modulation)
            modLfoDelay = FluidSynthBlockTiming.lfoDelay(modLfoDelay)
            vibLfoDelay = FluidSynthBlockTiming.lfoDelay(vibLfoDelay)
        }
        volumeEnvelope.start(delay: volume.delay, attack: volume.attack, hold: volume.hold, decay: volume.decay,
                             sustainCentibels: total(.sustainVolEnv), release: volume.release, startLevel: startLevel)
        modulationEnvelope.start(delay: modulation.delay, attack: modulation.attack, hold: modulation.hold,
                                 decay: modulation.decay, sustainPermille: total(.sustainModEnv),
                                 release: modulation.release)
        modulationLFO.start(delayFrames: modLfoDelay,
                            frequency: Double(Units.absoluteCentsToHertz(total(.freqModLFO))),
                            sampleRate: rate)
        vibratoLFO.start(delayFrames: vibLfoDelay,
                         frequency: Double(Units.absoluteCentsToHertz(total(.freqVibLFO))),
                         sampleRate: rate)
    }

    /// The volume envelope's stage times in frames, from the generators.
    func volumeStageFrames(_ context: RenderContext) -> StageFrames {
        let rate = context.outputRate
        let volume = StageFrames(delay: seconds(.delayVolEnv, allowZero: true) * rate,
                                 attack: seconds(.attackVolEnv, allowZero: true) * rate,
                                 hold: seconds(.holdVolEnv, keyScale: .keynumToVolEnvHold, allowZero: true) * rate,
                                 decay: seconds(.decayVolEnv, keyScale: .keynumToVolEnvDecay) * rate,
                                 release: releaseSeconds(volume: true) * rate)
        return context.fluidSynthBlockTiming ? FluidSynthBlockTiming.stages(volume) : volume
    }

    /// FluidSynth never lets a volume release be shorter than −7200 tc (≈16 ms), to avoid clicks.
    @inline(__always)
    func releaseSeconds(volume: Bool) -> Double {
        let t: GeneratorType = volume ? .releaseVolEnv : .releaseModEnv
        let i = Int(t.rawValue)
        var tc = generators[i] + modulation[i]
        if volume { tc = max(tc, -7200) } else if tc <= -32768 { return 0 }
        tc = min(max(tc, -12000), 8000)
        return Double(Units.timecentsToSeconds(tc))
    }

    mutating func updateReleaseTimes(_ context: RenderContext) {
        var volume = releaseSeconds(volume: true) * context.outputRate
        var modulation = releaseSeconds(volume: false) * context.outputRate
        if context.fluidSynthBlockTiming {
            volume = FluidSynthBlockTiming.release(volume)
            modulation = FluidSynthBlockTiming.release(modulation)
        }
        volumeEnvelope.setRelease(frames: volume)
        control.targetStep = 0  // the release's fall per period may have changed
        modulationEnvelope.setRelease(frames: modulation)
    }
}
