/// What every voice of one synthesizer renders with: fixed when the synthesizer is created and
/// held once, handed to the voices as they start, update and render.
struct RenderContext {
    /// Output sample rate.
    let outputRate: Double
    /// Output gain (``SynthesizerConfiguration/gain``) times FluidSynth's level factor.
    let outputGain: Float
    let velocityToFilter: VelocityToFilterMode
    let interpolation: Interpolation
    /// Interpolation coefficients, shared by every synthesizer.
    let tables: InterpolationTables
    /// sin ω and 1 − cos ω of filter cutoffs at this output rate.
    let cutoffTable: CutoffTable
    /// Frames a voice plays before a release may begin (``SynthesizerConfiguration/minimumNoteLength``
    /// in whole control periods; 0: none).
    let minimumNoteFrames: Int
    /// Envelope stages, LFO delays and resonant cutoffs in FluidSynth's 64-frame blocks
    /// (``SynthesizerConfiguration/fluidSynthCompatible``).
    var fluidSynthBlockTiming = false
    /// Pitch in whole cents, rounded down, as FluidSynth's cents-to-hertz table plays it
    /// (``SynthesizerConfiguration/fluidSynthCompatible``); exact otherwise.
    var wholeCentPitch = false
    /// Each voice's filter flushes tiny state at every control point (``DenormalMode``); tests
    /// switch it on where the hardware flushes denormals, to compare both paths there.
    var explicitFilterFlush = DenormalMode.explicitFilterFlush

    /// `seconds` at `rate` as FluidSynth counts it (whole frames), rounded up to whole control periods.
    static func minimumNoteFrames(seconds: Double, rate: Double) -> Int {
        guard seconds > 0, seconds.isFinite else { return 0 }
        let frames = Int(min(seconds * rate, 1e9))
        let period = Voice.controlPeriod
        return (frames + period - 1) / period * period
    }
}
