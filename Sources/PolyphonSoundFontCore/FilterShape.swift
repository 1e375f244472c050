/// A voice filter other than SoundFont 2's resonant low-pass: its response and order, where it
/// sits and how it tracks the key and velocity — what SFZ's `fil_type`, `cutoff`, `resonance`,
/// `fil_gain`, `fil_keytrack`, `fil_keycenter`, `fil_veltrack` (and its `_onccN`) and `fil_random`
/// describe (sfizz's designs).
///
/// A zone whose ``VoiceShaping`` has one plays it in place of the SF2 filter: `initialFilterFc` and
/// `initialFilterQ` are then unused, while modulators aimed at them add to the shape's cutoff
/// (cents) and resonance (centibels), and `modEnvToFilterFc` and `modLfoToFilterFc` move its
/// cutoff as they move the SF2 filter's.
public struct FilterShape: Hashable, Sendable {
    /// What the filter lets through.
    public enum Response: UInt8, Hashable, Sendable {
        case lowPass, highPass, bandPass, bandReject
        /// RBJ shelves and peaking band: ``FilterShape/gain`` dB below, above or around the cutoff.
        case lowShelf, highShelf, peaking
        /// The state-variable band-pass (`bpf_2p_sv`): the band-pass with its peak at the
        /// resonance (Q) rather than at 0 dB. (The other state-variable types have their
        /// biquad twins' response.)
        case stateVariableBandPass
        /// Faust's pink-noise filter (−3 dB per octave; no cutoff).
        case pink
    }

    /// What the filter lets through.
    public var response: Response
    /// The order: 1 (one pole), 2 (an RBJ biquad), 4 or 6 (two or three biquads in series).
    public var poles: Int
    /// Cutoff (centre frequency for band-pass and band-reject) in Hz.
    public var cutoff: Float
    /// Resonance in dB (the biquads' Q is 10^(dB/20)).
    public var resonance: Float
    /// Cents of cutoff per key above ``keycenter``.
    public var keytrack: Float
    /// The key at which ``keytrack`` leaves the cutoff alone.
    public var keycenter: UInt8
    /// Cents of cutoff at full velocity (scaled by velocity/127).
    public var velocityTracking: Float
    /// Gain in dB of the shelving and peaking responses.
    public var gain: Float = 0
    /// MIDI controllers (0–127) adding to ``velocityTracking`` (cents) at note-on, through their
    /// curves (`fil_veltrack_onccN`).
    public var velocityTrackingControllers: [ControllerDepth] = []
    /// Cents of cutoff drawn per note, uniformly between 0 and this (`fil_random`).
    public var random: Float = 0
    /// Filters of the same stream draw the same number for a note (the two sides of a stereo
    /// file); different streams draw independently.
    public var randomStream: UInt32 = 0

    /// A filter of `response` and `poles` at `cutoff` Hz with `resonance` dB.
    public init(_ response: Response, poles: Int, cutoff: Float, resonance: Float = 0, keytrack: Float = 0,
                keycenter: UInt8 = 60, velocityTracking: Float = 0) {
        self.response = response
        self.poles = poles
        self.cutoff = cutoff
        self.resonance = resonance
        self.keytrack = keytrack
        self.keycenter = keycenter
        self.velocityTracking = velocityTracking
    }
}
