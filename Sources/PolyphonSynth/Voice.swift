import Foundation
import PolyphonSoundFont

/// Where a voice's sample lives and how its loop is laid out, resolved once per bank.
struct SampleInfo {
    /// The points: the bank's mapped pool for SF2, decoded PCM for SF3 (positions below are
    /// relative to these pointers).
    var words: UnsafePointer<Int16>?
    var low: UnsafePointer<UInt8>?
    var start: Int
    var end: Int
    var loopStart: Int
    var loopEnd: Int
    var sampleRate: Double
    var originalPitch: Int
    var pitchCorrection: Int
    var isPlayable: Bool
}

/// The buses a voice mixes into for one chunk, all starting at the chunk's first frame.
struct MixTarget {
    var left: UnsafeMutablePointer<Float>
    var right: UnsafeMutablePointer<Float>
    /// nil when the effect is off: sends are then not accumulated at all.
    var reverb: UnsafeMutablePointer<Float>?
    var chorus: UnsafeMutablePointer<Float>?
}

/// One sounding sample: oscillator → gain ramp → low-pass filter → pan and effect sends.
///
/// Control values (envelopes, LFOs, modulated generators) are updated once per control period
/// of at most 64 frames, counted from the voice's own start so the result never depends on how
/// the caller slices render calls; gain moves by a per-frame ramp between control points.
///
/// A value type living in the synthesizer's preallocated voice pool: rendering touches it
/// through a pointer, so there is no reference counting or exclusivity checking per voice.
struct Voice {
    static let controlPeriod = 64
    /// FluidSynth's noise floor: a voice whose output can no longer exceed this is dropped.
    static let noiseFloor: Float = 0.00003

    // Identity
    var isActive = false
    private(set) var channel = 0
    /// Output bus the voice mixes into (its channel, or the bus its note-on named).
    var bus = 0
    private(set) var key = 0
    private(set) var velocity = 0
    /// Absolute frame at which the voice started; voices started at the current frame are
    /// never stolen.
    private(set) var startFrame: Int64 = 0
    /// Monotonic start order, for "oldest" decisions.
    private(set) var serial: UInt64 = 0
    private(set) var exclusiveClass = 0
    /// Note-off received (the key is up).
    private(set) var isKeyReleased = false
    /// Held by the sustain pedal after its note-off.
    var isSustained = false
    /// Held by the sostenuto pedal (key was down when it was pressed).
    var isSostenutoHeld = false

    // What to play
    private var generators = SIMD64<Float>(repeating: 0)
    private var modulators: [Modulator] = []
    private var modulation = SIMD64<Float>(repeating: 0)
    private var sample = SampleInfo(words: nil, low: nil, start: 0, end: 0, loopStart: 0, loopEnd: 0, sampleRate: 44100,
                                    originalPitch: 60, pitchCorrection: 0, isPlayable: false)
    private var loopMode = 0
    private var loopPeak: Float = 1

    // DSP state
    private var oscillator = Oscillator()
    private var volumeEnvelope = VolumeEnvelope()
    /// The envelope one full control period ahead, computed for the gain ramp's target: when
    /// the next control point comes exactly a period later with nothing changed in between, it
    /// is the envelope's new state (same arithmetic from the same state) and saves an advance.
    private var envelopeAhead = VolumeEnvelope()
    private var envelopeAheadIsValid = false
    private var modulationEnvelope = ModulationEnvelope()
    private var modulationLFO = LFO()
    private var vibratoLFO = LFO()
    /// Internal so the synthesizer can filter voices in batches (``LowPassFilter/process(_:count:)``).
    var filter = LowPassFilter()
    /// The shared filter the voice mixes into while its own filter has settled (``SharedFilters``),
    /// or -1 when it uses its own; set by the voice batch, which decides joins and leaves.
    var filterGroup = -1
    /// Frames since the filter was last given a new target, and that target: a voice whose
    /// filter has held still for 16 control periods may share it (``controlUpdate``).
    private var filterQuietFrames = 0
    private var filterTarget = SIMD4<Float>(repeating: 0)
    /// The filter's ring time (``filterMayShare(cutoffCents:)``) and the cutoff and Q it is for.
    private var filterRing: Float = 0
    private var filterRingCents: Float = .nan
    private var filterRingQ: Float = .nan
    private var lastFilterQ: Float = .nan
    private var ramp = GainRamp()
    /// Set by a control point that changed nothing and after which nothing can change until
    /// something outside does (``holdsSteady(sharing:)``): a held note at its sustain level
    /// with no LFO, glide or moving cutoff. Its next control points would only count time, so
    /// the oscillator runs on through them (``runLength(upTo:sharing:steady:)``).
    private var isSteady = false
    /// What the steadiness was judged with: the batch's sharing switch and membership.
    private var steadySharing = false
    private var steadyMember = false
    /// The voice is in a shared filter (``filterGroup`` at the start of the render call) and
    /// its cutoff has not moved since: it has no reason to ask to join.
    private var inSharedFilter = false
    private var framesLeftInPeriod = 0
    private var framesSinceUpdate = 0
    private var endsAfterPeriod = false
    /// Frames not yet applied to modulators nobody currently reads.
    private var modEnvPending = 0
    private var modLfoPending = 0
    private var vibLfoPending = 0
    /// Values of the previous control point, to skip recomputing what did not change.
    private var lastPitchCents: Float = .nan
    /// The unmodulated pitch (cents) and its increment ratio, so vibrato only needs a short
    /// polynomial on top (see `controlUpdate`).
    private var lastBaseCents: Float = .nan
    private var baseRatio: Double = 1
    private var lastFilterCents: Float = .nan
    private var lastCentibels: Float = .nan
    private var lastTarget: Float = 0
    /// In a decay or release stage (``targetStepStage``) the level falls linearly in dB, so each
    /// full control period multiplies the gain by this same factor (0: not known).
    private var targetStep: Float = 0
    private var targetStepStage = VolumeEnvelope.Stage.finished

