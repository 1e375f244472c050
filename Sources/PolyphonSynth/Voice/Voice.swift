import PolyphonSoundFontCore

/// One sounding sample of one note: oscillator → gain ramp → low-pass filter → pan and effect
/// sends, steered by the SoundFont 2 rules.
///
/// A note-on finds the regions (preset zone + instrument zone) its key and velocity fall in,
/// and each starts a voice (``start(region:sample:loopPeak:channel:key:velocity:frame:serial:portamento:context:)``):
/// the region's generators plus its modulators evaluated against the channel give the voice's
/// parameters (``VoiceParameters.swift``), its envelopes, LFOs and oscillator start. From then
/// on ``render(count:into:events:scratch:context:)`` produces its signal chunk by chunk: a
/// control point every ``controlPeriod`` frames — counted from the voice's own start, so the
/// result never depends on how the caller slices render calls — brings the envelopes and LFOs
/// up to date and decides the period's pitch step, filter target and gain ramp
/// (``controlPoint(_:)``); the oscillator renders up to the next one. The filter runs next,
/// eight voices at a time, on the targets the control points left as events (``FilterBatch``),
/// and the voice renderer mixes the result (``VoiceRenderer``). A note-off moves both
/// envelopes to their release; the voice ends when its envelope does or it can no longer be
/// heard.
///
/// Three speed tricks change how, never what, a voice renders, each in its own file wrapping
/// this plain path: steady voices run through control points that would change nothing
/// (``SteadyVoice.swift``), the two halves of a stereo pair share one phase stream
/// (``StereoTwins.swift``), and voices whose filters have settled share filters
/// (``FilterRouter``).
///
/// A value type living in the synthesizer's preallocated voice pool: rendering touches it
/// through a pointer, so there is no reference counting or exclusivity checking per voice.
struct Voice {
    /// Frames between control points.
    static let controlPeriod = 64
    /// FluidSynth's noise floor: a voice whose output can no longer exceed this is dropped.
    static let noiseFloor: Float = 0.00003

    /// Which note the voice plays, and what holds it.
    struct Note {
        var channel = 0
        /// Output bus the voice mixes into (its channel, or the bus its note-on named).
        var bus = 0
        var key = 0
        var velocity = 0
        /// Absolute frame at which the voice started; voices started at the current frame are
        /// never stolen.
        var startFrame: Int64 = 0
        /// Monotonic start order, for "oldest" decisions.
        var serial: UInt64 = 0
        var exclusiveClass = 0
        /// Note-off received (the key is up).
        var isKeyReleased = false
        /// Held by the sustain pedal after its note-off.
        var isSustained = false
        /// Held by the sostenuto pedal (key was down when it was pressed).
        var isSostenutoHeld = false
        /// The frame a release held back by the minimum note length begins (0: none).
        var deferredReleaseFrame: Int64 = 0
        /// Play-time rules (``PlayCondition``): the voice plays to its end whatever note-off
        /// comes (a one-shot or a release-triggered voice).
        var ignoresNoteOff = false
        /// Started by a key coming up (a release trigger), not by a key going down.
        var isReleaseTriggered = false
        /// The region's polyphony group, and the group whose start stops the voice (nil: none).
        var group = 0
        var offBy: Int?
        /// Seconds of the release an `off_by` cut gives (nil: the voice's own release).
        var offTime: Float?
        /// Play-time rules: the region of its instrument the voice plays (voices of one region
        /// count as one against its polyphony), and the headers whose voice limits count it
        /// (−1: none).
        var region = -1
        var headers: SIMD3<Int32> = SIMD3(repeating: -1)
        /// The preset the voice's region belongs to (−1: not tracked; SF2 voices).
        var preset = -1
        /// The second voice of a stereo file's two: counted and stopped with the first.
        var isTwin = false
        /// Stopped by a polyphony group or a voice limit: fading out, no longer counted.
        var isStopped = false
        /// The pedal that holds the voice after its note-off.
        var sustainPedal = SustainPedal()
    }

    var isActive = false
    /// The voice plays an SFZ region's shaping (the state after ``membership``): checked before
    /// any of it is read.
    var isShaped = false
    var note = Note()

