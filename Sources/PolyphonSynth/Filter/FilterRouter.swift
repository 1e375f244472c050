/// Decides which voices share a filter (``SharedFilterPool``), and moves the frames a member
/// spends in a shared filter out of its own signal into the shared filter's input.
///
/// A voice whose filter has held still long enough, and whose ring is short enough to be
/// shared unheard, asks to join at a control point (``asksToJoin(_:cutoffCents:context:)``,
/// a `.join` filter event). After the voice rendered its chunk the router accepts the request
/// — into the shared filter with the same coefficients, bus and gains, or a free one — or turns
/// it into a flush when none is free; follows voices that leave because their cutoff moved;
/// and at a chunk's start takes out members whose gains changed or that are not filtered any
/// more (``settle(_:sharing:targets:)``). Voices are routed in voice-pool order, so the
/// shared filters' inputs are summed in a fixed order.
final class FilterRouter {
    let pool: SharedFilterPool
    /// Voice frames mixed into a shared filter so far (for tests).
    private(set) var sharedFrames = 0

    init(chunkFrames: Int, voices: Int) {
        pool = SharedFilterPool(chunkFrames: chunkFrames, voices: voices)
    }

    // MARK: - Who may share

    /// Whether a control point whose filter holds still at `fc` asks to join a shared filter.
    ///
    /// Asking only after 16 quiet periods (23 ms at 44.1 kHz) keeps short notes, which would
    /// each fill a shared filter of their own for a moment, on their own filters. While the
    /// modulation envelope still moves the cutoff, even by less than a step worth a new target,
    /// the voice would join and leave over and over. A voice that was in one when the chunk
    /// began, with its cutoff unmoved since, is still in it and does not ask. (One that joins
    /// during the chunk asks on until the chunk ends, as it cannot know it was let in: the
    /// router turns those requests into flushes, which change nothing, its own filter having
    /// handed its state over.)
    @inline(__always)
    static func asksToJoin(_ voice: inout Voice, cutoffCents fc: Float, context: RenderContext) -> Bool {
        !voice.membership.inSharedFilter && voice.control.filterHeldFrames >= 16 * Voice.controlPeriod
            && (voice.sound.modEnvToFilter == 0 || voice.modulationEnvelope.isSteady)
            && filterMayShare(&voice, cutoffCents: fc, outputRate: context.outputRate)
    }

    /// A settled filter may be shared when sharing cannot be told apart from filtering alone:
    /// its ring — 60 dB of decay, 6.9 · Q / (π · fc) for this 2-pole filter — lasts at most
    /// 2 ms, so what it still rings when the voice ends (FluidSynth cuts it, a shared filter
    /// lets it ring out) lies far below the release's −90 dB end; and the envelope can move the
    /// cutoff by at most 1 cent within that ring, so a voice leaving when its cutoff moves
    /// leaves a ring that its own filter would have played just the same. The LFO must not
    /// reach the cutoff at all (in its delay the cutoff holds still, then moves).
    static func filterMayShare(_ voice: inout Voice, cutoffCents fc: Float, outputRate: Double) -> Bool {
        guard voice.sound.modLfoToFilter == 0 else { return false }
        let q = voice.sound.filterQ
        if fc != voice.membership.ringCents || q != voice.membership.ringQ {
            voice.membership.ringCents = fc
            voice.membership.ringQ = q
            voice.membership.ring = 6.9 * LowPassFilter.linearQ(qCentibels: q) / (Float.pi * Units.absoluteCentsToHertz(fc))
        }
        let centsPerSecond = abs(voice.sound.modEnvToFilter) * voice.modulationEnvelope.fastestFall * Float(outputRate)
        return voice.membership.ring <= 0.002 && centsPerSecond * voice.membership.ring <= 1
    }

    // MARK: - Routing a chunk