    // Derived from generators + modulators + NRPN offsets
    private var attenuation: Float = 0
    private var pitchCents: Float = 0
    private var sampleRateRatio: Double = 1
    private var filterCutoffCents: Float = 13500
    private var filterQ: Float = 0
    private var filterActive = false
    private var panLeft: Float = 0.7071
    private var panRight: Float = 0.7071
    private var reverbSend: Float = 0
    private var chorusSend: Float = 0
    private var modLfoToPitch: Float = 0
    private var vibLfoToPitch: Float = 0
    private var modEnvToPitch: Float = 0
    private var modLfoToFilter: Float = 0
    private var modEnvToFilter: Float = 0
    private var modLfoToVolume: Float = 0
    private var softPedalCentibels: Float = 0
    private var portamentoCents: Float = 0
    private var portamentoStep: Float = 0

    // Per-synth constants
    private var outputRate: Double = 44100
    private var outputGain: Float = 0.2
    private var velocityToFilter: VelocityToFilterMode = .fluidSynth
    private var cutoffTable: CutoffTable?


    // MARK: - Life cycle

    /// Starts the voice for a resolved region. `portamentoFromKey` ≥ 0 glides from that key.
    mutating func start(region: Region, sample info: SampleInfo, loopPeak peak: Float, channel ch: Channel,
               key k: Int, velocity vel: Int, frame: Int64, serial s: UInt64, outputRate rate: Double,
               gain g: Float, velocityToFilter vtf: VelocityToFilterMode, cutoffTable table: CutoffTable,
               portamentoFromKey: Int, portamentoTime: Float) {
        cutoffTable = table
        isActive = true
        channel = ch.index
        key = k
        velocity = vel
        startFrame = frame
        serial = s
        isKeyReleased = false
        isSustained = false
        isSostenutoHeld = false
        outputRate = rate
        outputGain = g
        velocityToFilter = vtf
        sample = info
        loopPeak = max(peak, 1e-9)

        var gens = SIMD64<Float>(repeating: 0)
        for i in 0..<GeneratorType.slotCount { gens[i] = Float(region.generators.values[i]) }
        generators = gens
        modulators = region.modulators
        exclusiveClass = Int(clampedGenerator(.exclusiveClass, base: true))
        loopMode = Int(clampedGenerator(.sampleModes, base: true))

        setUpOscillator()
        updateModulation(ch)
        updateParameters(ch)
        startEnvelopesAndLFOs()

        if portamentoFromKey >= 0 && portamentoTime > 0 && portamentoFromKey != k {
            portamentoCents = Float(portamentoFromKey - k) * 100
            portamentoStep = -portamentoCents / max(1, Float(portamentoTime) * Float(rate))
        } else {
            portamentoCents = 0
            portamentoStep = 0
        }

        ramp = GainRamp()
        modEnvPending = 0
        modLfoPending = 0
        vibLfoPending = 0
        lastPitchCents = .nan
        lastBaseCents = .nan
        lastFilterCents = .nan
        lastCentibels = .nan
        targetStep = 0
        filter.reset()
        filterGroup = -1
        filterQuietFrames = 0
        filterRingCents = .nan
        lastFilterQ = .nan
        framesLeftInPeriod = 0
        framesSinceUpdate = 0
        endsAfterPeriod = false
        envelopeAheadIsValid = false
        isSteady = false
    }

    /// Stops the voice at once (no release), freeing it.
    mutating func kill() {
        isActive = false
        modulators = []
    }

    /// The key went up: release unless a pedal holds the note.
    mutating func noteOff(_ ch: Channel) {
        guard isActive, !isKeyReleased else { return }
        isKeyReleased = true
        if ch.sustain { isSustained = true; return }
        if isSostenutoHeld { return }
        release(ch)
    }

    /// Enters the release stage of both envelopes now.
    mutating func release(_ ch: Channel) {
        guard isActive else { return }
        isKeyReleased = true
        isSustained = false
        isSostenutoHeld = false
        guard volumeEnvelope.stage != .release && volumeEnvelope.stage != .finished else { return }
        catchUp()
        updateReleaseTimes()
        volumeEnvelope.release()
        modulationEnvelope.release()
        if loopMode == 3 { oscillator.isLooping = false }
        restartControlPeriod()
    }

    /// Exclusive class cut or a stolen voice: a very fast release (FluidSynth: −2000 tc).
    mutating func quickRelease(_ ch: Channel) {
        guard isActive else { return }
        generators[Int(GeneratorType.releaseVolEnv.rawValue)] = -2000
        generators[Int(GeneratorType.releaseModEnv.rawValue)] = -2000
        modulation[Int(GeneratorType.releaseVolEnv.rawValue)] = 0
        modulation[Int(GeneratorType.releaseModEnv.rawValue)] = 0
        isKeyReleased = true
        isSustained = false
        isSostenutoHeld = false
        catchUp()
        updateReleaseTimes()
        volumeEnvelope.release()
        modulationEnvelope.release()
        restartControlPeriod()
    }

    /// A controller, pitch wheel, pressure or NRPN changed on the voice's channel.
    mutating func channelChanged(_ ch: Channel) {
        guard isActive else { return }
        updateModulation(ch)
        updateParameters(ch)
        restartControlPeriod()
    }