    // What to play: the region's generators and modulators, their modulation now, the sample.
    var generators = SIMD64<Float>(repeating: 0)
    var modulators: [Modulator] = []
    var modulation = SIMD64<Float>(repeating: 0)
    var sample = SampleInfo()
    var loopMode = 0
    var loopPeak: Float = 1
    var kernel = SampleKernel.cubic16

    // The sound's generators.
    var oscillator = Oscillator()
    var volumeEnvelope = VolumeEnvelope()
    var modulationEnvelope = ModulationEnvelope()
    var modulationLFO = LFO()
    var vibratoLFO = LFO()
    /// The voice's own filter (run in batches by ``FilterBatch``).
    var filter = LowPassFilter()
    var ramp = GainRamp()

    /// The parameters the SF2 rules derive from generators, modulators and the channel.
    var sound = VoiceParameters()
    /// Where the voice stands between control points, and what the last one computed.
    var control = ControlState()

    // What the speed tricks keep about the voice (each in its own file).
    /// The steady-voice shortcut's verdict (``SteadyVoice.swift``).
    var steadiness = Steadiness()
    /// Shared-filter membership (``FilterRouter``).
    var membership = SharedFilterMembership()

    // What an SFZ region's shaping (``VoiceShaping``) keeps while it plays: some 8 KB, last in
    // the voice and read only when ``isShaped``, so a SoundFont voice's control points and
    // oscillator runs touch none of its cache lines.
    /// Filters of other shapes and equaliser bands in its place, run by the voice itself
    /// (``ShapedFilterChain``).
    var shapedFilter = ShapedFilterChain()
    /// Envelopes of sfizz's shape on the pitch and that filter's cutoff (``ShapedEnvelopes``).
    var shapedEnvelopes = ShapedEnvelopes()
    /// LFOs of sfizz's on the volume, pitch and that filter's cutoff (``ShapedLFOs``).
    var shapedLFOs = ShapedLFOs()
    /// SFZ v2 LFOs and flex envelopes routed to the voice's targets (``RoutedModulation``).
    var routedModulation = RoutedModulation()
    /// The level's tracking, crossfades and stereo placement of SFZ regions (``ShapedAmplitude``).
    var shapedAmplitude = ShapedAmplitude()
    /// Controllers moving its volume, pan and pitch through curves, steps and smoothing, and a
    /// stepped or smoothed bend (``ShapedVoiceControllers``).
    var voiceControllers = ShapedVoiceControllers()

    // MARK: - Life cycle

    /// Starts the voice for a resolved region. `portamento` names the key to glide from
    /// (−1: none) and the glide's time in seconds; `noteSeed` numbers the note for the random
    /// draws of its shaping.
    mutating func start(region: Region, sample info: SampleInfo, loopPeak peak: Float, channel ch: Channel,
                        key k: Int, velocity vel: Int, frame: Int64, serial s: UInt64,
                        portamento: (fromKey: Int, time: Float), noteSeed: UInt64 = 0, context: RenderContext) {
        isActive = true
        note = Note(channel: ch.index, bus: note.bus, key: k, velocity: vel, startFrame: frame, serial: s)
        sample = info
        loopPeak = max(peak, 1e-9)
        kernel = SampleKernel(context.interpolation, has24BitPoints: info.low != nil)

        var gens = SIMD64<Float>(repeating: 0)
        for i in 0..<GeneratorType.slotCount { gens[i] = Float(region.generators.values[i]) }
        generators = gens
        modulators = region.modulators
        note.exclusiveClass = Int(clampedGenerator(.exclusiveClass, base: true))
        loopMode = Int(clampedGenerator(.sampleModes, base: true))
        // A SoundFont voice leaves the shaping state alone, unless a shaped voice left it set.
        // (Taken once: the region holds its shaping by reference, and each read copies it out.)
        let shaping = region.shaping
        if shaping != nil || isShaped {
            shapedFilter.start(shaping, channel: ch, key: k, velocity: vel, noteSeed: noteSeed,
                               outputRate: context.outputRate)
            shapedEnvelopes.start(shaping, velocity: vel, rate: context.outputRate)
            shapedLFOs.start(shaping, rate: context.outputRate)
            routedModulation.start(shaping, channel: ch, key: k, velocity: vel, rate: context.outputRate, seed: s)
            shapedAmplitude.start(shaping, key: k, velocity: vel, channel: ch, noteSeed: noteSeed)
            voiceControllers.start(shaping, channel: ch, key: k, velocity: vel, outputRate: context.outputRate)
            if routedModulation.isActive && routedModulation.movesPan { followStereoPlacement(ch) }
        }
        isShaped = shaping != nil
        sound.pansWithinChunk = isShaped && (routedModulation.movesPan || voiceControllers.smoothsPan)

        setUpOscillator()
        sound.keyPitch = keyPitch(on: ch)
        updateModulation(ch, context)
        updateParameters(ch, context)
        startEnvelopesAndLFOs(context)
        sound.startPortamento(from: portamento.fromKey, to: k, seconds: portamento.time, outputRate: context.outputRate,
                              tuning: ch.activeTuning)

        ramp = GainRamp()
        filter.reset()
        control = ControlState()
        // A note its shaping silences (outside a crossfade) ends before it plays.
        control.endsAfterPeriod = isShaped && !shapedAmplitude.isAudible
        steadiness = Steadiness()
        membership = SharedFilterMembership()
    }