    /// Before the voice renders a chunk: a member whose bus gains changed (a pan or send
    /// controller), that is not filtered any more, or any member when sharing is off, leaves
    /// at the chunk's start, so the voice knows whether it is in a shared filter.
    @inline(__always)
    func settle(_ voice: UnsafeMutablePointer<Voice>, sharing: Bool, targets: UnsafePointer<MixTarget>) {
        let group = voice.pointee.membership.group
        guard group >= 0 else { return }
        let b = voice.pointee.note.bus
        if !sharing || !voice.pointee.isFiltered
            || !pool.matches(group, bus: b, gains: targets[b].gains(for: voice.pointee.sound)) {
            voice.pointee.membership.group = -1
        }
    }

    /// After the voice rendered its `n` frames into `out`: sends the frames that belong in a
    /// shared filter there, following the voice's joins (`.join` events, accepted here — the
    /// event then names the join slot its filter hands its state to — or turned into flushes)
    /// and leaves (a new filter target while in), and zeroes them in the voice's signal.
    /// Returns whether the voice's own filter still has work this chunk: frames of its own, or
    /// a state to hand over.
    func route(_ voice: UnsafeMutablePointer<Voice>, _ n: Int, _ out: UnsafeMutablePointer<Float>,
               _ events: FilterEvents, target: MixTarget) -> Bool {
        // (Members that had to leave at the chunk's start left before rendering.)
        var member = voice.pointee.membership.group
        let bus = voice.pointee.note.bus
        let gains = target.gains(for: voice.pointee.sound)
        var start = 0            // where the current stretch (own or shared) began
        var ownFrames = 0
        var joined = false
        for j in 0..<events.count {
            let offset = min(Int(events.base[j].offset), n)
            switch events.base[j].change {
            case .join(let coefficients, _):
                if member < 0 && offset < n,
                   let (group, slot) = pool.join(coefficients: coefficients, gains: gains, bus: bus, offset: offset) {
                    ownFrames += offset - start
                    member = group
                    start = offset
                    events.base[j].change = .join(coefficients, slot: Int32(slot))
                    joined = true
                } else {
                    events.base[j].change = .flush  // already in, or no shared filter free
                }
            case .glide, .snap:
                if member >= 0 {
                    // The cutoff moves: the voice leaves and filters on its own from silence.
                    pool.add(out, from: start, to: offset, group: member, deferred: false)
                    sharedFrames += offset - start
                    (out + start).update(repeating: 0, count: offset - start)
                    member = -1
                    start = offset
                }
            case .flush, .inject, .settle:
                break
            }
        }
        if member >= 0 {
            // A voice that joined this chunk gets its signal cleared below: add it at once.
            pool.add(out, from: start, to: n, group: member, deferred: !joined)
            sharedFrames += n - start
        } else {
            ownFrames += n - start
        }
        let ownWork = ownFrames > 0 || joined
        if member >= 0 && ownWork { (out + start).update(repeating: 0, count: n - start) }
        member = voice.pointee.isActive ? member : -1
        voice.pointee.membership.group = member
        if member >= 0 { pool.addMember(member) }
        return ownWork
    }
}

/// A voice's place in the shared filters, kept by the router: the shared filter it mixes into,
/// and the ring time its own filter would have (what ``FilterRouter/filterMayShare(_:cutoffCents:outputRate:)``
/// judges by).
struct SharedFilterMembership {
    /// The shared filter the voice mixes into, or −1 when it uses its own; set by the router.
    var group = -1
    /// The voice is in a shared filter (``group`` at the start of the chunk) and its cutoff has
    /// not moved since: it has no reason to ask to join.
    var inSharedFilter = false
    /// The filter's ring time and the cutoff and Q it is for.
    var ring: Float = 0
    var ringCents: Float = .nan
    var ringQ: Float = .nan

    /// At the start of a chunk: whether the voice is in a shared filter now.
    @inline(__always)
    mutating func beginChunk() { inSharedFilter = group >= 0 }
}