    var isReleased: Bool { volumeEnvelope.stage == .release || volumeEnvelope.stage == .finished }

    /// Current output gain, for stealing decisions.
    var currentGain: Float { ramp.current }

    // MARK: - Rendering

    /// Renders the voice's dry signal for `count` frames into `out` (oscillator and gain; the
    /// filter and mixing come after, see ``LowPassFilter/process(_:count:)`` and ``mix(_:_:_:)``),
    /// and records the filter's control points in `events` (room for
    /// ``maximumFilterEvents(frames:)``). `scratch` is the oscillator's working memory
    /// (``Oscillator/scratchPoints`` floats). Returns the frames produced: fewer than `count`
    /// when the voice ended, which frees it.
    ///
    /// With `steady`, a voice that a control point found steady (a held note at its sustain
    /// level with nothing moving its pitch, cutoff or gain) runs on through its next control
    /// points, which would change nothing: one oscillator run per call instead of one per
    /// 64 frames, with the same bits.
    @inline(__always)
    mutating func renderSource(count: Int, into out: UnsafeMutablePointer<Float>,
                               events: UnsafeMutablePointer<FilterEvent>, eventCount: inout Int,
                               interpolation: Interpolation, tables: InterpolationTables,
                               scratch: UnsafeMutablePointer<Float>, sharing: Bool, steady: Bool) -> Int {
        eventCount = 0
        inSharedFilter = filterGroup >= 0
        return continueSource(from: 0, count: count, into: out, events: events, eventCount: &eventCount,
                              interpolation: interpolation, tables: tables, scratch: scratch, sharing: sharing,
                              steady: steady)
    }

    /// ``renderSource`` from frame `start` of the call on, adding to the events already made.
    @inline(__always)
    mutating func continueSource(from start: Int, count: Int, into out: UnsafeMutablePointer<Float>,
                                 events: UnsafeMutablePointer<FilterEvent>, eventCount: inout Int,
                                 interpolation: Interpolation, tables: InterpolationTables,
                                 scratch: UnsafeMutablePointer<Float>, sharing: Bool, steady: Bool) -> Int {
        var done = start
        while done < count && isActive {
            if framesLeftInPeriod == 0 {
                if endsAfterPeriod { kill(); break }
                controlPoint(at: done, events: events, eventCount: &eventCount, sharing: sharing, steady: steady)
            }
            let (n, skipped) = runLength(upTo: count - done, sharing: sharing, steady: steady)
            let produced = renderOscillator(n, out + done, interpolation, tables, scratch)
            ranOn(n, skipping: skipped)
            done += produced
            if produced < n { kill(); break }
        }
        return done
    }

    /// A control point: only counting time while the voice is steady, a full update otherwise.
    @inline(__always)
    mutating private func controlPoint(at offset: Int, events: UnsafeMutablePointer<FilterEvent>,
                                       eventCount: inout Int, sharing: Bool, steady: Bool) {
        if steady && holdsSteady(sharing: sharing) {
            passSteadyPoint(elapsed: framesSinceUpdate)
        } else {
            controlUpdate(at: offset, events: events, eventCount: &eventCount, sharing: sharing)
        }
    }

    /// Whether the last control point's verdict of steadiness still holds: it was judged with
    /// the same sharing switch and membership (which decide whether the voice asks to join).
    @inline(__always)
    private func holdsSteady(sharing: Bool) -> Bool {
        isSteady && steadySharing == sharing && steadyMember == inSharedFilter
    }

    /// Frames to render before the next control point that must run, at most `limit`, and the
    /// steady control points run through on the way: a steady voice runs on to the last period
    /// boundary within the limit (the skipped points would change nothing but counters,
    /// which ``ranOn(_:skipping:)`` brings up to date).
    @inline(__always)
    private func runLength(upTo limit: Int, sharing: Bool, steady: Bool) -> (frames: Int, skipped: Int) {
        let n = min(limit, framesLeftInPeriod)
        guard steady && n == framesLeftInPeriod && holdsSteady(sharing: sharing) else { return (n, 0) }
        let skipped = (limit - n) / Voice.controlPeriod
        return (n + skipped * Voice.controlPeriod, skipped)
    }

    /// Accounts for `n` frames just rendered, which ran through `skipped` steady control points.
    @inline(__always)
    mutating private func ranOn(_ n: Int, skipping skipped: Int) {
        guard skipped > 0 else {
            framesLeftInPeriod -= n
            framesSinceUpdate += n
            return
        }
        let period = Voice.controlPeriod
        // The run ended on a period boundary: every skipped point passed, the next one is due.
        passSteadyPoint(elapsed: framesSinceUpdate + framesLeftInPeriod + (skipped - 1) * period)
        pointsPassed &+= skipped - 1
        pointsRunThrough &+= skipped
        framesLeftInPeriod = 0
        framesSinceUpdate = period
        ramp.index = period
    }

    /// What a control point of a steady voice does (``controlUpdate`` would find the envelope
    /// in its sustain, the pitch, cutoff and gain as they were, and nothing to ask): it counts
    /// `elapsed` frames towards the modulators advanced lazily and the filter's quiet time,
    /// and starts a flat gain ramp at the same level.
    @inline(__always)
    mutating private func passSteadyPoint(elapsed: Int) {
        framesSinceUpdate = 0
        framesLeftInPeriod = Voice.controlPeriod
        // A modulation envelope in use sits in its sustain (or has finished), where advancing
        // it changes nothing; the update would have advanced it, so it owes no time.
        if !usesModulationEnvelope { modEnvPending += elapsed }
        pointsPassed &+= 1
        modLfoPending += elapsed
        vibLfoPending += elapsed
        if filterActive { filterQuietFrames += elapsed }
        ramp = GainRamp(start: ramp.start, step: 0, index: 0)
    }

