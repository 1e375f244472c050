/// Where a voice stands between control points, and what the last one computed (so the next
/// can skip what did not change).
struct ControlState {
    /// Frames until the next control point; 0: one is due.
    var framesLeftInPeriod = 0
    /// Frames rendered since the last control point.
    var framesSinceUpdate = 0
    /// The envelope finished or the voice fell below hearing: it ends at the next point.
    var endsAfterPeriod = false
    /// Frames not yet applied to modulators nobody currently reads (their state depends only on
    /// elapsed time, so catching up later gives the same value).
    var modEnvPending = 0
    var modLfoPending = 0
    var vibLfoPending = 0
    /// The volume envelope one full control period ahead, computed for the gain ramp's target:
    /// when the next control point comes exactly a period later with nothing changed in
    /// between, it is the envelope's new state (same arithmetic from the same state).
    var envelopeAhead = VolumeEnvelope()
    var envelopeAheadIsValid = false
    var lastPitchCents: Float = .nan
    /// The unmodulated pitch (cents) and its increment ratio, so vibrato only needs a short
    /// polynomial on top.
    var lastBaseCents: Float = .nan
    var baseRatio: Double = 1
    var lastFilterCents: Float = .nan
    var lastFilterQ: Float = .nan
    var lastCentibels: Float = .nan
    var lastTarget: Float = 0
    /// In a decay or release stage (``targetStepStage``) the level falls linearly in dB, so each
    /// full control period multiplies the gain by this same factor (0: not known).
    var targetStep: Float = 0
    var targetStepStage = VolumeEnvelope.Stage.finished
}

extension Voice {
    /// A control point: only counting time while the voice is steady (``SteadyVoice.swift``), a
    /// full update otherwise.
    @inline(__always)
    mutating func controlPoint(at offset: Int, events: UnsafeMutablePointer<FilterEvent>, eventCount: inout Int,
                               sharing: Bool, steady: Bool, context: RenderContext) {
        if steady && holdsSteady(sharing: sharing) {
            passSteadyPoint(elapsed: control.framesSinceUpdate)
            addSteadyFlushes(at: offset, count: 1, events: events, eventCount: &eventCount, context: context)
        } else {
            controlUpdate(at: offset, events: events, eventCount: &eventCount, sharing: sharing, context: context)
        }
    }

    /// Brings envelopes and LFOs to "now", then sets the pitch, the filter's target (an event in
    /// `events`) and the gain ramp for the next period.
    mutating func controlUpdate(at offset: Int, events: UnsafeMutablePointer<FilterEvent>, eventCount: inout Int,
                                sharing: Bool, context: RenderContext) {
        let elapsed = control.framesSinceUpdate
        let continued = advanceToNow()
        let period = Voice.controlPeriod
        control.framesLeftInPeriod = period
        let (modLfo, modEnv, vibLfo) = modulatorsNow()
        updatePitch(modLfo: modLfo, modEnv: modEnv, vibLfo: vibLfo, wholeCents: context.wholeCentPitch)
        var filterChanged = false
        if sound.filterActive {
            filterChanged = updateFilter(at: offset, modLfo: modLfo, modEnv: modEnv, elapsed: elapsed, events: events,
                                         eventCount: &eventCount, sharing: sharing, context: context)
        }

        // Gain at the end of the period, reached by a linear ramp.
        let target = gainAtEndOfPeriod(continued: continued, context: context)
        let now = ramp.current
        ramp = GainRamp(start: now, step: (target - now) / Float(period), index: 0)

        judgeSteadiness(target: target, now: now, filterChanged: filterChanged, sharing: sharing, context: context)
    }

    /// Advances the volume envelope and the glide by the frames since the last point (the
    /// other modulators lazily). Returns true when this point ends a whole period begun at the
    /// previous one, with the envelope taken from ``ControlState/envelopeAhead``.
    @inline(__always)
    private mutating func advanceToNow() -> Bool {
        let elapsed = control.framesSinceUpdate
        control.framesSinceUpdate = 0
        guard elapsed > 0 else { return false }
        var continued = false
        if control.envelopeAheadIsValid && elapsed == Voice.controlPeriod {
            volumeEnvelope = control.envelopeAhead
            continued = true
        } else {
            volumeEnvelope.advance(elapsed)
        }
        control.modEnvPending += elapsed
        control.modLfoPending += elapsed
        control.vibLfoPending += elapsed
        sound.advancePortamento(elapsed)
        return continued
    }

