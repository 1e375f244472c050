/// A voice's side of shared filters (``SharedFilters``): when its filter has settled it asks to
/// mix into a shared filter with the same coefficients instead of running its own; the voice
/// renderer accepts the request (and keeps ``group``) or turns it down.
struct SharedFilterMembership {
    /// The shared filter the voice mixes into, or −1 when it uses its own; set by the voice
    /// renderer, which decides joins and leaves.
    var group = -1
    /// The voice is in a shared filter (``group`` at the start of the render call) and its
    /// cutoff has not moved since: it has no reason to ask to join.
    var inSharedFilter = false
    /// Frames since the filter was last given a new target, and that target.
    var quietFrames = 0
    var target = SIMD4<Float>(repeating: 0)
    /// The filter's ring time (``Voice/filterMayShare(cutoffCents:outputRate:)``) and the cutoff
    /// and Q it is for.
    var ring: Float = 0
    var ringCents: Float = .nan
    var ringQ: Float = .nan

    /// At the start of a render call: whether the voice is in a shared filter now.
    @inline(__always)
    mutating func beginChunk() { inSharedFilter = group >= 0 }

    /// The filter got a new target: quiet from here, and out of any shared filter (the voice
    /// renderer takes it out).
    @inline(__always)
    mutating func filterMoved(to coefficients: SIMD4<Float>) {
        target = coefficients
        quietFrames = 0
        inSharedFilter = false
    }
}

extension Voice {
    /// Whether a control point with nothing new for the filter asks to join a shared filter.
    ///
    /// Asking only after 16 quiet periods (23 ms at 44.1 kHz) keeps short notes, which would
    /// each fill a shared filter of their own for a moment, on their own filters. While the
    /// modulation envelope still moves the cutoff, even by less than a step worth a new target,
    /// the voice would join and leave over and over. A voice that was in one when the call
    /// began, with its cutoff unmoved since, is still in it and does not ask. (One that joins
    /// during the call asks on until the call ends, as it cannot know it was let in: the voice
    /// renderer turns those requests into flushes, which change nothing, its own filter having
    /// handed its state over.)
    @inline(__always)
    mutating func asksToJoin(cutoffCents fc: Float, context: RenderContext) -> Bool {
        !membership.inSharedFilter && membership.quietFrames >= 16 * Voice.controlPeriod
            && (sound.modEnvToFilter == 0 || modulationEnvelope.isSteady)
            && filterMayShare(cutoffCents: fc, outputRate: context.outputRate)
    }

    /// A settled filter may be shared when sharing cannot be told apart from filtering alone:
    /// its ring — 60 dB of decay, 6.9 · Q / (π · fc) for this 2-pole filter — lasts at most
    /// 2 ms, so what it still rings when the voice ends (FluidSynth cuts it, a shared filter
    /// lets it ring out) lies far below the release's −90 dB end; and the envelope can move the
    /// cutoff by at most 1 cent within that ring, so a voice leaving when its cutoff moves
    /// leaves a ring that its own filter would have played just the same. The LFO must not
    /// reach the cutoff at all (in its delay the cutoff holds still, then moves).
    mutating func filterMayShare(cutoffCents fc: Float, outputRate: Double) -> Bool {
        guard sound.modLfoToFilter == 0 else { return false }
        if fc != membership.ringCents || sound.filterQ != membership.ringQ {
            membership.ringCents = fc
            membership.ringQ = sound.filterQ
            membership.ring = 6.9 * LowPassFilter.linearQ(qCentibels: sound.filterQ) / (Float.pi * Units.absoluteCentsToHertz(fc))
        }
        let centsPerSecond = abs(sound.modEnvToFilter) * modulationEnvelope.fastestFall * Float(outputRate)
        return membership.ring <= 0.002 && centsPerSecond * membership.ring <= 1
    }
}
