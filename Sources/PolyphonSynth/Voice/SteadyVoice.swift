/// The steady-voice shortcut: a control point that changed nothing, after which nothing can
/// change until something outside does (a held note at its sustain level with no LFO, glide or
/// moving cutoff), marks the voice steady. Its next control points would only count time, so
/// the oscillator runs on through them (``Voice/runLength(upTo:shortcuts:)``): one run per
/// chunk instead of one per control period, with the same bits. Every event that reaches the
/// voice (controller, bend, pressure, note-off, release, steal) restarts its control period,
/// which ends the verdict (``Voice/lastControlPointHolds``).
struct Steadiness {
    var isSteady = false
    /// What the verdict was judged with: the chunk's sharing switch and membership (which
    /// decide whether the voice asks to join a shared filter).
    var judgedSharing = false
    var judgedMember = false
    /// Control points passed without an update, and how many of them inside a longer run of
    /// the oscillator, since the last ``Voice/takeSteadyCounts()`` (tests).
    var pointsPassed = 0
    var pointsRunThrough = 0
}

/// The speed tricks a chunk's voices take: all of them, except in tests that compare a trick
/// with the plain path.
struct Shortcuts {
    /// Steady voices run through control points that would change nothing.
    var steady = true
    /// Settled filters ask to join shared ones (``FilterRouter``).
    var sharing = true
}

extension Voice {
    /// ``render(count:into:events:scratch:context:)`` taking the shortcuts: a steady voice
    /// runs on through its control points, and a settled filter asks to join a shared one.
    /// The same bits as the plain path.
    @inline(__always)
    mutating func render(count: Int, into out: UnsafeMutablePointer<Float>, events: inout FilterEvents,
                         scratch: UnsafeMutablePointer<Float>, shortcuts: Shortcuts, context: RenderContext) -> Int {
        membership.beginChunk()
        return continueRender(from: 0, count: count, into: out, events: &events, scratch: scratch,
                              shortcuts: shortcuts, context: context)
    }

    /// The shortcut render from frame `start` of the chunk on, adding to the events already
    /// made: a control point whenever a period is over, then the oscillator up to the next one
    /// (or on through steady points).
    @inline(__always)
    mutating func continueRender(from start: Int, count: Int, into out: UnsafeMutablePointer<Float>,
                                 events: inout FilterEvents, scratch: UnsafeMutablePointer<Float>,
                                 shortcuts: Shortcuts, context: RenderContext) -> Int {
        var done = start
        while done < count && isActive {
            if control.framesLeftInPeriod == 0 {
                if control.endsAfterPeriod { kill(); break }
                controlPoint(at: done, events: &events, shortcuts: shortcuts, context: context)
            }
            let (n, skipped) = runLength(upTo: count - done, shortcuts: shortcuts)
            addSteadyFlushes(at: done + control.framesLeftInPeriod, count: skipped, events: &events, context: context)
            let produced = oscillator.render(kernel, sample: sample, tables: context.tables, scratch: scratch,
                                             out: out + done, count: n, ramp: &ramp)
            if isShaped && shapedFilter.isActive { shapedFilter.process(out + done, count: produced) }
            ranOn(n, skipping: skipped)
            done += produced
            if produced < n { kill(); break }
        }
        return done
    }

    /// A control point with the shortcuts: only counting time while the voice is steady;
    /// otherwise the plain control point, a settled filter's request to join a shared one
    /// (``FilterRouter/asksToJoin(_:cutoffCents:context:)``) in place of holding still, and a
    /// new verdict on steadiness.
    @inline(__always)
    mutating func controlPoint(at offset: Int, events: inout FilterEvents, shortcuts: Shortcuts, context: RenderContext) {
        if shortcuts.steady && holdsSteady(sharing: shortcuts.sharing) {
            passSteadyPoint(elapsed: control.framesSinceUpdate)
            addSteadyFlushes(at: offset, count: 1, events: &events, context: context)
            return
        }
        let point = controlPoint(context)
        begin(point)
        var filterChanged = point.movesFilter
        if filterChanged { membership.inSharedFilter = false }
        if case .holds(let fc) = point.filter, shortcuts.sharing,
           FilterRouter.asksToJoin(&self, cutoffCents: fc, context: context) {
            events.append(.join(control.filterTarget, slot: -1), at: offset)
            filterChanged = true
        } else {
            record(point.filter, at: offset, in: &events, context)
        }
        judgeSteadiness(point, filterChanged: filterChanged, sharing: shortcuts.sharing, context: context)
    }

    /// The verdict after a full control point: steady when the next one would find everything
    /// as this one left it.
    @inline(__always)
    mutating func judgeSteadiness(_ point: ControlPoint, filterChanged: Bool, sharing: Bool, context: RenderContext) {
        let target = point.gainTarget
        steadiness.isSteady = target == point.gain.start && !control.endsAfterPeriod && !filterChanged
            && volumeEnvelope.stage == .sustain && control.envelopeAhead.stage == .sustain
            // Whatever the key and pedals do, the level check cannot end the voice.
            && target * min(loopPeak, 1) >= Voice.noiseFloor
            && !sound.usesModulationLFO && sound.vibLfoToPitch == 0 && sound.portamentoStep == 0
            && (!sound.usesModulationEnvelope || modulationEnvelope.isSteady)
            && (!isShaped || shapingIsSteady)
            && (!sound.filterActive || filterHoldsStill(sharing: sharing, context: context))
        steadiness.judgedSharing = sharing
        steadiness.judgedMember = membership.inSharedFilter
    }

