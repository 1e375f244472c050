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
}
