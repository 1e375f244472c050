import PolyphonMath

/// Equal temperament, A4 = key 69 = 440 Hz, in the platform-independent functions the bank's
/// samples are made with.
extension PortableMath {
    /// Frequency in Hz of a (fractional) MIDI key.
    static func frequency(ofKey key: Double) -> Double { 440 * exp2((key - 69) / 12) }

    /// The fractional MIDI key of a frequency.
    static func key(ofFrequency f: Double) -> Double { 69 + 12 * log2(f / 440) }
}