    /// Renders two voices that play the two halves of a stereo pair in step (``twinOffset(_:from:)``)
    /// with one phase stream, period by period while they stay twins; each then continues on
    /// its own. Every output is bit for bit what ``renderSource`` would give the voice alone:
    /// control points are the voices' own, and the oscillator arithmetic is the same. Cubic
    /// interpolation only. Returns the frames each produced.
    static func renderSourcePair(_ a: UnsafeMutablePointer<Voice>, _ b: UnsafeMutablePointer<Voice>, count: Int,
                                 into outA: UnsafeMutablePointer<Float>, _ outB: UnsafeMutablePointer<Float>,
                                 events eventsA: UnsafeMutablePointer<FilterEvent>, _ eventsB: UnsafeMutablePointer<FilterEvent>,
                                 eventCounts countA: inout Int, _ countB: inout Int,
                                 tables: InterpolationTables, scratch: UnsafeMutablePointer<Float>,
                                 sharing: Bool, steady: Bool, twinFrames: inout Int) -> (Int, Int) {
        countA = 0
        countB = 0
        a.pointee.inSharedFilter = a.pointee.filterGroup >= 0
        b.pointee.inSharedFilter = b.pointee.filterGroup >= 0
        var done = 0
        while done < count && a.pointee.isActive && b.pointee.isActive
                && a.pointee.framesLeftInPeriod == b.pointee.framesLeftInPeriod {
            if a.pointee.framesLeftInPeriod == 0 {
                if a.pointee.endsAfterPeriod || b.pointee.endsAfterPeriod { break }
                a.pointee.controlPoint(at: done, events: eventsA, eventCount: &countA, sharing: sharing, steady: steady)
                b.pointee.controlPoint(at: done, events: eventsB, eventCount: &countB, sharing: sharing, steady: steady)
            }
            guard let delta = twinOffset(b, from: a) else { break }
            // Both run on through steady points only when both are steady.
            let runA = a.pointee.runLength(upTo: count - done, sharing: sharing, steady: steady)
            let runB = b.pointee.runLength(upTo: count - done, sharing: sharing, steady: steady)
            let (n, skipped) = runA.skipped > 0 && runB.skipped > 0 ? runA
                : (min(count - done, a.pointee.framesLeftInPeriod), 0)
            // The voice whose points lie first leads, so the twin's shifted base pointer
            // (its own points minus the offset) never points before its own sample.
            let produced = delta >= 0
                ? a.pointee.renderOscillatorPair(&b.pointee, delta, n, outA + done, outB + done, tables, scratch)
                : b.pointee.renderOscillatorPair(&a.pointee, -delta, n, outB + done, outA + done, tables, scratch)
            a.pointee.ranOn(n, skipping: skipped)
            b.pointee.ranOn(n, skipping: skipped)
            done += produced
            twinFrames += produced
            if produced < n {
                a.pointee.kill()
                b.pointee.kill()
                return (done, done)
            }
        }
        let producedA = a.pointee.continueSource(from: done, count: count, into: outA, events: eventsA, eventCount: &countA,
                                                 interpolation: .cubic, tables: tables, scratch: scratch, sharing: sharing,
                                                 steady: steady)
        let producedB = b.pointee.continueSource(from: done, count: count, into: outB, events: eventsB, eventCount: &countB,
                                                 interpolation: .cubic, tables: tables, scratch: scratch, sharing: sharing,
                                                 steady: steady)
        return (producedA, producedB)
    }

    /// How far this voice's sample points lie from `other`'s when the two oscillators are in
    /// step: 16-bit samples of the same length and loop, read at the same relative position and
    /// rate with the same gain ramp (the two halves of a stereo pair, as banks lay them out).
    /// Nil when they are not. (Through pointers: copying two whole voices for the question
    /// showed up as two `memcpy` calls per voice and chunk.)
    static func twinOffset(_ voice: UnsafePointer<Voice>, from other: UnsafePointer<Voice>) -> Int? {
        guard voice.pointee.sample.words != nil, other.pointee.sample.words != nil,
              voice.pointee.sample.low == nil, other.pointee.sample.low == nil else { return nil }
        let o = voice.pointee.oscillator, p = other.pointee.oscillator
        let delta = o.start - p.start
        guard o.end - p.end == delta, o.loopStart - p.loopStart == delta, o.loopEnd - p.loopEnd == delta,
              o.increment == p.increment, o.isLooping == p.isLooping, o.hasLooped == p.hasLooped,
              o.isFinished == p.isFinished, o.phase == p.phase &+ UInt64(bitPattern: Int64(delta) << 32),
              voice.pointee.ramp == other.pointee.ramp else { return nil }
        return delta
    }

