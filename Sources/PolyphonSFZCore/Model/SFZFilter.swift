/// One of a region's filters (`fil_*`, `cutoff`, `resonance` for the first; `fil2_*`,
/// `cutoff2` … for the next).
public struct SFZFilter: Hashable, Sendable {
    /// `fil_type` (`filtype`), default `lpf_2p`.
    public var type: SFZFilterType = .lowpass2Pole
    /// `cutoff` in Hz, and `cutoff_onccN` in cents.
    public var cutoff = SFZModulatedValue(0)
    /// `resonance` in dB, and `resonance_onccN`.
    public var resonance = SFZModulatedValue(0)
    /// `fil_gain` in dB (shelving and peaking types), and `fil_gain_onccN`.
    public var gain = SFZModulatedValue(0)
    /// `fil_keytrack`: cents of cutoff per key away from `fil_keycenter`.
    public var keytrack: Float = 0
    /// `fil_keycenter` (60).
    public var keycenter: UInt8 = 60
    /// `fil_veltrack`: cents of cutoff at full velocity, and `fil_veltrack_onccN`.
    public var velocityTracking = SFZModulatedValue(0)
    /// `fil_random`: cents of random cutoff change per note (±).
    public var random: Float = 0
    /// `cutoff_chanaft`: cents of cutoff at full channel pressure.
    public var cutoffByChannelPressure: Float = 0
    /// `cutoff_polyaft`: cents of cutoff at full key pressure.
    public var cutoffByKeyPressure: Float = 0

    /// A low-pass filter with nothing set.
    public init() {}
}

/// `fil_type` values sfizz knows (its spellings; `brf_1p` reads as `brf_2p`, `bpk_2p` and
/// `pkf_2p` as `peq`, as in Sforzando).
public enum SFZFilterType: String, Hashable, Sendable, CaseIterable {
    case lowpass1Pole = "lpf_1p", highpass1Pole = "hpf_1p"
    case lowpass2Pole = "lpf_2p", highpass2Pole = "hpf_2p"
    case bandpass2Pole = "bpf_2p", bandReject2Pole = "brf_2p", bandpass1Pole = "bpf_1p"
    case lowpass2PoleStateVariable = "lpf_2p_sv", highpass2PoleStateVariable = "hpf_2p_sv"
    case bandpass2PoleStateVariable = "bpf_2p_sv", bandReject2PoleStateVariable = "brf_2p_sv"
    case lowpass4Pole = "lpf_4p", highpass4Pole = "hpf_4p"
    case lowpass6Pole = "lpf_6p", highpass6Pole = "hpf_6p"
    case pink, lowShelf = "lsh", highShelf = "hsh", peaking = "peq"

    /// The type a `fil_type` value names, with sfizz's extra spellings.
    public init?(sfzName: String) {
        switch sfzName {
        case "brf_1p": self = .bandReject2Pole
        case "bpk_2p", "pkf_2p": self = .peaking
        default: self.init(rawValue: sfzName)
        }
    }
}

/// An equaliser band (`eq1_*`, `eq2_*`, `eq3_*`).
public struct SFZEqualizer: Hashable, Sendable {
    /// `eqN_type`.
    public var type: SFZEqualizerType = .peak
    /// `eqN_freq` in Hz (by default 50, 500 and 5000 for bands 1–3, as sfizz), and
    /// `eqN_freq_onccN`.
    public var frequency: SFZModulatedValue
    /// `eqN_bw` in octaves (1), and `eqN_bw_onccN`.
    public var bandwidth = SFZModulatedValue(1)
    /// `eqN_gain` in dB, and `eqN_gain_onccN`.
    public var gain = SFZModulatedValue(0)
    /// `eqN_vel2freq`: Hz added at full velocity.
    public var velocityToFrequency: Float = 0
    /// `eqN_vel2gain`: dB added at full velocity.
    public var velocityToGain: Float = 0

    /// Band `index` (from 0) with sfizz's default frequency for it.
    public init(index: Int) {
        let defaults: [Float] = [50, 500, 5000]
        frequency = SFZModulatedValue(index < defaults.count ? defaults[index] : 0)
    }
}

/// `eqN_type`.
public enum SFZEqualizerType: String, Hashable, Sendable {
    case peak, lowShelf = "lshelf", highShelf = "hshelf"
}