    /// The modulation LFO, modulation envelope and vibrato LFO where the coming period ends —
    /// each brought up to date only if something reads it (0 otherwise). The period's pitch and
    /// the cutoff its filter glides to follow them, so read at the period's start they would lag
    /// it by a whole period (a resonant filter opened by a 1 ms envelope rang). FluidSynth, too,
    /// steps its envelopes and LFOs before each block it renders.
    @inline(__always)
    private mutating func modulatorsNow() -> (modLfo: Float, modEnv: Float, vibLfo: Float) {
        var modLfo: Float = 0, modEnv: Float = 0, vibLfo: Float = 0
        let period = Voice.controlPeriod
        if sound.usesModulationLFO {
            modulationLFO.advance(control.modLfoPending)
            control.modLfoPending = 0
            var ahead = modulationLFO
            ahead.advance(period)
            modLfo = ahead.value
        }
        if sound.usesModulationEnvelope {
            modulationEnvelope.advance(control.modEnvPending)
            control.modEnvPending = 0
            var ahead = modulationEnvelope
            ahead.advance(period)
            modEnv = ahead.value
        }
        if sound.vibLfoToPitch != 0 {
            vibratoLFO.advance(control.vibLfoPending)
            control.vibLfoPending = 0
            var ahead = vibratoLFO
            ahead.advance(period)
            vibLfo = ahead.value
        }
        return (modLfo, modEnv, vibLfo)
    }

    /// The oscillator's increment from the note's pitch, the glide, the LFOs and the modulation
    /// envelope as they are now.
    ///
    /// The pitch is exact unless `wholeCents` asks for FluidSynth's: whole cents, rounded down
    /// (2.3 and 2.6 alike: its cents-to-hertz table drops the fraction of the note's absolute
    /// cents, whose sample root is whole). Matching it keeps every harmonic of a vibrato or a
    /// bent note on FluidSynth's frequencies; a tuning's fractions of a cent need the exact one.
    @inline(__always)
    private mutating func updatePitch(modLfo: Float, modEnv: Float, vibLfo: Float, wholeCents: Bool) {
        let note = sound.pitchCents + sound.portamentoCents
        let modulation = modLfo * sound.modLfoToPitch + vibLfo * sound.vibLfoToPitch + modEnv * sound.modEnvToPitch
        let base = wholeCents ? note.rounded(.down) : note
        let cents = wholeCents ? (note + modulation).rounded(.down) : note + modulation
        guard cents != control.lastPitchCents else { return }
        control.lastPitchCents = cents
        if base != control.lastBaseCents {
            control.lastBaseCents = base
            control.baseRatio = Double(Units.centsToRatio(base)) * sound.sampleRateRatio
        }
        // Vibrato and most modulation stay within a semitone: a short series for the
        // modulation on top of the note's own ratio is much cheaper than a full exp2.
        let step = cents - base
        let ratio = abs(step) <= 100
            ? control.baseRatio * Double(Units.exp2Small(step * (1.0 / 1200.0)))
            : Double(Units.centsToRatio(cents)) * sound.sampleRateRatio
        oscillator.setIncrement(ratio)
    }

    /// The filter's cutoff now: a changed one glides over the period (the first one sets the
    /// filter at once). Where denormals are not flushed by the hardware mode, every control
    /// point also flushes the filter's state (see ``DenormalMode``); otherwise a point with
    /// nothing to change leaves no event, so the filter batch's spans stay long. A settled
    /// filter may ask to join a shared one instead (``FilterSharing.swift``). Returns whether
    /// the filter changes (an event other than a flush).
    @inline(__always)
    private mutating func updateFilter(at offset: Int, modLfo: Float, modEnv: Float, elapsed: Int,
                                       events: UnsafeMutablePointer<FilterEvent>, eventCount: inout Int,
                                       sharing: Bool, context: RenderContext) -> Bool {
        var change = FilterEvent.Change.flush
        let fc = laggedCutoff(sound.filterCutoffCents + modLfo * sound.modLfoToFilter + modEnv * sound.modEnvToFilter)
        membership.quietFrames += elapsed
        if fc != control.lastFilterCents || sound.filterQ != control.lastFilterQ || !filter.isPrimed {
            control.lastFilterCents = fc
            control.lastFilterQ = sound.filterQ
            let primed = filter.isPrimed
            if let target = filter.coefficients(cutoffCents: fc, qCentibels: sound.filterQ, table: context.cutoffTable) {
                change = primed ? .glide(to: target, frames: Int32(Voice.controlPeriod)) : .snap(to: target)
                membership.filterMoved(to: target)
            }
        }
        if case .flush = change, sharing, asksToJoin(cutoffCents: fc, context: context) {
            change = .join(membership.target, slot: -1)
        }
        if case .flush = change {
            if context.explicitFilterFlush { events[eventCount] = FilterEvent(.flush, at: offset); eventCount += 1 }
            return false
        }
        events[eventCount] = FilterEvent(change, at: offset)
        eventCount += 1
        return true
    }

