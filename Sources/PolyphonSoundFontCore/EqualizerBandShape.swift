/// One equaliser band of a voice (SFZ `eqN_*`, sfizz's designs): an RBJ peaking band or shelf
/// at ``frequency`` Hz, ``bandwidth`` octaves wide, boosting or cutting by ``gain`` dB.
public struct EqualizerBandShape: Hashable, Sendable {
    /// The band's response.
    public enum Kind: UInt8, Hashable, Sendable {
        case peak, lowShelf, highShelf
    }

    public var kind: Kind
    /// Centre (or corner) frequency in Hz.
    public var frequency: Float
    /// Width in octaves (the biquad's Q is 1 / (2·sinh(ln 2 / 2 · bandwidth · w₀ / sin w₀))).
    public var bandwidth: Float
    /// Boost (or cut, negative) in dB.
    public var gain: Float
    /// Hz added to the frequency at full velocity (scaled by velocity/127).
    public var velocityToFrequency: Float
    /// dB added to the gain at full velocity (scaled by velocity/127).
    public var velocityToGain: Float

    /// A band of `kind` at `frequency` Hz, `bandwidth` octaves wide, of `gain` dB.
    public init(_ kind: Kind = .peak, frequency: Float, bandwidth: Float = 1, gain: Float,
                velocityToFrequency: Float = 0, velocityToGain: Float = 0) {
        self.kind = kind
        self.frequency = frequency
        self.bandwidth = bandwidth
        self.gain = gain
        self.velocityToFrequency = velocityToFrequency
        self.velocityToGain = velocityToGain
    }
}
