import PolyphonSoundFontCore

/// One DLS articulation connection block (`art1`/`art2`, DLS 1 §2.8 / DLS 2.2 §1.14):
/// `scale × transform(source) × control` added to `destination`.
public struct DLSConnection: Hashable, Sendable {
    /// The modulating source (``Source``), such as an LFO, velocity or a MIDI controller.
    public var source: UInt16
    /// The secondary source that scales the connection (``Source/none`` for 1).
    public var control: UInt16
    /// The parameter modulated (``Destination``).
    public var destination: UInt16
    /// Curves, polarity and inversion of source and control (DLS 2 bit layout; in DLS 1 only
    /// the low bits: 0 none, 1 concave).
    public var transform: UInt16
    /// The amount, in the destination's units × 65536 (time cents, pitch cents, centibels of
    /// gain, 0.1 % ...).
    public var scale: Int32

    /// A connection block.
    public init(source: UInt16 = Source.none, control: UInt16 = Source.none, destination: UInt16,
                transform: UInt16 = 0, scale: Int32) {
        self.source = source
        self.control = control
        self.destination = destination
        self.transform = transform
        self.scale = scale
    }

    /// The `CONN_SRC_*` values.
    public enum Source {
        /// No source: a constant 1 (the connection sets a parameter).
        public static let none: UInt16 = 0x0000
        /// The (modulation) LFO.
        public static let lfo: UInt16 = 0x0001
        /// Note-on velocity.
        public static let keyOnVelocity: UInt16 = 0x0002
        /// Note number.
        public static let keyNumber: UInt16 = 0x0003
        /// The volume envelope (EG1).
        public static let eg1: UInt16 = 0x0004
        /// The modulation envelope (EG2).
        public static let eg2: UInt16 = 0x0005
        /// Pitch wheel.
        public static let pitchWheel: UInt16 = 0x0006
        /// Polyphonic key pressure (DLS 2).
        public static let polyPressure: UInt16 = 0x0007
        /// Channel pressure (DLS 2).
        public static let channelPressure: UInt16 = 0x0008
        /// The vibrato LFO (DLS 2).
        public static let vibrato: UInt16 = 0x0009
        /// Mono (channel) pressure (DLS 2).
        public static let monoPressure: UInt16 = 0x000A
        /// MIDI controller `n` is `0x0080 | n` (CC1, 7, 10, 11, 91, 93 in the specs).
        public static func cc(_ n: UInt8) -> UInt16 { 0x0080 | UInt16(n & 0x7F) }
        /// RPN 0: pitch-bend range.
        public static let rpn0: UInt16 = 0x0100
        /// RPN 1: fine tune.
        public static let rpn1: UInt16 = 0x0101
        /// RPN 2: coarse tune.
        public static let rpn2: UInt16 = 0x0102
    }

    /// The `CONN_DST_*` values.
    public enum Destination {
        /// No destination.
        public static let none: UInt16 = 0x0000
        /// Gain (named attenuation in DLS 1), centibels × 65536; negative is quieter.
        public static let gain: UInt16 = 0x0001
        /// Pitch, cents × 65536.
        public static let pitch: UInt16 = 0x0003
        /// Pan, 0.1 % × 65536 (−500 left … 500 right).
        public static let pan: UInt16 = 0x0004
        /// Key number (DLS 2).
        public static let keyNumber: UInt16 = 0x0005
        /// Chorus send (DLS 2), 0.1 % × 65536.
        public static let chorus: UInt16 = 0x0080
        /// Reverb send (DLS 2), 0.1 % × 65536.
        public static let reverb: UInt16 = 0x0081
        /// LFO frequency, absolute pitch cents × 65536.
        public static let lfoFrequency: UInt16 = 0x0104
        /// LFO start delay, time cents × 65536.
        public static let lfoStartDelay: UInt16 = 0x0105
        /// Vibrato LFO frequency (DLS 2).
        public static let vibratoFrequency: UInt16 = 0x0114
        /// Vibrato LFO start delay (DLS 2).
        public static let vibratoStartDelay: UInt16 = 0x0115
        /// EG1 (volume envelope) stages, time cents × 65536.
        public static let eg1AttackTime: UInt16 = 0x0206
        /// EG1 decay time.
        public static let eg1DecayTime: UInt16 = 0x0207
        /// EG1 release time.
        public static let eg1ReleaseTime: UInt16 = 0x0209
        /// EG1 sustain level, 0.1 % × 65536.
        public static let eg1SustainLevel: UInt16 = 0x020A
        /// EG1 delay time (DLS 2).
        public static let eg1DelayTime: UInt16 = 0x020B
        /// EG1 hold time (DLS 2).
        public static let eg1HoldTime: UInt16 = 0x020C
        /// EG1 shutdown time (DLS 2): how fast an exclusive-class note is cut.
        public static let eg1ShutdownTime: UInt16 = 0x020D
        /// EG2 (modulation envelope) attack time.
        public static let eg2AttackTime: UInt16 = 0x030A
        /// EG2 decay time.
        public static let eg2DecayTime: UInt16 = 0x030B
        /// EG2 release time.
        public static let eg2ReleaseTime: UInt16 = 0x030D
        /// EG2 sustain level, 0.1 % × 65536.
        public static let eg2SustainLevel: UInt16 = 0x030E
        /// EG2 delay time (DLS 2).
        public static let eg2DelayTime: UInt16 = 0x030F
        /// EG2 hold time (DLS 2).
        public static let eg2HoldTime: UInt16 = 0x0310
        /// Filter cutoff (DLS 2), absolute pitch cents × 65536.
        public static let filterCutoff: UInt16 = 0x0500
        /// Filter resonance (DLS 2), centibels × 65536.
        public static let filterQ: UInt16 = 0x0501
    }

    /// The `CONN_TRN_*` curve values.
    public enum Curve {
        /// Linear.
        public static let none: UInt16 = 0
        /// Concave (the velocity and volume curve).
        public static let concave: UInt16 = 1
        /// Convex (DLS 2).
        public static let convex: UInt16 = 2
        /// Switch (DLS 2).
        public static let `switch`: UInt16 = 3
    }

    /// The source's curve: DLS 2 keeps it in bits 10–13; DLS 1's whole-connection transform
    /// (bits 0–3) is used when those are clear.
    public var sourceCurve: UInt16 {
        let dls2 = (transform >> 10) & 0xF
        return dls2 != 0 ? dls2 : transform & 0xF
    }
    /// DLS 2: the source is bipolar (bit 14).
    public var sourceIsBipolar: Bool { transform & 0x4000 != 0 }
    /// DLS 2: the source is inverted (bit 15).
    public var sourceIsInverted: Bool { transform & 0x8000 != 0 }
    /// DLS 2: the control's curve (bits 4–7).
    public var controlCurve: UInt16 { (transform >> 4) & 0xF }
    /// DLS 2: the control is bipolar (bit 8).
    public var controlIsBipolar: Bool { transform & 0x0100 != 0 }
    /// DLS 2: the control is inverted (bit 9).
    public var controlIsInverted: Bool { transform & 0x0200 != 0 }
}
