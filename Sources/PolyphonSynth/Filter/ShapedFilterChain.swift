import PolyphonSoundFontCore

/// What an SFZ voice runs after its oscillator in place of the SF2 low-pass, in sfizz's order:
/// its first filter, its second (`fil2_*`) in series, then its equaliser bands (`eqN_*`), each
/// moved by the controllers aimed at it (``ShapedControllers``) and the first also by the
/// voice's envelopes and LFOs.
///
/// Chosen at note-on from the region's ``VoiceShaping``; an SF2 voice's chain is inactive and
/// costs it one test per rendered stretch.
struct ShapedFilterChain {
    /// True when any stage plays (and the SF2 low-pass stays off).
    private(set) var isActive = false
    private(set) var first = ShapedFilter()
    private(set) var second = ShapedFilter()
    private var band0 = ShapedFilter()
    private var band1 = ShapedFilter()
    private var band2 = ShapedFilter()
    private var controllers = ShapedControllers()
    /// Frames rendered since the last ``aim(cents:resonance:outputRate:frames:)``, which the
    /// smoothed controllers are moved on by.
    private var framesSinceAim = 0

    /// The first filter's cutoff with its key and velocity tracking, in absolute cents.
    var baseCents: Float { first.baseCents }
    /// The first filter's resonance in dB.
    var baseResonance: Float { first.baseResonance }

    /// True when nothing moves until the channel changes: no coefficient glides, no smoothed
    /// controller on its way.
    var isSteady: Bool {
        !first.isGliding && !second.isGliding && !band0.isGliding && !band1.isGliding && !band2.isGliding
            && controllers.isSteady
    }

    /// Starts the chain for a note from the region's shaping (inactive without one).
    mutating func start(_ shaping: VoiceShaping?, channel: Channel, key: Int, velocity: Int, noteSeed: UInt64,
                        outputRate: Double) {
        first.start(shaping?.filter, key: key, velocity: velocity, channel: channel, noteSeed: noteSeed)
        second.start(shaping?.secondFilter, key: key, velocity: velocity, channel: channel, noteSeed: noteSeed)
        band0 = ShapedFilter()
        band1 = ShapedFilter()
        band2 = ShapedFilter()
        framesSinceAim = 0
        let modulations = shaping?.controllerModulations ?? []
        if let shaping {
            for (index, band) in shaping.equalizers.prefix(3).enumerated()
            where Self.bandPlays(band, index: index, modulations) || Self.routesMoveGain(of: index, shaping) {
                switch index {
                case 0: band0.start(band: band, velocity: velocity)
                case 1: band1.start(band: band, velocity: velocity)
                default: band2.start(band: band, velocity: velocity)
                }
            }
        }
        isActive = first.isActive || second.isActive || band0.isActive || band1.isActive || band2.isActive
        controllers = ShapedControllers()
        if isActive && !modulations.isEmpty {
            controllers.start(modulations, ModulatorEvaluation.Context(channel: channel, key: key, velocity: velocity),
                              outputRate: outputRate)
        }
    }

    /// A band that can only ever be flat (no gain, none by velocity, controller, LFO or
    /// envelope) is left out: the RBJ designs at 0 dB pass the signal unchanged.
    static func bandPlays(_ band: EqualizerBandShape, index: Int, _ modulations: [ControllerModulationShape]) -> Bool {
        band.gain != 0 || band.velocityToGain != 0
            || modulations.contains { $0.target == .equalizerGain && $0.index == index && $0.depth != 0 }
    }

    /// Whether a v2 LFO or flex envelope the voice plays moves band `index`'s gain.
    static func routesMoveGain(of index: Int, _ shaping: VoiceShaping) -> Bool {
        let gain = ModulationTarget.band(index, part: 2)
        func moves(_ routes: [ModulationRoute]) -> Bool {
            routes.contains { $0.target == gain && ($0.depth != 0 || !$0.depthControllers.isEmpty) }
        }
        return shaping.routedLFOs.prefix(RoutedLFOShape.voiceLimit).contains { moves($0.routes) }
            || shaping.flexEnvelopes.prefix(FlexEnvelopeShape.voiceLimit).contains { moves($0.routes) }
    }

    /// The voice's channel changed: new values for the controllers to reach.
    mutating func channelChanged(_ channel: Channel, key: Int, velocity: Int) {
        guard controllers.isActive else { return }
        // A ramp under way is where the frames since the last control point took it.
        controllers.advance(framesSinceAim)
        framesSinceAim = 0
        controllers.update(ModulatorEvaluation.Context(channel: channel, key: key, velocity: velocity))
    }

    /// Aims the stages where the coming period of `frames` frames ends: the first filter at
    /// `cents` (absolute, with the voice's modulation) and `resonance` dB, every stage with its
    /// controllers and `modulation` (the voice's LFOs and envelopes, in the controllers' slots).
    mutating func aim(cents: Float, resonance: Float, modulation: SIMD16<Float> = SIMD16(repeating: 0),
                      outputRate: Double, frames: Int) {
        var m = modulation
        if controllers.isActive {
            controllers.advance(framesSinceAim)
            m += controllers.values(ahead: frames)
        }
        framesSinceAim = 0
        if first.isActive {
            first.aim(cents: cents + m[0], resonance: resonance + m[1], gain: first.baseGain + m[2],
                      outputRate: outputRate, frames: frames)
        }
        if second.isActive {
            second.aim(cents: second.baseCents + m[3], resonance: second.baseResonance + m[4],
                       gain: second.baseGain + m[5], outputRate: outputRate, frames: frames)
        }
        Self.aim(&band0, m[6], m[7], m[8], outputRate: outputRate, frames: frames)
        Self.aim(&band1, m[9], m[10], m[11], outputRate: outputRate, frames: frames)
        Self.aim(&band2, m[12], m[13], m[14], outputRate: outputRate, frames: frames)
    }

    /// Aims an active equaliser band with its controllers' Hz, octaves and dB.
    private static func aim(_ band: inout ShapedFilter, _ hertz: Float, _ octaves: Float, _ decibels: Float,
                            outputRate: Double, frames: Int) {
        guard band.isActive else { return }
        band.aimBand(hertz: band.baseCents + hertz, bandwidth: band.baseResonance + octaves,
                     gain: band.baseGain + decibels, outputRate: outputRate, frames: frames)
    }

    /// Runs the stages over `count` frames of `buffer` in place.
    mutating func process(_ buffer: UnsafeMutablePointer<Float>, count: Int) {
        framesSinceAim += count
        if first.isActive { first.process(buffer, count: count) }
        if second.isActive { second.process(buffer, count: count) }
        if band0.isActive { band0.process(buffer, count: count) }
        if band1.isActive { band1.process(buffer, count: count) }
        if band2.isActive { band2.process(buffer, count: count) }
    }
}
