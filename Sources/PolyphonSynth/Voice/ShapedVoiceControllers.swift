import PolyphonSoundFontCore

/// The controllers moving an SFZ voice's own volume, pan and pitch as sfizz moves them — through
/// a curve, stepped or smoothed (`volume_curveccN`, `pan_stepccN`, `pitch_smoothccN` …) — and its
/// pitch wheel when the region steps or smooths the bend (`bend_step`, `bend_smooth`): the same
/// machinery as the filters' controllers (``ShapedControllers``), one set per voice, so a
/// smoothed change starts from where the voice's own value is, as sfizz's per-voice bend
/// smoother does. Plain linear inputs stay SF2 modulators (``SFZZoneMapping/controllerModulators(_:)``).
///
/// Read at each control point: the volume where the period ends (the gain ramps to it), the
/// pitch at its middle (the period plays one pitch), the pan where it ends.
struct ShapedVoiceControllers {
    private var controllers = ShapedControllers()
    /// True when a controller moves the pan; ``smoothsPan`` when one moves it over time.
    private(set) var movesPan = false
    private(set) var smoothsPan = false

    /// True when the voice has inputs to follow.
    var isActive: Bool { controllers.isActive }

    /// True when no smoothed input is on its way.
    var isSteady: Bool { controllers.isSteady }

    /// The pan the controllers add now, in SF2's ‰ (percent × 5).
    var panPermille: Float { movesPan ? controllers.values(ahead: 0)[1] * 5 : 0 }

    /// Frames the inputs were moved on since the last control point (by a channel change
    /// between two), which the next ``advance(_:)`` leaves out.
    private var advancedSincePoint = 0

    /// Starts following the voice targets of `shaping`'s controller modulations for a note.
    mutating func start(_ shaping: VoiceShaping?, channel: Channel, key: Int, velocity: Int, outputRate: Double) {
        self = ShapedVoiceControllers()
        guard let modulations = shaping?.controllerModulations,
              modulations.contains(where: { $0.target.movesVoice }) else { return }
        controllers.start(modulations, ModulatorEvaluation.Context(channel: channel, key: key, velocity: velocity),
                          outputRate: outputRate, group: .voice)
        movesPan = modulations.contains { $0.target == .pan }
        // Under 2 frames a change is followed at once (``ShapedControllers``).
        smoothsPan = modulations.contains { $0.target == .pan && $0.smoothing * 1e-3 * Float(outputRate) >= 2 }
    }

    /// The voice's channel changed `framesSincePoint` frames after the last control point: a
    /// ramp under way is brought there, then the inputs get their new values to reach.
    mutating func channelChanged(_ channel: Channel, key: Int, velocity: Int, framesSincePoint: Int) {
        controllers.advance(framesSincePoint - advancedSincePoint)
        advancedSincePoint = framesSincePoint
        controllers.update(ModulatorEvaluation.Context(channel: channel, key: key, velocity: velocity))
    }

    /// Moves the smoothed inputs on by the `frames` since the last control point.
    mutating func advance(_ frames: Int) {
        controllers.advance(frames - advancedSincePoint)
        advancedSincePoint = 0
    }

    /// The volume (dB) and pan (percent) `frames` from now, and the pitch (cents) `frames`/2 from now.
    func ahead(_ frames: Int) -> (volume: Float, pan: Float, pitch: Float) {
        let end = controllers.values(ahead: frames)
        return (end[0], end[1], controllers.values(ahead: frames / 2)[2])
    }
}

extension Voice {
    /// A mono zone's pan gains with `percent` of the voice's pan controllers on top of its pan,
    /// its modulators' and the routed pan, during a smoothed pan move. (A stereo side's stages
    /// take the controllers' pan at note-on and at each channel change, ``updateParameters(_:_:)``.)
    mutating func applyControlledPan(_ percent: Float) {
        guard !shapedAmplitude.isStereo else { return }
        let routed = routedModulation.isActive && routedModulation.movesPan ? routedModulation.lastPlacement[0] : 0
        let pan = Units.panGains(total(.pan) + (routed + percent) * 5)
        sound.panLeft = pan.left
        sound.panRight = pan.right
    }
}

extension Voice {
    /// The voice's controllers for the coming period (``ShapedVoiceControllers/ahead(_:)``); a
    /// pan on its way moves the pan gains, which the mix ramps to within the chunk.
    @inline(__always)
    mutating func controlledPoint(_ period: Int) -> (volume: Float, pan: Float, pitch: Float) {
        let values = voiceControllers.ahead(period)
        if voiceControllers.smoothsPan && !voiceControllers.isSteady { applyControlledPan(values.pan) }
        return values
    }
}