    /// The shaping's part of the verdict: its envelopes, filter and modulation would change nothing.
    private var shapingIsSteady: Bool {
        (!shapedEnvelopes.isActive || shapedEnvelopes.isSteady) && !shapedLFOs.isActive
            && (!shapedFilter.isActive || shapedFilter.isSteady) && !routedModulation.isActive
            && (!voiceControllers.isActive || voiceControllers.isSteady)
    }

    /// Whether the last verdict of steadiness still holds: no event since, and judged with the
    /// same sharing switch and membership.
    @inline(__always)
    func holdsSteady(sharing: Bool) -> Bool {
        steadiness.isSteady && lastControlPointHolds && steadiness.judgedSharing == sharing
            && steadiness.judgedMember == membership.inSharedFilter
    }

    /// Frames to render before the next control point that must run, at most `limit`, and the
    /// steady control points run through on the way: a steady voice runs on to the last period
    /// boundary within the limit (the skipped points would change nothing but counters, which
    /// ``ranOn(_:skipping:)`` brings up to date).
    @inline(__always)
    func runLength(upTo limit: Int, shortcuts: Shortcuts) -> (frames: Int, skipped: Int) {
        let n = min(limit, control.framesLeftInPeriod)
        guard shortcuts.steady && n == control.framesLeftInPeriod && holdsSteady(sharing: shortcuts.sharing) else {
            return (n, 0)
        }
        let skipped = (limit - n) / Voice.controlPeriod
        return (n + skipped * Voice.controlPeriod, skipped)
    }

    /// Accounts for `n` frames just rendered, which ran through `skipped` steady control points.
    @inline(__always)
    mutating func ranOn(_ n: Int, skipping skipped: Int) {
        guard skipped > 0 else {
            control.framesLeftInPeriod -= n
            control.framesSinceUpdate += n
            return
        }
        let period = Voice.controlPeriod
        // The run ended on a period boundary: every skipped point passed, the next one is due.
        passSteadyPoint(elapsed: control.framesSinceUpdate + control.framesLeftInPeriod + (skipped - 1) * period)
        steadiness.pointsPassed &+= skipped - 1
        steadiness.pointsRunThrough &+= skipped
        control.framesLeftInPeriod = 0
        control.framesSinceUpdate = period
        ramp.index = period
    }

    /// What a control point of a steady voice does (the full one would find the envelope in its
    /// sustain, the pitch, cutoff and gain as they were, and nothing to ask): it counts
    /// `elapsed` frames towards the modulators advanced lazily and the filter's quiet time,
    /// and starts a flat gain ramp at the same level.
    @inline(__always)
    mutating func passSteadyPoint(elapsed: Int) {
        control.framesSinceUpdate = 0
        control.framesLeftInPeriod = Voice.controlPeriod
        // A modulation envelope in use sits in its sustain (or has finished), where advancing
        // it changes nothing; the update would have advanced it, so it owes no time.
        if !sound.usesModulationEnvelope { control.modEnvPending += elapsed }
        steadiness.pointsPassed &+= 1
        control.modLfoPending += elapsed
        control.vibLfoPending += elapsed
        if sound.filterActive { control.filterHeldFrames += elapsed }
        ramp = GainRamp(start: ramp.start, step: 0, index: 0)
    }

    /// Whether a steady filter's next control points ask for no change: no request to join a
    /// shared filter (sharing off, already in one, or a ring too long to share). The cutoff and
    /// Q themselves hold still when their sources do.
    @inline(__always)
    mutating func filterHoldsStill(sharing: Bool, context: RenderContext) -> Bool {
        if !sharing || membership.inSharedFilter { return true }
        return !FilterRouter.filterMayShare(&self, cutoffCents: control.lastFilterCents, outputRate: context.outputRate)
    }

    /// Where each control point flushes the filter's tiny state (``DenormalMode``), the `.flush`
    /// events the full control points would have made at `count` steady points, the first at
    /// `offset` and one a period after another: the filter runs as it would through every point.
    @inline(__always)
    func addSteadyFlushes(at offset: Int, count: Int, events: inout FilterEvents, context: RenderContext) {
        guard context.explicitFilterFlush && sound.filterActive else { return }
        for j in 0..<count { events.append(.flush, at: offset + j * Voice.controlPeriod) }
    }

    /// True when the last control point found the voice steady (tests).
    var isHeldSteady: Bool { steadiness.isSteady && lastControlPointHolds }

    /// The steady counts since the last call, reset (tests).
    mutating func takeSteadyCounts() -> (passed: Int, runThrough: Int) {
        defer { steadiness.pointsPassed = 0; steadiness.pointsRunThrough = 0 }
        return (steadiness.pointsPassed, steadiness.pointsRunThrough)
    }
}
