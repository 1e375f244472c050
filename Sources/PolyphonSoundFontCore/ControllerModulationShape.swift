/// A controller moving one parameter of a voice, its filters or equaliser bands as sfizz moves it:
/// the controller's value (0…1) read through a 128-point curve, times ``depth`` in the
/// parameter's unit, truncated to a multiple of ``step``, followed linearly over the smoothing
/// time.
public struct ControllerModulationShape: Hashable, Sendable {
    /// What the controller moves.
    public enum Target: UInt8, Hashable, Sendable {
        /// Cents of the filter's cutoff (sfizz multiplies the cutoff by 2^(cents/1200)).
        case cutoff
        /// dB of the filter's resonance.
        case resonance
        /// dB of the filter's shelf or peak gain.
        case filterGain
        /// Hz added to an equaliser band's frequency.
        case equalizerFrequency
        /// Octaves added to an equaliser band's width.
        case equalizerBandwidth
        /// dB added to an equaliser band's gain.
        case equalizerGain
        /// dB added to the voice's volume (SFZ `volume_onccN`).
        case volume
        /// Percent added to the voice's pan, −100 (left) … 100 (right) (SFZ `pan_onccN`).
        case pan
        /// Cents added to the voice's pitch (SFZ `pitch_onccN`, `tune_onccN`).
        case pitch
        /// Cents added to the pitch by the wheel above its centre: the wheel's travel up (0…1)
        /// times ``ControllerModulationShape/depth`` (SFZ `bend_up` with `bend_step` or
        /// `bend_smooth`). The step applies whatever the depth's sign.
        case bendUp
        /// Cents added to the pitch by the wheel below its centre: its travel down (−1…0) times
        /// ``ControllerModulationShape/depth`` (SFZ −`bend_down`).
        case bendDown

        /// True for the targets the voice itself moves (volume, pan, pitch), false for those
        /// of its filters and equaliser bands.
        public var movesVoice: Bool { rawValue >= Self.volume.rawValue }
    }

    /// The source, in SFZ's numbering: MIDI controllers 0–127, pitch bend 128 (−1…1),
    /// channel pressure 129, key pressure 130, note-on velocity 131, key number 133.
    public var controller: Int
    public var target: Target
    /// Which filter (0, 1) or equaliser band (0–2) the target belongs to.
    public var index: Int
    /// What the controller adds at full scale, in the target's unit.
    public var depth: Float
    /// The curve's value at controller values 0…127 (empty: linear 0…1).
    public var curve: [Float]
    /// Milliseconds over which a change is followed (0: at once).
    public var smoothing: Float
    /// The step the modulation moves by, in the target's unit, truncating toward 0 (0: none);
    /// as in sfizz, a depth of 0 or below has none (except the bend's), and the note's own
    /// velocity and key (131, 133) step their source, 0…1, not the target;
    /// sfizz_render quantises `eq1_gain_stepcc20=0.25` to quarters of a dB.
    public var step: Float

    /// Controller `controller` moving `target` of filter or band `index` by `depth` at full scale.
    public init(controller: Int, target: Target, index: Int = 0, depth: Float, curve: [Float] = [],
                smoothing: Float = 0, step: Float = 0) {
        self.controller = controller
        self.target = target
        self.index = index
        self.depth = depth
        self.curve = curve
        self.smoothing = smoothing
        self.step = step
    }
}