    /// Stops the voice at once (no release), freeing it.
    mutating func kill() {
        isActive = false
        modulators = []
    }

    /// The key went up at frame `now`: release unless a pedal holds the note.
    mutating func noteOff(_ ch: Channel, now: Int64, _ context: RenderContext) {
        guard isActive, !note.isKeyReleased else { return }
        note.isKeyReleased = true
        if note.sustainPedal.holds(ch.controllers[Int(note.sustainPedal.controller)]) { note.isSustained = true; return }
        if note.isSostenutoHeld { return }
        release(now: now, context)
    }

    /// Releases at frame `now` — or, when the voice has played less than the minimum note
    /// length, at the frame it reaches it (``Note/deferredReleaseFrame``; the voice pool begins
    /// it then, ``VoicePool/beginDeferredReleases(_:)``).
    mutating func release(now: Int64, _ context: RenderContext) {
        guard isActive, !isReleased else { return }
        // Released before it sounded (an SFZ `delay`): it never will, as in sfizz.
        if note.startFrame > now { kill(); return }
        let due = note.startFrame + Int64(context.minimumNoteFrames)
        if now < due {
            note.isKeyReleased = true
            note.isSustained = false
            note.isSostenutoHeld = false
            note.deferredReleaseFrame = due
            return
        }
        release(context)
    }

    /// Enters the release stage of both envelopes now.
    mutating func release(_ context: RenderContext) {
        guard isActive else { return }
        note.deferredReleaseFrame = 0
        note.isKeyReleased = true
        note.isSustained = false
        note.isSostenutoHeld = false
        guard volumeEnvelope.stage != .release && volumeEnvelope.stage != .finished else { return }
        catchUp()
        updateReleaseTimes(context)
        volumeEnvelope.release()
        modulationEnvelope.release()
        if isShaped {
            if shapedEnvelopes.isActive { shapedEnvelopes.release() }
            if routedModulation.isActive { releaseRoutedModulation() }
        }
        if loopMode == 3 { oscillator.isLooping = false }
        restartControlPeriod()
    }

    /// Exclusive class cut: a very fast release (FluidSynth: −2000 tc; an SFZ `off_by` cut
    /// passes its own), never held back.
    mutating func quickRelease(_ context: RenderContext, timecents: Float = -2000) {
        guard isActive else { return }
        note.deferredReleaseFrame = 0
        generators[Int(GeneratorType.releaseVolEnv.rawValue)] = timecents
        generators[Int(GeneratorType.releaseModEnv.rawValue)] = timecents
        modulation[Int(GeneratorType.releaseVolEnv.rawValue)] = 0
        modulation[Int(GeneratorType.releaseModEnv.rawValue)] = 0
        note.isKeyReleased = true
        note.isSustained = false
        note.isSostenutoHeld = false
        catchUp()
        updateReleaseTimes(context)
        volumeEnvelope.release()
        modulationEnvelope.release()
        if isShaped {
            if shapedEnvelopes.isActive { shapedEnvelopes.release() }
            if routedModulation.isActive { routedModulation.release() }
        }
        restartControlPeriod()
    }