    /// ``renderOscillator`` for this voice and its twin (``twinOffset(_:from:)`` = `delta`).
    @inline(__always)
    mutating private func renderOscillatorPair(_ twin: inout Voice, _ delta: Int, _ n: Int,
                                               _ out: UnsafeMutablePointer<Float>, _ twinOut: UnsafeMutablePointer<Float>,
                                               _ tables: InterpolationTables, _ scratch: UnsafeMutablePointer<Float>) -> Int {
        guard let words = sample.words, let twinWords = twin.sample.words else { return 0 }
        var osc = oscillator
        var g = ramp
        let produced = osc.render(WordCubicKernel.self, data: Int16Samples(words: words),
                                  twin: Int16Samples(words: twinWords + delta), tables: tables, scratch: scratch,
                                  out: out, twinOut: twinOut, count: n, ramp: &g)
        oscillator = osc
        ramp = g
        twin.oscillator.phase = osc.phase &+ UInt64(bitPattern: Int64(delta) << 32)
        twin.oscillator.hasLooped = osc.hasLooped
        twin.oscillator.isFinished = osc.isFinished
        twin.ramp = g
        return produced
    }

    /// Control points (hence filter events) in one call of ``renderSource``: one at the start and
    /// one per control period after it.
    static func maximumFilterEvents(frames: Int) -> Int { frames / controlPeriod + 2 }

    /// True when the last control point found the voice steady (tests).
    var isHeldSteady: Bool { isSteady }

    /// Control points passed without an update, and how many of them inside a longer run of
    /// the oscillator, since the last ``takeSteadyCounts()`` (tests).
    private var pointsPassed = 0
    private var pointsRunThrough = 0
    mutating func takeSteadyCounts() -> (passed: Int, runThrough: Int) {
        defer { pointsPassed = 0; pointsRunThrough = 0 }
        return (pointsPassed, pointsRunThrough)
    }

    /// True when the voice's output goes through its low-pass filter.
    var isFiltered: Bool { filterActive }

    @inline(__always)
    mutating private func renderOscillator(_ n: Int, _ out: UnsafeMutablePointer<Float>,
                                  _ interpolation: Interpolation, _ tables: InterpolationTables,
                                  _ scratch: UnsafeMutablePointer<Float>) -> Int {
        var osc = oscillator
        var g = ramp
        let produced: Int
        guard let words = sample.words else { return 0 }
        if let low = sample.low {
            let src = Int24Samples(words: words, low: low)
            switch interpolation {
            case .linear: produced = osc.render(LinearKernel.self, data: src, tables: tables, scratch: scratch, out: out, count: n, ramp: &g)
            case .cubic: produced = osc.render(CubicKernel.self, data: src, tables: tables, scratch: scratch, out: out, count: n, ramp: &g)
            case .sinc: produced = osc.render(SincKernel.self, data: src, tables: tables, scratch: scratch, out: out, count: n, ramp: &g)
            }
        } else {
            let src = Int16Samples(words: words)
            switch interpolation {
            case .linear: produced = osc.render(LinearKernel.self, data: src, tables: tables, scratch: scratch, out: out, count: n, ramp: &g)
            case .cubic: produced = osc.render(WordCubicKernel.self, data: src, tables: tables, scratch: scratch, out: out, count: n, ramp: &g)
            case .sinc: produced = osc.render(SincKernel.self, data: src, tables: tables, scratch: scratch, out: out, count: n, ramp: &g)
            }
        }
        oscillator = osc
        ramp = g
        return produced
    }

    /// Adds `n` frames of the voice's (filtered) signal into the buses, panned and sent.
    @inline(__always)
    func mix(_ s: UnsafeMutablePointer<Float>, _ n: Int, _ t: MixTarget) {
        let l = t.left, r = t.right
        let pl = panLeft, pr = panRight
        for i in 0..<n {
            let v = s[i]
            l[i] += v * pl
            r[i] += v * pr
        }
        mixSends(s, n, t)
    }

    /// The constant-power pan gains the dry signal is mixed with.
    var panGains: SIMD2<Float> { SIMD2(panLeft, panRight) }

    /// Left, right, reverb and chorus gains, for a voice mixed into a shared filter (a send is
    /// 0 when `target` does not take it, as ``mixSends(_:_:_:)`` skips it).
    func busGains(_ target: MixTarget) -> SIMD4<Float> {
        SIMD4(panLeft, panRight, target.reverb != nil && reverbSend > 0 ? reverbSend : 0,
              target.chorus != nil && chorusSend > 0 ? chorusSend : 0)
    }

    /// Adds `n` frames of the voice's signal into the effect sends alone (its filter batch
    /// mixed the dry signal).
    @inline(__always)
    func mixSends(_ s: UnsafeMutablePointer<Float>, _ n: Int, _ t: MixTarget) {
        if reverbSend > 0, let bus = t.reverb {
            let b = bus, k = reverbSend
            for i in 0..<n { b[i] += s[i] * k }
        }
        if chorusSend > 0, let bus = t.chorus {
            let b = bus, k = chorusSend
            for i in 0..<n { b[i] += s[i] * k }
        }
    }

    /// Brings the envelopes to this frame before a note-off switches them to their release:
    /// otherwise the next control point would advance the release by the frames since the
    /// last point, which were spent before the note-off, and the release would start up to
    /// a control period (64 frames: 1.5 ms at 44.1 kHz, 8 ms at 8 kHz) early. The modulation
    /// envelope is brought up to date even when nothing reads it, so its release starts from
    /// where it really is.
    mutating private func catchUp() {
        let elapsed = framesSinceUpdate
        framesSinceUpdate = 0
        if elapsed > 0 {
            volumeEnvelope.advance(elapsed)
            modLfoPending += elapsed
            vibLfoPending += elapsed
            if filterActive { filterQuietFrames += elapsed }
            advancePortamento(elapsed)
        }
        modulationEnvelope.advance(modEnvPending + elapsed)
        modEnvPending = 0
        envelopeAheadIsValid = false
    }

