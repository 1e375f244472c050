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
    /// Frames since the filter was last given a new target, and that target.
    var filterHeldFrames = 0
    var filterTarget = SIMD4<Float>(repeating: 0)
    var lastCentibels: Float = .nan
    var lastTarget: Float = 0
    /// In a decay or release stage (``targetStepStage``) the level falls linearly in dB, so each
    /// full control period multiplies the gain by this same factor (0: not known).
    var targetStep: Float = 0
    var targetStepStage = VolumeEnvelope.Stage.finished
}

/// What a control point decides for the period it starts: the oscillator's pitch step, where
/// the filter goes, and the gain ramp (``Voice/controlPoint(_:)``).
struct ControlPoint {
    /// Sample points per output frame for the pitch now; nil when the pitch did not change.
    var pitchStep: Double?
    var filter: FilterTarget
    /// The gain at the period's end, and the ramp from the gain now to it.
    var gainTarget: Float
    var gain: GainRamp

    /// True when the filter was given a new target.
    var movesFilter: Bool {
        switch filter {
        case .glide, .snap: return true
        case .off, .holds: return false
        }
    }
}

/// Where a control point sends the voice's filter.
enum FilterTarget {
    /// The voice is not filtered.
    case off
    /// The filter stays where it is; the cutoff (in absolute cents) it stands at.
    case holds(cutoffCents: Float)
    /// Glides to new coefficients over the period.
    case glide(SIMD4<Float>)
    /// Jumps to its first coefficients.
    case snap(SIMD4<Float>)
}