    /// A controller, pitch wheel, pressure or NRPN changed on the voice's channel.
    mutating func channelChanged(_ ch: Channel, _ context: RenderContext) {
        guard isActive else { return }
        if isShaped && voiceControllers.isActive {
            voiceControllers.channelChanged(ch, key: note.key, velocity: note.velocity,
                                            framesSincePoint: control.framesSinceUpdate)
        }
        updateModulation(ch, context)
        updateParameters(ch, context)
        if isShaped {
            if shapedAmplitude.dynamicEnvelope != nil { followDynamicEnvelope(ch, context) }
            if shapedFilter.isActive { shapedFilter.channelChanged(ch, key: note.key, velocity: note.velocity) }
            if routedModulation.isActive {
                routedModulation.channelChanged(ch)
                if routedModulation.movesPan {
                    followStereoPlacement(ch)
                    applyRoutedPan()
                }
            }
        }
        restartControlPeriod()
    }

    var isReleased: Bool { volumeEnvelope.stage == .release || volumeEnvelope.stage == .finished }

    /// Current output gain, for stealing decisions.
    var currentGain: Float { ramp.current }

    /// True when the voice's output goes through its low-pass filter.
    var isFiltered: Bool { sound.filterActive }

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
            if sound.filterActive { control.filterHeldFrames += elapsed }
            sound.advancePortamento(elapsed)
            if isShaped { advanceShaping(elapsed) }
        }
        modulationEnvelope.advance(control.modEnvPending + elapsed)
        control.modEnvPending = 0
        control.envelopeAheadIsValid = false
    }

    /// Ends the current control period early so a change is heard from this frame on.
    mutating func restartControlPeriod() {
        control.framesLeftInPeriod = 0
        control.envelopeAheadIsValid = false
    }

    /// True while nothing but time has passed since the last full control point (no event
    /// restarted the period): what it looked ahead to still holds.
    var lastControlPointHolds: Bool { control.envelopeAheadIsValid }

    // MARK: - Rendering

    /// Renders `count` frames of the voice's signal before its filter into `out` — the
    /// oscillator times the gain ramp, with a control point whenever a period is over — and
    /// records the filter's targets in `events`. `scratch` is the oscillator's working memory
    /// (``Oscillator/scratchPoints`` floats). Returns the frames produced: fewer than `count`
    /// when the voice ended, which frees it.
    mutating func render(count: Int, into out: UnsafeMutablePointer<Float>, events: inout FilterEvents,
                         scratch: UnsafeMutablePointer<Float>, context: RenderContext) -> Int {
        var done = 0
        while done < count && isActive {
            if control.framesLeftInPeriod == 0 {
                if control.endsAfterPeriod { kill(); break }
                let point = controlPoint(context)
                begin(point)
                record(point.filter, at: done, in: &events, context)
            }
            let n = min(count - done, control.framesLeftInPeriod)
            let produced = renderOscillator(n, into: out + done, scratch: scratch, context: context)
            if isShaped && shapedFilter.isActive { shapedFilter.process(out + done, count: produced) }
            done += produced
            if produced < n { kill(); break }
        }
        return done
    }

    /// `n` frames of the oscillator (at most the rest of the period) into `out`. Returns the
    /// frames produced: fewer when the sample ended.
    @inline(__always)
    mutating func renderOscillator(_ n: Int, into out: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
                                   context: RenderContext) -> Int {
        let produced = oscillator.render(kernel, sample: sample, tables: context.tables, scratch: scratch,
                                         out: out, count: n, ramp: &ramp)
        control.framesLeftInPeriod -= n
        control.framesSinceUpdate += n
        return produced
    }

    /// Control points (hence filter events) in one call of ``render(count:into:events:scratch:context:)``:
    /// one at the start and one per control period after it.
    static func maximumFilterEvents(frames: Int) -> Int { frames / controlPeriod + 2 }

    // MARK: - Control point

    /// A control point: brings the envelopes and LFOs to now and decides the period it starts —
    /// the pitch step, where the filter goes and the gain ramp — marking the voice to end after
    /// the period when it finishes there or can no longer be heard.
    @inline(__always)
    mutating func controlPoint(_ context: RenderContext) -> ControlPoint {
        let elapsed = control.framesSinceUpdate
        let continued = advanceToNow()
        let period = Voice.controlPeriod
        control.framesLeftInPeriod = period
        let (modLfo, modEnv, vibLfo) = modulatorsNow()
        // sfizz-shaped envelopes and LFOs where the period ends, like the SF2 modulators.
        let shaped = isShaped && shapedEnvelopes.isActive ? shapedEnvelopes.ahead(period) : (pitch: 0, cutoff: 0)
        let lfos = isShaped && shapedLFOs.isActive ? shapedLFOs.ahead(period) : (volume: 0, pitch: 0, cutoff: 0)
        let routed = isShaped && routedModulation.isActive ? routedPoint(period) : RoutedModulation.Output()
        let controlled = isShaped && voiceControllers.isActive ? controlledPoint(period) : (volume: 0, pan: 0, pitch: 0)
        let pitchStep = pitchStep(modLfo: modLfo, modEnv: modEnv, vibLfo: vibLfo,
                                  extraCents: shaped.pitch + lfos.pitch + routed.pitch + controlled.pitch,
                                  wholeCents: context.wholeCentPitch)
        if isShaped && shapedFilter.isActive {
            aimShapedFilter(modLfo: modLfo, modEnv: modEnv, extraCents: shaped.cutoff + lfos.cutoff + routed.cutoff,
                            extraResonance: routed.resonance, chain: routed.filterChain, context: context)
        }
        let filter = sound.filterActive
            ? filterTarget(modLfo: modLfo, modEnv: modEnv, elapsed: elapsed, context: context) : .off
        // Gain at the end of the period, reached by a linear ramp.
        let target = gainAtEndOfPeriod(continued: continued, extraDecibels: lfos.volume + routed.volume + controlled.volume,
                                       context: context) * routed.amplitude
        let now = ramp.current
        return ControlPoint(pitchStep: pitchStep, filter: filter, gainTarget: target,
                            gain: GainRamp(start: now, step: (target - now) / Float(period), index: 0))
    }

    /// Starts the period a control point decided: the oscillator's pitch and the gain ramp.
    @inline(__always)
    mutating func begin(_ point: ControlPoint) {
        if let step = point.pitchStep { oscillator.setIncrement(step) }
        ramp = point.gain
    }

    /// The filter's part of a control point as an event at frame `offset`: a new target to
    /// glide or snap to. Where denormals are not flushed by the hardware mode, a filter holding
    /// still flushes its state instead (see ``DenormalMode``); otherwise it leaves no event, so
    /// the filter batch's spans stay long.
    @inline(__always)
    func record(_ filter: FilterTarget, at offset: Int, in events: inout FilterEvents, _ context: RenderContext) {
        switch filter {
        case .glide(let to): events.append(.glide(to: to, frames: Int32(Voice.controlPeriod)), at: offset)
        case .snap(let to): events.append(.snap(to: to), at: offset)
        case .holds: if context.explicitFilterFlush { events.append(.flush, at: offset) }
        case .off: break
        }
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
        if isShaped { advanceShaping(elapsed) }
        return continued
    }

    /// Advances the shaped envelopes, LFOs and routed modulation by `elapsed` frames.
    @inline(__always)
    private mutating func advanceShaping(_ elapsed: Int) {
        if shapedEnvelopes.isActive { shapedEnvelopes.advance(elapsed) }
        if shapedLFOs.isActive { shapedLFOs.advance(elapsed) }
        if routedModulation.isActive { routedModulation.advance(elapsed) }
        if voiceControllers.isActive { voiceControllers.advance(elapsed) }
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

    /// The oscillator's step (sample points per frame) from the note's pitch, the glide, the
    /// LFOs and the modulation envelope as they are now; nil when it has not changed.
    ///
    /// The pitch is exact unless `wholeCents` asks for FluidSynth's: whole cents, rounded down
    /// (2.3 and 2.6 alike: its cents-to-hertz table drops the fraction of the note's absolute
    /// cents, whose sample root is whole). Matching it keeps every harmonic of a vibrato or a
    /// bent note on FluidSynth's frequencies; a tuning's fractions of a cent need the exact one.
    @inline(__always)
    private mutating func pitchStep(modLfo: Float, modEnv: Float, vibLfo: Float, extraCents: Float,
                                    wholeCents: Bool) -> Double? {
        let note = sound.pitchCents + sound.portamentoCents
        // `extraCents` (the shaped pitch envelope) is 0 for SF2 voices, which adding leaves exact.
        let modulation = modLfo * sound.modLfoToPitch + vibLfo * sound.vibLfoToPitch + modEnv * sound.modEnvToPitch
            + extraCents
        let base = wholeCents ? note.rounded(.down) : note
        let cents = wholeCents ? (note + modulation).rounded(.down) : note + modulation
        guard cents != control.lastPitchCents else { return nil }
        control.lastPitchCents = cents
        if base != control.lastBaseCents {
            control.lastBaseCents = base
            control.baseRatio = Double(Units.centsToRatio(base)) * sound.sampleRateRatio
        }
        // Vibrato and most modulation stay within a semitone: a short series for the
        // modulation on top of the note's own ratio is much cheaper than a full exp2.
        let step = cents - base
        return abs(step) <= 100
            ? control.baseRatio * Double(Units.exp2Small(step * (1.0 / 1200.0)))
            : Double(Units.centsToRatio(cents)) * sound.sampleRateRatio
    }

    /// Aims the shaped filter at its cutoff now — its own with the modulators aimed at
    /// `initialFilterFc`, the modulation LFO and envelope and `extraCents` — and its resonance with those
    /// aimed at `initialFilterQ` (centibels) and `extraResonance` dB.
    @inline(__always)
    private mutating func aimShapedFilter(modLfo: Float, modEnv: Float, extraCents: Float, extraResonance: Float,
                                          chain: SIMD16<Float>, context: RenderContext) {
        let cents = shapedFilter.baseCents + modulation[Int(GeneratorType.initialFilterFc.rawValue)]
            + modLfo * sound.modLfoToFilter + modEnv * sound.modEnvToFilter + extraCents
        let resonance = shapedFilter.baseResonance + modulation[Int(GeneratorType.initialFilterQ.rawValue)] / 10
            + extraResonance
        shapedFilter.aim(cents: cents, resonance: resonance, modulation: chain, outputRate: context.outputRate,
                         frames: Voice.controlPeriod)
    }

    /// The filter's cutoff now: a changed one glides over the period (the first one sets the
    /// filter at once).
    @inline(__always)
    private mutating func filterTarget(modLfo: Float, modEnv: Float, elapsed: Int, context: RenderContext) -> FilterTarget {
        let fc = laggedCutoff(sound.filterCutoffCents + modLfo * sound.modLfoToFilter + modEnv * sound.modEnvToFilter)
        control.filterHeldFrames += elapsed
        if fc != control.lastFilterCents || sound.filterQ != control.lastFilterQ || !filter.isPrimed {
            control.lastFilterCents = fc
            control.lastFilterQ = sound.filterQ
            let primed = filter.isPrimed
            if let target = filter.coefficients(cutoffCents: fc, qCentibels: sound.filterQ, table: context.cutoffTable) {
                control.filterTarget = target
                control.filterHeldFrames = 0
                return primed ? .glide(target) : .snap(target)
            }
        }
        return .holds(cutoffCents: fc)
    }

    /// The gain the ramp reaches at the end of the period: the volume envelope a period ahead
    /// times attenuation, soft pedal and LFO, and the shaped amplitude's controller gain. Marks
    /// the voice to end after the period when the envelope finishes there, or when past its
    /// attack neither end of the ramp can be heard (the controller gain aside: a controller
    /// crossfade may bring a silenced voice back, as in sfizz).
    @inline(__always)
    private mutating func gainAtEndOfPeriod(continued: Bool, extraDecibels: Float, context: RenderContext) -> Float {
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
        // `extraDecibels` (the shaped volume LFO) is 0 for SF2 voices, which subtracting leaves exact.
        let cb = sound.attenuation + sound.softPedalCentibels - lfoAtEnd * sound.modLfoToVolume - extraDecibels * 10
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
        // 1 for SF2 voices, which multiplying leaves exact.
        return isShaped ? target * shapedAmplitude.controllerGain : target
    }
}
