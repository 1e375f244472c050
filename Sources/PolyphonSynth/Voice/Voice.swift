import PolyphonSoundFontCore

/// One sounding sample of one note: oscillator → gain ramp → low-pass filter → pan and effect
/// sends, steered by the SoundFont 2 rules.
///
/// A note-on finds the regions (preset zone + instrument zone) its key and velocity fall in,
/// and each starts a voice (``start(region:sample:loopPeak:channel:key:velocity:frame:serial:portamento:context:)``):
/// the region's generators plus its modulators evaluated against the channel give the voice's
/// parameters (``VoiceParameters.swift``), its envelopes, LFOs and oscillator start, and from then
/// on ``renderSource`` produces its dry signal chunk by chunk. Control values — envelopes,
/// LFOs, pitch, cutoff, gain — are worked out at control points every ``controlPeriod`` frames,
/// counted from the voice's own start so the result never depends on how the caller slices
/// render calls (``ControlPoint.swift``); the gain moves by a per-frame ramp between them. The
/// voice renderer then filters the signal, eight voices at a time, and mixes it
/// (``VoiceRenderer``).
///
/// Three speed tricks change how, never what, a voice renders, each in its own file: steady
/// voices run through control points that would change nothing (``SteadyVoice.swift``), the two
/// halves of a stereo pair share one phase stream (``StereoTwins.swift``), and voices whose
/// filters have settled share filters (``FilterSharing.swift``, ``SharedFilters``).
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
    }

    var isActive = false
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
    /// The steady-voice shortcut's verdict (``SteadyVoice.swift``).
    var steadiness = Steadiness()
    /// Shared-filter membership (``FilterSharing.swift``).
    var membership = SharedFilterMembership()

    // MARK: - Life cycle

    /// Starts the voice for a resolved region. `portamento` names the key to glide from
    /// (−1: none) and the glide's time in seconds.
    mutating func start(region: Region, sample info: SampleInfo, loopPeak peak: Float, channel ch: Channel,
                        key k: Int, velocity vel: Int, frame: Int64, serial s: UInt64,
                        portamento: (fromKey: Int, time: Float), context: RenderContext) {
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
        if ch.sustain { note.isSustained = true; return }
        if note.isSostenutoHeld { return }
        release(now: now, context)
    }

    /// Releases at frame `now` — or, when the voice has played less than the minimum note
    /// length, at the frame it reaches it (``Note/deferredReleaseFrame``; the voice pool begins
    /// it then, ``VoicePool/beginDeferredReleases(_:_:)``).
    mutating func release(now: Int64, _ context: RenderContext) {
        guard isActive, !isReleased else { return }
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
        if loopMode == 3 { oscillator.isLooping = false }
        restartControlPeriod()
    }

    /// Exclusive class cut: a very fast release (FluidSynth: −2000 tc), never held back.
    mutating func quickRelease(_ context: RenderContext) {
        guard isActive else { return }
        note.deferredReleaseFrame = 0
        generators[Int(GeneratorType.releaseVolEnv.rawValue)] = -2000
        generators[Int(GeneratorType.releaseModEnv.rawValue)] = -2000
        modulation[Int(GeneratorType.releaseVolEnv.rawValue)] = 0
        modulation[Int(GeneratorType.releaseModEnv.rawValue)] = 0
        note.isKeyReleased = true
        note.isSustained = false
        note.isSostenutoHeld = false
        catchUp()
        updateReleaseTimes(context)
        volumeEnvelope.release()
        modulationEnvelope.release()
        restartControlPeriod()
    }

    /// A controller, pitch wheel, pressure or NRPN changed on the voice's channel.
    mutating func channelChanged(_ ch: Channel, _ context: RenderContext) {
        guard isActive else { return }
        updateModulation(ch, context)
        updateParameters(ch, context)
        restartControlPeriod()
    }

    var isReleased: Bool { volumeEnvelope.stage == .release || volumeEnvelope.stage == .finished }

    /// Current output gain, for stealing decisions.
    var currentGain: Float { ramp.current }

    /// True when the voice's output goes through its low-pass filter.
    var isFiltered: Bool { sound.filterActive }

    // MARK: - Rendering

    /// Renders the voice's dry signal for `count` frames into `out` (oscillator and gain; the
    /// filter and mixing come after, in ``VoiceRenderer``), and records the filter's control
    /// points in `events` (room for ``maximumFilterEvents(frames:)``). `scratch` is the
    /// oscillator's working memory (``Oscillator/scratchPoints`` floats). Returns the frames
    /// produced: fewer than `count` when the voice ended, which frees it.
    ///
    /// `sharing` lets a settled filter ask to join a shared one; `steady` lets a steady voice run
    /// through control points that would change nothing (same bits either way).
    @inline(__always)
    mutating func renderSource(count: Int, into out: UnsafeMutablePointer<Float>,
                               events: UnsafeMutablePointer<FilterEvent>, eventCount: inout Int,
                               scratch: UnsafeMutablePointer<Float>, sharing: Bool, steady: Bool,
                               context: RenderContext) -> Int {
        eventCount = 0
        membership.beginChunk()
        return continueSource(from: 0, count: count, into: out, events: events, eventCount: &eventCount,
                              scratch: scratch, sharing: sharing, steady: steady, context: context)
    }

    /// ``renderSource`` from frame `start` of the call on, adding to the events already made:
    /// a control point whenever a period is over, then the oscillator up to the next one.
    @inline(__always)
    mutating func continueSource(from start: Int, count: Int, into out: UnsafeMutablePointer<Float>,
                                 events: UnsafeMutablePointer<FilterEvent>, eventCount: inout Int,
                                 scratch: UnsafeMutablePointer<Float>, sharing: Bool, steady: Bool,
                                 context: RenderContext) -> Int {
        var done = start
        while done < count && isActive {
            if control.framesLeftInPeriod == 0 {
                if control.endsAfterPeriod { kill(); break }
                controlPoint(at: done, events: events, eventCount: &eventCount, sharing: sharing, steady: steady,
                             context: context)
            }
            let (n, skipped) = runLength(upTo: count - done, sharing: sharing, steady: steady)
            addSteadyFlushes(at: done + control.framesLeftInPeriod, count: skipped, events: events,
                             eventCount: &eventCount, context: context)
            let produced = oscillator.render(kernel, sample: sample, tables: context.tables, scratch: scratch,
                                             out: out + done, count: n, ramp: &ramp)
            ranOn(n, skipping: skipped)
            done += produced
            if produced < n { kill(); break }
        }
        return done
    }

    /// Control points (hence filter events) in one call of ``renderSource``: one at the start and
    /// one per control period after it.
    static func maximumFilterEvents(frames: Int) -> Int { frames / controlPeriod + 2 }

    // MARK: - Mixing

    /// Adds `n` frames of the voice's (filtered) signal into the buses, panned and sent.
    @inline(__always)
    func mix(_ s: UnsafeMutablePointer<Float>, _ n: Int, _ t: MixTarget) {
        let l = t.left, r = t.right
        let pl = sound.panLeft, pr = sound.panRight
        for i in 0..<n {
            let v = s[i]
            l[i] += v * pl
            r[i] += v * pr
        }
        mixSends(s, n, t)
    }

    /// The constant-power pan gains the dry signal is mixed with.
    var panGains: SIMD2<Float> { SIMD2(sound.panLeft, sound.panRight) }

    /// Left, right, reverb and chorus gains, for a voice mixed into a shared filter (a send is
    /// 0 when `target` does not take it, as ``mixSends(_:_:_:)`` skips it).
    func busGains(_ target: MixTarget) -> SIMD4<Float> {
        SIMD4(sound.panLeft, sound.panRight, target.reverb != nil && sound.reverbSend > 0 ? sound.reverbSend : 0,
              target.chorus != nil && sound.chorusSend > 0 ? sound.chorusSend : 0)
    }

    /// Adds `n` frames of the voice's signal into the effect sends alone (its filter batch
    /// mixed the dry signal).
    @inline(__always)
    func mixSends(_ s: UnsafeMutablePointer<Float>, _ n: Int, _ t: MixTarget) {
        if sound.reverbSend > 0, let bus = t.reverb {
            let b = bus, k = sound.reverbSend
            for i in 0..<n { b[i] += s[i] * k }
        }
        if sound.chorusSend > 0, let bus = t.chorus {
            let b = bus, k = sound.chorusSend
            for i in 0..<n { b[i] += s[i] * k }
        }
    }
}