    mutating private func advancePortamento(_ elapsed: Int) {
        guard portamentoStep != 0 else { return }
        portamentoCents += portamentoStep * Float(elapsed)
        if (portamentoStep < 0 && portamentoCents <= 0) || (portamentoStep > 0 && portamentoCents >= 0) {
            portamentoCents = 0
            portamentoStep = 0
        }
    }

    /// Ends the current control period early so a change is heard from this frame on.
    mutating private func restartControlPeriod() {
        framesLeftInPeriod = 0
        envelopeAheadIsValid = false
        isSteady = false
    }

    /// Brings envelopes and LFOs to "now", then sets the pitch, filter and gain ramp for the
    /// next period. With `sharing`, a filter that has held still for 16 periods, with nothing
    /// left that moves its cutoff and a ring short enough (``filterMayShare(cutoffCents:)``),
    /// asks to join a shared filter (a `.join` event).
    mutating private func controlUpdate(at offset: Int, events: UnsafeMutablePointer<FilterEvent>,
                                        eventCount: inout Int, sharing: Bool) {
        let elapsed = framesSinceUpdate
        framesSinceUpdate = 0
        // True when this point ends a whole period begun at the previous one.
        var continued = false
        if elapsed > 0 {
            if envelopeAheadIsValid && elapsed == Voice.controlPeriod {
                volumeEnvelope = envelopeAhead
                continued = true
            } else {
                volumeEnvelope.advance(elapsed)
            }
            // Modulators that nothing listens to are advanced lazily (their state depends only
            // on elapsed time, so catching up later gives the same value).
            modEnvPending += elapsed
            modLfoPending += elapsed
            vibLfoPending += elapsed
            advancePortamento(elapsed)
        }
        let period = Voice.controlPeriod
        framesLeftInPeriod = period

        var modLfo: Float = 0, modEnv: Float = 0, vibLfo: Float = 0
        if usesModulationLFO {
            modulationLFO.advance(modLfoPending)
            modLfoPending = 0
            modLfo = modulationLFO.value
        }
        if usesModulationEnvelope {
            modulationEnvelope.advance(modEnvPending)
            modEnvPending = 0
            modEnv = modulationEnvelope.value
        }
        if vibLfoToPitch != 0 {
            vibratoLFO.advance(vibLfoPending)
            vibLfoPending = 0
            vibLfo = vibratoLFO.value
        }

        // Pitch from the LFOs and modulation envelope as they are now.
        let base = pitchCents + portamentoCents
        let modulation = modLfo * modLfoToPitch + vibLfo * vibLfoToPitch + modEnv * modEnvToPitch
        let cents = base + modulation
        let eventsBefore = eventCount
        if cents != lastPitchCents {
            lastPitchCents = cents
            if base != lastBaseCents {
                lastBaseCents = base
                baseRatio = Double(Units.centsToRatio(base)) * sampleRateRatio
            }
            // Vibrato and most modulation stay within a semitone: a short series for the
            // modulation on top of the note's own ratio is much cheaper than a full exp2.
            let ratio = abs(modulation) <= 100
                ? baseRatio * Double(Units.exp2Small(modulation * (1.0 / 1200.0)))
                : Double(Units.centsToRatio(cents)) * sampleRateRatio
            oscillator.setIncrement(ratio)
        }

        if filterActive {
            // A changed cutoff glides over the period (the first one sets the filter at once).
            // Where denormals are not flushed by the hardware mode, every control point also
            // flushes the filter's state (see ``DenormalMode``); otherwise a point with nothing
            // to change leaves no event, so the filter batch's spans stay long.
            var event = FilterEvent(offset: offset, kind: .flush)
            let fc = filterCutoffCents + modLfo * modLfoToFilter + modEnv * modEnvToFilter
            filterQuietFrames += elapsed
            if fc != lastFilterCents || filterQ != lastFilterQ || !filter.isPrimed {
                lastFilterCents = fc
                lastFilterQ = filterQ
                let primed = filter.isPrimed
                if let table = cutoffTable,
                   let target = filter.coefficients(cutoffCents: fc, qCentibels: filterQ, table: table) {
                    event = FilterEvent(offset: offset, kind: primed ? .glide : .snap, frames: period, target: target)
                    filterTarget = target
                    filterQuietFrames = 0
                    inSharedFilter = false  // the cutoff moved: the batch takes the voice out
                }
            }
            // A glide lasts one full period: past that the coefficients are exactly the target.
            // Asking only after 16 periods (23 ms at 44.1 kHz) keeps short notes, which would
            // each fill a shared filter of their own for a moment, on their own filters.
            // While the modulation envelope still moves the cutoff, even by less than a step
            // worth a new target, the voice would join and leave over and over. A voice that
            // was in one when the call began, with its cutoff unmoved since, is still in it and
            // does not ask. (One that joins during the call asks on until the call ends, as it
            // cannot know it was let in: the batch turns those requests into flushes, which
            // change nothing, its own filter having handed its state over.)
            if event.kind == .flush && sharing && !inSharedFilter && filterQuietFrames >= 16 * period
                && (modEnvToFilter == 0 || modulationEnvelope.isSteady) {
                if filterMayShare(cutoffCents: fc) {
                    event = FilterEvent(offset: offset, kind: .join, frames: -1, target: filterTarget)
                }
            }
            if event.kind != .flush || DenormalMode.explicitFilterFlush {
                events[eventCount] = event
                eventCount += 1
            }
        }

        // Gain at the end of the period, reached by a linear ramp.
        var env = volumeEnvelope
        env.advance(period)
        envelopeAhead = env
        envelopeAheadIsValid = true
        var lfoAtEnd: Float = 0
        if modLfoToVolume != 0 {
            var lfo = modulationLFO
            lfo.advance(period)
            lfoAtEnd = lfo.value
        }
        let target: Float
        if env.stage == .finished {
            target = 0
            endsAfterPeriod = true
        } else {
            let cb = attenuation + softPedalCentibels - lfoAtEnd * modLfoToVolume
            if env.stage == .sustain && volumeEnvelope.stage == .sustain && cb == lastCentibels {
                target = lastTarget  // a held note at a steady level: nothing to recompute
            } else if continued && targetStep > 0 && cb == lastCentibels
                        && volumeEnvelope.stage == targetStepStage && env.stage == targetStepStage {
                // A whole period inside the same decay or release: one multiply instead of an
                // exponential (the rounding this accumulates stays below 0.001 dB per second).
                target = lastTarget * targetStep
                lastTarget = target
            } else {
                target = env.amplitude(extraCentibels: cb) * outputGain
                lastTarget = target
                switch env.stage {
                case .sustain:
                    lastCentibels = cb
                case .decay, .release:
                    lastCentibels = cb
                    targetStep = Units.centibelsToAmplitude(960 * env.levelFallPerFrame * Float(period))
                    targetStepStage = env.stage
                default:
                    lastCentibels = .nan
                }
            }
            if env.isLogarithmic {
                // Past the attack the level only falls (or holds): drop the voice once neither
                // end of this ramp can be heard.
                let peak = oscillator.hasLooped || (oscillator.isLooping && oscillator.position >= oscillator.loopStart)
                    ? loopPeak : 1
                if max(target, ramp.current) * peak < Voice.noiseFloor
                    && (env.stage != .sustain || env.sustainLevel <= 0 || isKeyReleased) {
                    endsAfterPeriod = true
                }
            }
        }
        let now = ramp.current
        ramp = GainRamp(start: now, step: (target - now) / Float(period), index: 0)

        // Steady: the next control point would find everything as this one left it.
        isSteady = target == now && !endsAfterPeriod && eventCount == eventsBefore
            && volumeEnvelope.stage == .sustain && env.stage == .sustain
            // Whatever the key and pedals do, the level check above cannot end the voice.
            && target * min(loopPeak, 1) >= Voice.noiseFloor
            && !usesModulationLFO && vibLfoToPitch == 0 && portamentoStep == 0
            && (!usesModulationEnvelope || modulationEnvelope.isSteady)
            && (!filterActive || filterHoldsStill(sharing: sharing))
        steadySharing = sharing
        steadyMember = inSharedFilter
    }

