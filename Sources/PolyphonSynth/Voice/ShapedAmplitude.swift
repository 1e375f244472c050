import PolyphonSoundFontCore

/// A voice's level beyond SF2 (``AmplitudeShape``, ``StereoShape``: SFZ regions) with sfizz's
/// formulas. The note's part — velocity curve, key tracking, random draw, key and velocity
/// crossfades, gain above 0 dB — is one number of centibels worked out when the voice starts;
/// the controllers' part — controller crossfades and `amplitude_onccN` — a linear gain, and a
/// stereo side's two channel gains, are worked out again whenever a controller moves. Nothing
/// is computed per sample or per block.
struct ShapedAmplitude {
    /// Whether the voice has an amplitude shape (its attenuation may then fall below 0).
    private(set) var isActive = false
    /// Centibels of attenuation the note adds (negative: louder); 0 without a shape.
    private(set) var noteCentibels: Float = 0
    /// The controllers' part, linear (1 without).
    private(set) var controllerGain: Float = 1
    /// False when the note's part is silence: the voice can never be heard.
    private(set) var isAudible = true
    private var shape: AmplitudeShape?
    private var stereo: StereoShape?
    /// True for one side of a stereo sample (placed by its own pan, width and position stages).
    var isStereo: Bool { stereo != nil }
    /// The amplitude envelope read again when a controller moves (SFZ `ampeg_dynamic`), nil
    /// for every other voice (``Voice/followDynamicEnvelope(_:_:)``).
    private(set) var dynamicEnvelope: VolumeEnvelopeShape?

    /// sfizz adds 6 dB after its two pan stages on a stereo region and 3 dB after its one on a
    /// mono region; the engine's mono pan has no such gain, so a stereo side gets the 3 dB
    /// between them and the two kinds of region keep sfizz's balance.
    static let stereoGain: Float = 1.9952623149688797 / 1.4125375446227544

    /// Starts the voice's shape for `key` at `velocity`, reading `channel`'s controllers for
    /// `amp_veltrack_onccN`; `noteSeed` is the note's number for `amp_random`.
    mutating func start(_ shaping: VoiceShaping?, key: Int, velocity: Int, channel: Channel, noteSeed: UInt64) {
        shape = shaping?.amplitude
        stereo = shaping?.stereo
        dynamicEnvelope = nil
        if let envelope = shaping?.noteStart?.volumeEnvelope, envelope.isDynamic { dynamicEnvelope = envelope }
        isActive = shape != nil
        noteCentibels = 0
        controllerGain = 1
        isAudible = true
        guard let shape else { return }
        var decibels = shape.gain + shape.keytrack * Float(key - Int(shape.keycenter))
        if shape.random != 0 { decibels += shape.random * NoteDraw.uniform(noteSeed, stream: shape.randomStream) }
        var linear: Float = 1
        if let tracking = shape.velocity {
            var offset: Float = 0
            for input in tracking.controllers { offset += Self.contribution(channel, input) }
            linear *= tracking.gain(velocity: velocity, trackingOffset: offset)
        }
        for fade in shape.noteCrossfades {
            linear *= fade.gain(at: fade.source == .key ? Float(key) : Float(min(max(velocity, 0), 127)) / 127)
        }
        guard linear > 0 else {
            isAudible = false
            noteCentibels = 1440
            return
        }
        // At most 144 dB louder: an absurd key tracking or gain stays finite.
        noteCentibels = max(-10 * decibels - 200 * Float(Math.log10(Double(linear))), -1440)
    }

    /// The controllers' part after a controller moved on `channel`.
    mutating func update(_ channel: Channel) {
        guard let shape, shape.followsControllers else { return }
        var gain: Float = 1
        for input in shape.controllerGains { gain *= Self.contribution(channel, input) }
        for crossfade in shape.controllerCrossfades {
            gain *= crossfade.fade.gain(at: Self.value(channel, crossfade.controller))
        }
        // Depths of up to 10000 % multiply: bounded at +80 dB so the output stays finite.
        controllerGain = min(max(gain, 0), 10_000)
    }

    /// A stereo side's gains into the left and right outputs, `panModulation` (‰) moving its
    /// pan, nil for a mono zone: sfizz's pan, width and position stages.
    func stereoGains(panModulation: Float, _ channel: Channel) -> (left: Float, right: Float)? {
        guard let placement = stereoPlacement(channel) else { return nil }
        return stereoGains(panModulation: panModulation, width: placement[0], position: placement[1])
    }

    /// A stereo side's width and position (fractions) with their controllers on `channel`,
    /// nil for a mono zone.
    func stereoPlacement(_ channel: Channel) -> SIMD2<Float>? {
        guard let stereo else { return nil }
        var width = stereo.width, position = stereo.position
        for input in stereo.widthControllers { width += Self.contribution(channel, input) }
        for input in stereo.positionControllers { position += Self.contribution(channel, input) }
        return SIMD2(width, position)
    }

    /// A stereo side's gains at `width` and `position` (fractions, ``stereoPlacement(_:)`` with
    /// any modulation added), nil for a mono zone.
    func stereoGains(panModulation: Float, width: Float, position: Float) -> (left: Float, right: Float)? {
        guard let stereo else { return nil }
        let pan = stereo.pan + panModulation / 500
        // Each stage: a fraction −1…1 read as p = (x + 1)/2, gains cos(p·π/2) and cos((1 − p)·π/2).
        let panned = Self.stage(pan), widened = Self.stage(width), placed = Self.stage(position)
        // Width mixes the sides: left' = l·cos((1 − w)π/2) + r·cos(wπ/2), right' = l·cos(wπ/2) + r·cos((1 − w)π/2).
        let (own, across) = (widened.right, widened.left)
        let side = stereo.side == .left ? panned.left : panned.right
        let toLeft = stereo.side == .left ? own : across
        let toRight = stereo.side == .left ? across : own
        return (side * toLeft * placed.left * Self.stereoGain, side * toRight * placed.right * Self.stereoGain)
    }

    /// A pan stage's gains for `x` (−1…1): cos(p·π/2) on the left, cos((1 − p)·π/2) on the right.
    private static func stage(_ x: Float) -> (left: Float, right: Float) {
        let p = min(max((x + 1) / 2, 0), 1)
        return (Math.cos(p * (Float.pi / 2)), Math.cos((1 - p) * (Float.pi / 2)))
    }

    /// What `input` contributes at its controller's value on `channel`.
    private static func contribution(_ channel: Channel, _ input: ControllerDepth) -> Float {
        input.contribution(at: channel.controllers[input.controller & 127])
    }

    /// A controller's value on `channel` as sfizz reads it, value/127.
    private static func value(_ channel: Channel, _ controller: UInt8) -> Float {
        Float(channel.controllers[Int(controller & 127)]) / 127
    }
}
