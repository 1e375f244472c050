/// A modulator source operator (SF2 2.04 §8.2): a 16-bit field packing the controller index,
/// the CC flag, direction, polarity and curve type.
public struct ModulatorSource: Hashable, Sendable {
    /// The packed 16-bit field as stored in the file.
    public var rawValue: UInt16

    /// A source from its packed file value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// General controller palette (CC flag clear), SF2 2.04 §8.2.1.
    public enum GeneralController: UInt8, Sendable {
        case noController = 0
        case noteOnVelocity = 2
        case noteOnKeyNumber = 3
        case polyPressure = 10
        case channelPressure = 13
        case pitchWheel = 14
        case pitchWheelSensitivity = 16
        case link = 127
    }

    /// How the normalised controller value is shaped (SF2 2.04 §8.2.4).
    public enum Curve: UInt8, Sendable {
        case linear = 0, concave = 1, convex = 2, `switch` = 3
    }

    /// A source from its fields: controller index, CC flag, direction, polarity and curve.
    public init(controller: UInt8, isCC: Bool, isDecreasing: Bool = false,
                isBipolar: Bool = false, curve: Curve = .linear) {
        var v = UInt16(controller & 0x7F)
        if isCC { v |= 0x80 }
        if isDecreasing { v |= 0x100 }
        if isBipolar { v |= 0x200 }
        v |= UInt16(curve.rawValue) << 10
        rawValue = v
    }

    /// A general-controller source (velocity, key, pressure, pitch wheel, ...).
    public init(_ general: GeneralController, isDecreasing: Bool = false,
                isBipolar: Bool = false, curve: Curve = .linear) {
        self.init(controller: general.rawValue, isCC: false, isDecreasing: isDecreasing,
                  isBipolar: isBipolar, curve: curve)
    }

    /// A MIDI continuous-controller source.
    public static func cc(_ number: UInt8, isDecreasing: Bool = false, isBipolar: Bool = false,
                          curve: Curve = .linear) -> ModulatorSource {
        ModulatorSource(controller: number, isCC: true, isDecreasing: isDecreasing,
                        isBipolar: isBipolar, curve: curve)
    }

    /// No source: the modulator (or its amount source) contributes a constant 1.
    public static let none = ModulatorSource(rawValue: 0)

    /// Controller index (7 bits).
    public var index: UInt8 { UInt8(rawValue & 0x7F) }
    /// True when ``index`` is a MIDI continuous controller number.
    public var isCC: Bool { rawValue & 0x80 != 0 }
    /// True when the source maps max → min (the "D" bit).
    public var isDecreasing: Bool { rawValue & 0x100 != 0 }
    /// True when the source maps to −1…1 instead of 0…1 (the "P" bit).
    public var isBipolar: Bool { rawValue & 0x200 != 0 }
    /// The curve type; nil for reserved types 4–63 (the modulator is then ignored).
    public var curve: Curve? { Curve(rawValue: UInt8(rawValue >> 10)) }
    /// The general controller when ``isCC`` is false.
    public var general: GeneralController? { isCC ? nil : GeneralController(rawValue: index) }
}

/// A modulator record (SF2 2.04 §7.4 / §8.2): `source × amountSource × amount` added to
/// the destination generator, through the transform.
public struct Modulator: Hashable, Sendable {
    /// The primary source (`sfModSrcOper`).
    public var source: ModulatorSource
    /// Destination generator id; values with bit 15 set link to another modulator's index.
    public var destination: UInt16
    /// The full-scale amount in the destination's units.
    public var amount: Int16
    /// The secondary source scaling the amount (`sfModAmtSrcOper`); ``ModulatorSource/none`` for 1.
    public var amountSource: ModulatorSource
    /// 0 = linear, 2 = absolute value.
    public var transform: UInt16

    /// A modulator with a raw destination (a generator id, or a link with bit 15 set).
    public init(source: ModulatorSource, destination: UInt16, amount: Int16,
                amountSource: ModulatorSource = .none, transform: UInt16 = 0) {
        self.source = source
        self.destination = destination
        self.amount = amount
        self.amountSource = amountSource
        self.transform = transform
    }

    /// A modulator driving a generator.
    public init(source: ModulatorSource, destination: GeneratorType, amount: Int16,
                amountSource: ModulatorSource = .none, transform: UInt16 = 0) {
        self.init(source: source, destination: destination.rawValue, amount: amount,
                  amountSource: amountSource, transform: transform)
    }

    /// The generator this modulator drives, or nil for links and unknown ids.
    public var destinationGenerator: GeneratorType? {
        destination & 0x8000 != 0 ? nil : GeneratorType(rawValue: destination)
    }

    /// SF2 2.04 §9.5.1: two modulators are "identical" when source, destination, amount source
    /// and transform match; the amount does not take part.
    public func isIdentical(to other: Modulator) -> Bool {
        source == other.source && destination == other.destination
            && amountSource == other.amountSource && transform == other.transform
    }

    /// The ten default modulators of SF2 2.04 §8.4, in spec order.
    ///
    /// Entry 2 (velocity → filter cutoff, −2400 cents) is listed as the spec defines it;
    /// whether it sounds is the engine's choice (FluidSynth contributes 0 for it).
    public static let defaults: [Modulator] = [
        // 8.4.1 MIDI note-on velocity to initial attenuation
        Modulator(source: .init(.noteOnVelocity, isDecreasing: true, curve: .concave),
                  destination: .initialAttenuation, amount: 960),
        // 8.4.2 MIDI note-on velocity to filter cutoff
        Modulator(source: .init(.noteOnVelocity, isDecreasing: true, curve: .linear),
                  destination: .initialFilterFc, amount: -2400),
        // 8.4.3 channel pressure to vibrato LFO pitch depth
        Modulator(source: .init(.channelPressure), destination: .vibLfoToPitch, amount: 50),
        // 8.4.4 CC1 modulation wheel to vibrato LFO pitch depth
        Modulator(source: .cc(1), destination: .vibLfoToPitch, amount: 50),
        // 8.4.5 CC7 volume to initial attenuation
        Modulator(source: .cc(7, isDecreasing: true, curve: .concave),
                  destination: .initialAttenuation, amount: 960),
        // 8.4.6 CC10 pan to pan
        Modulator(source: .cc(10, isBipolar: true), destination: .pan, amount: 500),
        // 8.4.7 CC11 expression to initial attenuation
        Modulator(source: .cc(11, isDecreasing: true, curve: .concave),
                  destination: .initialAttenuation, amount: 960),
        // 8.4.8 CC91 reverb send
        Modulator(source: .cc(91), destination: .reverbEffectsSend, amount: 200),
        // 8.4.9 CC93 chorus send
        Modulator(source: .cc(93), destination: .chorusEffectsSend, amount: 200),
        // 8.4.10 pitch wheel to initial pitch, scaled by pitch wheel sensitivity.
        // "Initial pitch" is not a real generator; destination 59 is what FluidSynth and the
        // spec's example use for it (it is unused as a generator).
        Modulator(source: .init(.pitchWheel, isBipolar: true), destination: 59, amount: 12700,
                  amountSource: .init(.pitchWheelSensitivity)),
    ]
}

extension Modulator {
    /// The destination id the default pitch-wheel modulator uses for "initial pitch"
    /// (cents added to the voice's pitch).
    public static let initialPitchDestination: UInt16 = 59
}