    /// Whether a steady filter's next control points add no event: no flush by rule, and no
    /// request to join a shared filter (sharing off, already in one, or a ring too long to
    /// share). The cutoff and Q themselves hold still when their sources do.
    private mutating func filterHoldsStill(sharing: Bool) -> Bool {
        if DenormalMode.explicitFilterFlush { return false }
        if !sharing || inSharedFilter { return true }
        return !filterMayShare(cutoffCents: lastFilterCents)
    }

    /// A settled filter may be shared (``SharedFilters``) when sharing cannot be told apart from
    /// filtering alone: its ring — 60 dB of decay, 6.9 · Q / (π · fc) for this 2-pole filter —
    /// lasts at most 2 ms, so what it still rings when the voice ends (FluidSynth cuts it, a
    /// shared filter lets it ring out) lies far below the release's −90 dB end; and the envelope
    /// can move the cutoff by at most 1 cent within that ring, so a voice leaving when its
    /// cutoff moves leaves a ring that its own filter would have played just the same. The LFO
    /// must not reach the cutoff at all (in its delay the cutoff holds still, then moves).
    mutating private func filterMayShare(cutoffCents fc: Float) -> Bool {
        guard modLfoToFilter == 0 else { return false }
        if fc != filterRingCents || filterQ != filterRingQ {
            filterRingCents = fc
            filterRingQ = filterQ
            let q = powf(10, (filterQ / 10 - 3.01) / 20)
            filterRing = 6.9 * q / (Float.pi * Units.absoluteCentsToHertz(fc))
        }
        let centsPerSecond = abs(modEnvToFilter) * modulationEnvelope.fastestFall * Float(outputRate)
        return filterRing <= 0.002 && centsPerSecond * filterRing <= 1
    }

    private var usesModulationLFO: Bool { modLfoToPitch != 0 || modLfoToFilter != 0 || modLfoToVolume != 0 }
    private var usesModulationEnvelope: Bool { modEnvToPitch != 0 || modEnvToFilter != 0 }

    // MARK: - Parameters

