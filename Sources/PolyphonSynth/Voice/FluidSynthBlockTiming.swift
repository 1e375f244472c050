/// FluidSynth's block timing (part of ``SynthesizerConfiguration/fluidSynthCompatible``), for renders
/// that should come as close to FluidSynth 2.6's as they can.
///
/// FluidSynth steps its envelopes and LFOs once per 64-frame block and counts each stage in
/// whole blocks (`fluid_voice.c`): a delay rounded down (its shortest, 1 ms, is no block at
/// all), an attack or a release one block more than rounded down, a hold or a decay to the
/// nearest block; an LFO starts with the first block that begins after its delay. The SoundFont
/// text gives the times exactly, which is what Polyphon plays by default; the two differ by up
/// to 1.45 ms a stage at 44.1 kHz, enough to change the click of a 1 ms drum onset.
///
/// Since 2.4 FluidSynth also lets a resonant filter's cutoff follow its modulators with a lag:
/// each block it moves 1/lag of the way from where it is to where the modulators put it, the
/// lag being the filter's linear Q clamped to 1…5 blocks, so a fast sweep of a steep resonance
/// does not burst out of the filter's state (FluidSynth 2.3 rescaled the state instead). Only
/// with both does a fast resonant sweep render like 2.6: the lag carries on whatever cutoff the
/// sweep started from.
enum FluidSynthBlockTiming {
    /// FluidSynth's block (`FLUID_BUFSIZE`), which is also Polyphon's control period.
    static let block = Double(Voice.controlPeriod)

    /// A voice's stage times in frames, as FluidSynth counts them.
    static func stages(_ exact: StageFrames) -> StageFrames {
        StageFrames(delay: (exact.delay / block).rounded(.down) * block,
                    attack: ((exact.attack / block).rounded(.down) + 1) * block,
                    hold: (exact.hold / block).rounded(.toNearestOrAwayFromZero) * block,
                    decay: (exact.decay / block).rounded(.toNearestOrAwayFromZero) * block,
                    release: release(exact.release))
    }

    /// A release as FluidSynth counts it: one block more than rounded down.
    static func release(_ frames: Double) -> Double { ((frames / block).rounded(.down) + 1) * block }

    /// An LFO delay ended on the first block boundary at or after it.
    static func lfoDelay(_ frames: Double) -> Double { (frames / block).rounded(.up) * block }

    /// The lag in blocks for a resonance in centibels: the filter's linear Q, at least 1 and at
    /// most 5.
    static func cutoffLag(qCentibels: Float) -> Float {
        max(1, min(5, LowPassFilter.linearQ(qCentibels: max(0, qCentibels))))
    }
}

/// An envelope's timed stages in frames (the sustain is a level, not a time).
struct StageFrames {
    var delay: Double
    var attack: Double
    var hold: Double
    var decay: Double
    var release: Double
}

extension Voice {
    /// The cutoff for this control point given where the modulators put it: all of the way
    /// unless FluidSynth's lag is asked for, and always for the first point. A change of a cent
    /// or less is taken at once, as FluidSynth takes it, so a settled cutoff stops moving.
    @inline(__always)
    func laggedCutoff(_ target: Float) -> Float {
        let lag = sound.filterCutoffLag
        guard lag > 1, filter.isPrimed else { return target }
        let gap = target - control.lastFilterCents
        return abs(gap) > 1 ? control.lastFilterCents + gap / lag : target
    }
}
