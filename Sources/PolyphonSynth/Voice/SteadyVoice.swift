/// The steady-voice shortcut: a control point that changed nothing, after which nothing can
/// change until something outside does (a held note at its sustain level with no LFO, glide or
/// moving cutoff), marks the voice steady. Its next control points would only count time, so
/// the oscillator runs on through them (``Voice/runLength(upTo:sharing:steady:)``): one run per
/// chunk instead of one per control period, with the same bits. Every event that reaches the
/// voice (controller, bend, pressure, note-off, release, steal) restarts its control period
/// and clears the verdict.
struct Steadiness {
    var isSteady = false
    /// What the verdict was judged with: the batch's sharing switch and membership (which
    /// decide whether the voice asks to join a shared filter).
    var judgedSharing = false
    var judgedMember = false
    /// Control points passed without an update, and how many of them inside a longer run of
    /// the oscillator, since the last ``Voice/takeSteadyCounts()`` (tests).
    var pointsPassed = 0
    var pointsRunThrough = 0
}

extension Voice {
    /// The verdict after a full control update: steady when the next control point would find
    /// everything as this one left it.
    @inline(__always)
    mutating func judgeSteadiness(target: Float, now: Float, filterChanged: Bool, sharing: Bool,
                                   context: RenderContext) {
        steadiness.isSteady = target == now && !control.endsAfterPeriod && !filterChanged
            && volumeEnvelope.stage == .sustain && control.envelopeAhead.stage == .sustain
            // Whatever the key and pedals do, the level check cannot end the voice.
            && target * min(loopPeak, 1) >= Voice.noiseFloor
            && !sound.usesModulationLFO && sound.vibLfoToPitch == 0 && sound.portamentoStep == 0
            && (!sound.usesModulationEnvelope || modulationEnvelope.isSteady)
            && (!sound.filterActive || filterHoldsStill(sharing: sharing, context: context))
        steadiness.judgedSharing = sharing
        steadiness.judgedMember = membership.inSharedFilter
    }

    /// Whether the last verdict of steadiness still holds: it was judged with the same sharing
    /// switch and membership.
    @inline(__always)
    func holdsSteady(sharing: Bool) -> Bool {
        steadiness.isSteady && steadiness.judgedSharing == sharing && steadiness.judgedMember == membership.inSharedFilter
    }

    /// Frames to render before the next control point that must run, at most `limit`, and the
    /// steady control points run through on the way: a steady voice runs on to the last period
    /// boundary within the limit (the skipped points would change nothing but counters, which
    /// ``ranOn(_:skipping:)`` brings up to date).
    @inline(__always)
    func runLength(upTo limit: Int, sharing: Bool, steady: Bool) -> (frames: Int, skipped: Int) {
        let n = min(limit, control.framesLeftInPeriod)
        guard steady && n == control.framesLeftInPeriod && holdsSteady(sharing: sharing) else { return (n, 0) }
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

    /// What a control point of a steady voice does (``controlUpdate`` would find the envelope
    /// in its sustain, the pitch, cutoff and gain as they were, and nothing to ask): it counts
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
        if sound.filterActive { membership.quietFrames += elapsed }
        ramp = GainRamp(start: ramp.start, step: 0, index: 0)
    }

    /// Whether a steady filter's next control points ask for no change: no request to join a
    /// shared filter (sharing off, already in one, or a ring too long to share). The cutoff and
    /// Q themselves hold still when their sources do.
    @inline(__always)
    mutating func filterHoldsStill(sharing: Bool, context: RenderContext) -> Bool {
        if !sharing || membership.inSharedFilter { return true }
        return !filterMayShare(cutoffCents: control.lastFilterCents, outputRate: context.outputRate)
    }

    /// Where each control point flushes the filter's tiny state (``DenormalMode``), the `.flush`
    /// events ``controlUpdate`` would have made at `count` steady points, the first at `offset`
    /// and one a period after another: the filter runs as it would through every point.
    @inline(__always)
    func addSteadyFlushes(at offset: Int, count: Int, events: UnsafeMutablePointer<FilterEvent>, eventCount: inout Int,
                          context: RenderContext) {
        guard context.explicitFilterFlush && sound.filterActive else { return }
        for j in 0..<count {
            events[eventCount] = FilterEvent(.flush, at: offset + j * Voice.controlPeriod)
            eventCount += 1
        }
    }

    /// True when the last control point found the voice steady (tests).
    var isHeldSteady: Bool { steadiness.isSteady }

    /// The steady counts since the last call, reset (tests).
    mutating func takeSteadyCounts() -> (passed: Int, runThrough: Int) {
        defer { steadiness.pointsPassed = 0; steadiness.pointsRunThrough = 0 }
        return (steadiness.pointsPassed, steadiness.pointsRunThrough)
    }
}