    mutating private func setUpOscillator() {
        func gen(_ t: GeneratorType) -> Int { Int(generators[Int(t.rawValue)]) }
        var start = sample.start + gen(.startAddrsOffset) + 32768 * gen(.startAddrsCoarseOffset)
        var end = sample.end + gen(.endAddrsOffset) + 32768 * gen(.endAddrsCoarseOffset)
        var loopStart = sample.loopStart + gen(.startloopAddrsOffset) + 32768 * gen(.startloopAddrsCoarseOffset)
        var loopEnd = sample.loopEnd + gen(.endloopAddrsOffset) + 32768 * gen(.endloopAddrsCoarseOffset)
        // Clamp everything into the sample's own span, as FluidSynth does.
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
    private func clampedGenerator(_ t: GeneratorType, base: Bool = false) -> Float {
        let i = Int(t.rawValue)
        let v = base ? generators[i] : generators[i] + modulation[i]
        let r = t.range
        return min(max(v, Float(r.lowerBound)), Float(r.upperBound))
    }

    private var nrpnOffsets = SIMD64<Float>(repeating: 0)

    mutating private func updateModulation(_ ch: Channel) {
        let ctx = ModulatorEvaluation.Context(channel: ch, key: effectiveKey, velocity: effectiveVelocity)
        modulation = ModulatorEvaluation.sum(modulators, context: ctx, velocityToFilter: velocityToFilter)
            + ch.generatorOffsets
        nrpnOffsets = ch.generatorOffsets
    }

    private var effectiveKey: Int {
        let k = Int(generators[Int(GeneratorType.keynum.rawValue)])
        return k >= 0 && k <= 127 ? k : key
    }

    private var effectiveVelocity: Int {
        let v = Int(generators[Int(GeneratorType.velocity.rawValue)])
        return v >= 0 && v <= 127 ? v : velocity
    }

    private func total(_ t: GeneratorType) -> Float {
        let i = Int(t.rawValue)
        let r = t.range
        return min(max(generators[i] + modulation[i], Float(r.lowerBound)), Float(r.upperBound))
    }

    mutating private func updateParameters(_ ch: Channel) {
        let att = Int(GeneratorType.initialAttenuation.rawValue)
        // FluidSynth's EMU factor: only the generator part is scaled by 0.4.
        attenuation = min(max(0.4 * generators[att] + modulation[att], 0), 1440)
        softPedalCentibels = ch.soft ? 30 : 0

        let root: Int = {
            let o = Int(generators[Int(GeneratorType.overridingRootKey.rawValue)])
            return o >= 0 && o <= 127 ? o : sample.originalPitch
        }()
        let scale = total(.scaleTuning)
        pitchCents = scale * Float(effectiveKey - root) + 100 * total(.coarseTune) + total(.fineTune)
            + Float(sample.pitchCorrection) + modulation[Int(Modulator.initialPitchDestination)]
            + 100 * ch.coarseTuning + ch.fineTuning
        sampleRateRatio = sample.sampleRate / outputRate

        filterCutoffCents = total(.initialFilterFc)
        filterQ = total(.initialFilterQ)
        modLfoToPitch = total(.modLfoToPitch)
        vibLfoToPitch = total(.vibLfoToPitch)
        modEnvToPitch = total(.modEnvToPitch)
        modLfoToFilter = total(.modLfoToFilterFc)
        modEnvToFilter = total(.modEnvToFilterFc)
        modLfoToVolume = total(.modLfoToVolume)
        if ch.soft { filterCutoffCents = max(1500, filterCutoffCents - 600) }
        let wasActive = filterActive
        filterActive = filterCutoffCents < 13500 || filterQ > 0 || modLfoToFilter != 0 || modEnvToFilter != 0
        if filterActive && !wasActive { filter.reset() }

        let pan = Units.panGains(total(.pan))
        panLeft = pan.left
        panRight = pan.right
        reverbSend = total(.reverbEffectsSend) / 1000
        chorusSend = total(.chorusEffectsSend) / 1000
    }

    private func seconds(_ t: GeneratorType, keyScale: GeneratorType? = nil, allowZero: Bool = false) -> Double {
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

    mutating private func startEnvelopesAndLFOs() {
        let rate = outputRate
        volumeEnvelope.start(
            delay: seconds(.delayVolEnv, allowZero: true) * rate,
            attack: seconds(.attackVolEnv, allowZero: true) * rate,
            hold: seconds(.holdVolEnv, keyScale: .keynumToVolEnvHold, allowZero: true) * rate,
            decay: seconds(.decayVolEnv, keyScale: .keynumToVolEnvDecay) * rate,
            sustainCentibels: total(.sustainVolEnv),
            release: releaseSeconds(volume: true) * rate)
        modulationEnvelope.start(
            delay: seconds(.delayModEnv, allowZero: true) * rate,
            attack: seconds(.attackModEnv, allowZero: true) * rate,
            hold: seconds(.holdModEnv, keyScale: .keynumToModEnvHold, allowZero: true) * rate,
            decay: seconds(.decayModEnv, keyScale: .keynumToModEnvDecay) * rate,
            sustainPermille: total(.sustainModEnv),
            release: releaseSeconds(volume: false) * rate)
        modulationLFO.start(delayFrames: seconds(.delayModLFO) * rate,
                            frequency: Double(Units.absoluteCentsToHertz(total(.freqModLFO))),
                            sampleRate: rate)
        vibratoLFO.start(delayFrames: seconds(.delayVibLFO) * rate,
                         frequency: Double(Units.absoluteCentsToHertz(total(.freqVibLFO))),
                         sampleRate: rate)
    }

    /// FluidSynth never lets a volume release be shorter than −7200 tc (≈16 ms), to avoid clicks.
    private func releaseSeconds(volume: Bool) -> Double {
        let t: GeneratorType = volume ? .releaseVolEnv : .releaseModEnv
        let i = Int(t.rawValue)
        var tc = generators[i] + modulation[i]
        if volume { tc = max(tc, -7200) } else if tc <= -32768 { return 0 }
        tc = min(max(tc, -12000), 8000)
        return Double(Units.timecentsToSeconds(tc))
    }

    mutating private func updateReleaseTimes() {
        volumeEnvelope.setRelease(frames: releaseSeconds(volume: true) * outputRate)
        targetStep = 0  // the release's fall per period may have changed
        modulationEnvelope.setRelease(frames: releaseSeconds(volume: false) * outputRate)
    }
}