    /// The gain the ramp reaches at the end of the period: the volume envelope a period ahead
    /// times attenuation, soft pedal and LFO. Marks the voice to end after the period when the
    /// envelope finishes there, or when past its attack neither end of the ramp can be heard.
    @inline(__always)
    private mutating func gainAtEndOfPeriod(continued: Bool, context: RenderContext) -> Float {
        let period = Voice.controlPeriod
        var env = volumeEnvelope
        env.advance(period)
        control.envelopeAhead = env
        control.envelopeAheadIsValid = true
        var lfoAtEnd: Float = 0
        if sound.modLfoToVolume != 0 {
            var lfo = modulationLFO
            lfo.advance(period)
            lfoAtEnd = lfo.value
        }
        if env.stage == .finished {
            control.endsAfterPeriod = true
            return 0
        }
        let cb = sound.attenuation + sound.softPedalCentibels - lfoAtEnd * sound.modLfoToVolume
        let target: Float
        if env.stage == .sustain && volumeEnvelope.stage == .sustain && cb == control.lastCentibels {
            target = control.lastTarget  // a held note at a steady level: nothing to recompute
        } else if continued && control.targetStep > 0 && cb == control.lastCentibels
                    && volumeEnvelope.stage == control.targetStepStage && env.stage == control.targetStepStage {
            // A whole period inside the same decay or release: one multiply instead of an
            // exponential (the rounding this accumulates stays below 0.001 dB per second).
            target = control.lastTarget * control.targetStep
            control.lastTarget = target
        } else {
            target = env.amplitude(extraCentibels: cb) * context.outputGain
            control.lastTarget = target
            switch env.stage {
            case .sustain:
                control.lastCentibels = cb
            case .decay, .release:
                control.lastCentibels = cb
                control.targetStep = Units.centibelsToAmplitude(960 * env.levelFallPerFrame * Float(period))
                control.targetStepStage = env.stage
            default:
                control.lastCentibels = .nan
            }
        }
        if env.isLogarithmic {
            // Past the attack the level only falls (or holds): drop the voice once neither end
            // of this ramp can be heard.
            let peak = oscillator.hasLooped || (oscillator.isLooping && oscillator.position >= oscillator.loopStart)
                ? loopPeak : 1
            if max(target, ramp.current) * peak < Voice.noiseFloor
                && (env.stage != .sustain || env.sustainLevel <= 0 || note.isKeyReleased) {
                control.endsAfterPeriod = true
            }
        }
        return target
    }

    /// Brings the envelopes to this frame before a note-off switches them to their release:
    /// otherwise the next control point would advance the release by the frames since the
    /// last point, which were spent before the note-off, and the release would start up to
    /// a control period early. The modulation envelope is brought up to date even when nothing
    /// reads it, so its release starts from where it really is.
    mutating func catchUp() {
        let elapsed = control.framesSinceUpdate
        control.framesSinceUpdate = 0
        if elapsed > 0 {
            volumeEnvelope.advance(elapsed)
            control.modLfoPending += elapsed
            control.vibLfoPending += elapsed
            if sound.filterActive { membership.quietFrames += elapsed }
            sound.advancePortamento(elapsed)
        }
        modulationEnvelope.advance(control.modEnvPending + elapsed)
        control.modEnvPending = 0
        control.envelopeAheadIsValid = false
    }

    /// Ends the current control period early so a change is heard from this frame on.
    mutating func restartControlPeriod() {
        control.framesLeftInPeriod = 0
        control.envelopeAheadIsValid = false
        steadiness.isSteady = false
    }
}
