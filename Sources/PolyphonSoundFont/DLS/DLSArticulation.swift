import PolyphonSoundFontCore

/// DLS articulation (connection blocks) turned into SF2 generators and modulators.
///
/// The DLS model is SF2's ancestor, so most connections have a direct SF2 counterpart:
///
/// | DLS connection | SF2 |
/// |---|---|
/// | EG1 (volume envelope) delay/attack/hold/decay/release | `delayVolEnv` … `releaseVolEnv` (time cents) |
/// | EG1 sustain level (0.1 %) | `sustainVolEnv` = 0.96 × (1000 − level) cB: the level read on the 96 dB scale the decay runs over |
/// | EG2 (modulation envelope) stages; sustain | mod-envelope generators; `sustainModEnv` = 1000 − level |
/// | LFO frequency/delay; vibrato LFO (DLS 2) | `freqModLFO`/`delayModLFO`; `freqVibLFO`/`delayVibLFO` |
/// | LFO → pitch / gain / filter cutoff | `modLfoToPitch` / `modLfoToVolume` / `modLfoToFilterFc` |
/// | vibrato → pitch; EG2 → pitch / cutoff | `vibLfoToPitch`; `modEnvToPitch` / `modEnvToFilterFc` |
/// | LFO/vibrato/EG2 → x, with a control (CC1, pressure) | modulator: control → that depth generator |
/// | gain, pitch, pan, filter cutoff/Q, chorus, reverb | `initialAttenuation` (÷ 0.4, see below), `coarseTune`+`fineTune`, `pan`, `initialFilterFc`/`Q`, sends |
/// | key number → pitch | `scaleTuning` = scale / 128 cents per key |
/// | key number → EG decay/hold | `keynumTo…` = −scale / 128, and the stage time + scale × 60 / 128 |
/// | velocity, key number, CCs, pressure, pitch wheel → x | a modulator; RPN 0 as control is pitch-wheel sensitivity |
///
/// Units: DLS stores every amount × 65536; time 0x80000000 means "zero time" (−32768 tc).
/// DLS gain is a gain (negative is quieter), SF2 attenuation the opposite sign. Because the
/// engine (like FluidSynth) multiplies the `initialAttenuation` *generator* by 0.4, a DLS
/// attenuation of *x* cB is stored as *x* / 0.4 so that it sounds as *x*; modulator outputs are
/// not scaled and keep the DLS value.
///
/// Curves: DLS's concave transform falls (full effect at 0, none at full scale: velocity →
/// gain −96 dB concave is the usual velocity curve) and is SF2's *decreasing* concave curve;
/// the invert bit flips that. Convex, linear and switch map to the same SF2 curve with the
/// invert bit as the direction.
///
/// What SF2 cannot express (EG1 as a source, RPN 1/2 sources, channel-output and key-number
/// destinations, EG1 shutdown time) is listed in ``unmapped`` and becomes a warning.
struct DLSArticulation {
    typealias Source = DLSConnection.Source
    typealias Destination = DLSConnection.Destination

    /// Generator values (in generator units), by type.
    private(set) var generators: [GeneratorType: Int32] = [:]
    /// Modulators in connection order.
    private(set) var modulators: [Modulator] = []
    /// One text per connection that has no SF2 counterpart.
    private(set) var unmapped: [String] = []
    /// Time added to a stage by key-number scaling (scale × 60 / 128), applied in ``finish()``.
    private var keyTimeOffsets: [GeneratorType: Double] = [:]

    /// The articulation of `connections` (later connections to the same parameter win), on top
    /// of DLS's own defaults where they differ from SF2's.
    init(_ connections: [DLSConnection]) {
        generators = Self.defaults
        for connection in connections { apply(connection) }
        finish()
    }

    /// Where DLS's default differs from SF2's: both LFOs run at 5 Hz after 10 ms (DLS Level 1
    /// and 2), SF2's at 8.176 Hz after 1 ms. A connection to one of these sets it outright; it is
    /// not added to the default (FluidSynth 2.6 adds it, so a bank's −884 cents plays at 3 Hz).
    static let defaults: [GeneratorType: Int32] = [
        .freqModLFO: -851, .delayModLFO: -7973, .freqVibLFO: -851, .delayVibLFO: -7973,
    ]

    /// The generators as zone records, in generator-id order, each clamped to Int16.
    var generatorList: [Generator] {
        generators.sorted { $0.key.rawValue < $1.key.rawValue }.map {
            Generator($0.key, Int16(clamping: $0.value))
        }
    }

    // MARK: - Units

    static func amount(_ scale: Int32) -> Double { Double(scale) / 65536 }

    /// Time cents; 0x80000000 is the spec's "zero time".
    static func timecents(_ scale: Int32) -> Int32 {
        scale == Int32.min ? -32768 : Int32((Double(scale) / 65536).rounded())
    }

    private static let timeDestinations: [UInt16: GeneratorType] = [
        Destination.lfoStartDelay: .delayModLFO, Destination.vibratoStartDelay: .delayVibLFO,
        Destination.eg1DelayTime: .delayVolEnv, Destination.eg1AttackTime: .attackVolEnv,
        Destination.eg1HoldTime: .holdVolEnv, Destination.eg1DecayTime: .decayVolEnv,
        Destination.eg1ReleaseTime: .releaseVolEnv,
        Destination.eg2DelayTime: .delayModEnv, Destination.eg2AttackTime: .attackModEnv,
        Destination.eg2HoldTime: .holdModEnv, Destination.eg2DecayTime: .decayModEnv,
        Destination.eg2ReleaseTime: .releaseModEnv,
    ]

    /// The generator a modulator drives for a DLS destination, and the factor from DLS units
    /// (already divided by 65536) to the generator's.
    private static func modulatorTarget(_ destination: UInt16) -> (destination: UInt16, factor: Double)? {
        if let time = timeDestinations[destination] { return (time.rawValue, 1) }
        switch destination {
        case Destination.gain: return (GeneratorType.initialAttenuation.rawValue, -1)
        case Destination.pitch: return (Modulator.initialPitchDestination, 1)
        case Destination.pan: return (GeneratorType.pan.rawValue, 1)
        case Destination.chorus: return (GeneratorType.chorusEffectsSend.rawValue, 1)
        case Destination.reverb: return (GeneratorType.reverbEffectsSend.rawValue, 1)
        case Destination.filterCutoff: return (GeneratorType.initialFilterFc.rawValue, 1)
        case Destination.filterQ: return (GeneratorType.initialFilterQ.rawValue, 1)
        case Destination.lfoFrequency: return (GeneratorType.freqModLFO.rawValue, 1)
        case Destination.vibratoFrequency: return (GeneratorType.freqVibLFO.rawValue, 1)
        case Destination.eg1SustainLevel: return (GeneratorType.sustainVolEnv.rawValue, -0.96)
        case Destination.eg2SustainLevel: return (GeneratorType.sustainModEnv.rawValue, -1)
        default: return nil
        }
    }

    /// The depth generator for an LFO or envelope *source* driving `destination`.
    private static func depthGenerator(source: UInt16, destination: UInt16) -> GeneratorType? {
        switch (source, destination) {
        case (Source.lfo, Destination.pitch): return .modLfoToPitch
        case (Source.lfo, Destination.gain): return .modLfoToVolume
        case (Source.lfo, Destination.filterCutoff): return .modLfoToFilterFc
        case (Source.vibrato, Destination.pitch): return .vibLfoToPitch
        case (Source.eg2, Destination.pitch): return .modEnvToPitch
        case (Source.eg2, Destination.filterCutoff): return .modEnvToFilterFc
        default: return nil
        }
    }

    /// A MIDI-side DLS source as an SF2 modulator source, with the curve bits given.
    private static func modulatorSource(_ source: UInt16, curve: UInt16, bipolar: Bool,
                                        inverted: Bool) -> ModulatorSource? {
        let sf2Curve: ModulatorSource.Curve
        var decreasing = inverted
        switch curve {
        case DLSConnection.Curve.concave: sf2Curve = .concave; decreasing = !inverted
        case DLSConnection.Curve.convex: sf2Curve = .convex
        case DLSConnection.Curve.switch: sf2Curve = .switch
        default: sf2Curve = .linear
        }
        switch source {
        case Source.none: return ModulatorSource.none
        case Source.keyOnVelocity:
            return .init(.noteOnVelocity, isDecreasing: decreasing, isBipolar: bipolar, curve: sf2Curve)
        case Source.keyNumber:
            return .init(.noteOnKeyNumber, isDecreasing: decreasing, isBipolar: bipolar, curve: sf2Curve)
        case Source.pitchWheel:
            // The wheel is bipolar by nature (centre = no bend) in both specs.
            return .init(.pitchWheel, isDecreasing: decreasing, isBipolar: true, curve: sf2Curve)
        case Source.polyPressure:
            return .init(.polyPressure, isDecreasing: decreasing, isBipolar: bipolar, curve: sf2Curve)
        case Source.channelPressure, Source.monoPressure:
            return .init(.channelPressure, isDecreasing: decreasing, isBipolar: bipolar, curve: sf2Curve)
        case Source.rpn0:
            return .init(.pitchWheelSensitivity, isDecreasing: decreasing, isBipolar: bipolar, curve: sf2Curve)
        case 0x0080...0x00FF:
            return .cc(UInt8(source & 0x7F), isDecreasing: decreasing, isBipolar: bipolar, curve: sf2Curve)
        default: return nil
        }
    }

    // MARK: - Mapping

    private mutating func set(_ type: GeneratorType, _ value: Double) {
        generators[type] = Int32(clamping: Int64(value.rounded()))
    }

    private mutating func skip(_ c: DLSConnection, _ why: String) {
        let hex = { (v: UInt16) in "0x" + String(v, radix: 16) }
        unmapped.append("connection source \(hex(c.source)) control \(hex(c.control)) destination "
                        + "\(hex(c.destination)): \(why)")
    }

    private mutating func apply(_ c: DLSConnection) {
        let value = Self.amount(c.scale)
        switch c.source {
        case Source.none where c.control == Source.none:
            setParameter(c)
        case Source.lfo, Source.vibrato, Source.eg2:
            guard let depth = Self.depthGenerator(source: c.source, destination: c.destination) else {
                return skip(c, "no SF2 generator for this source and destination")
            }
            if c.control == Source.none {
                set(depth, value)
            } else {
                guard let control = Self.modulatorSource(c.control, curve: c.controlCurve,
                                                         bipolar: c.controlIsBipolar, inverted: c.controlIsInverted) else {
                    return skip(c, "control has no SF2 counterpart")
                }
                modulators.append(Modulator(source: control, destination: depth,
                                            amount: Int16(clamping: Int64(value.rounded()))))
            }
        case Source.keyNumber where c.control == Source.none:
            if !keyScaling(c, value) { addModulator(c, value) }
        case Source.eg1:
            skip(c, "EG1 as a source has no SF2 counterpart")
        case Source.rpn1, Source.rpn2:
            skip(c, "RPN fine/coarse tune is applied by the engine, not by the bank")
        default:
            addModulator(c, value)
        }
    }

    /// A constant connection: sets a parameter.
    private mutating func setParameter(_ c: DLSConnection) {
        let value = Self.amount(c.scale)
        if let time = Self.timeDestinations[c.destination] {
            generators[time] = Self.timecents(c.scale)
            return
        }
        switch c.destination {
        case Destination.gain:
            // −gain in cB, pre-divided by the engine's 0.4 generator factor (see the type's doc).
            set(.initialAttenuation, max(0, -value) / 0.4)
            if value > 0 { skip(c, "a gain above 0 dB cannot be stored as SF2 attenuation; 0 dB used") }
        case Destination.pitch:
            let cents = Int(value.rounded())
            set(.coarseTune, Double(cents / 100))
            set(.fineTune, Double(cents % 100))
        case Destination.pan: set(.pan, value)
        case Destination.chorus: set(.chorusEffectsSend, value)
        case Destination.reverb: set(.reverbEffectsSend, value)
        case Destination.lfoFrequency: set(.freqModLFO, value)
        case Destination.vibratoFrequency: set(.freqVibLFO, value)
        case Destination.eg1SustainLevel: set(.sustainVolEnv, 0.96 * (1000 - min(max(value, 0), 1000)))
        case Destination.eg2SustainLevel: set(.sustainModEnv, 1000 - min(max(value, 0), 1000))
        case Destination.filterCutoff: set(.initialFilterFc, value)
        case Destination.filterQ: set(.initialFilterQ, value)
        case Destination.eg1ShutdownTime: skip(c, "EG1 shutdown time has no SF2 counterpart")
        default: skip(c, "destination has no SF2 counterpart")
        }
    }

    /// Key-number scaling that SF2 has generators for; false when a modulator is needed.
    private mutating func keyScaling(_ c: DLSConnection, _ value: Double) -> Bool {
        // DLS normalises the key to key/128, so the connection adds value × key / 128;
        // SF2's keynumTo… adds amount × (60 − key): amount = −value/128 plus value × 60/128.
        let stage: (GeneratorType, GeneratorType)?
        switch c.destination {
        case Destination.pitch:
            set(.scaleTuning, value / 128)
            return true
        case Destination.eg1DecayTime: stage = (.keynumToVolEnvDecay, .decayVolEnv)
        case Destination.eg1HoldTime: stage = (.keynumToVolEnvHold, .holdVolEnv)
        case Destination.eg2DecayTime: stage = (.keynumToModEnvDecay, .decayModEnv)
        case Destination.eg2HoldTime: stage = (.keynumToModEnvHold, .holdModEnv)
        default: stage = nil
        }
        guard let (scaling, time) = stage else { return false }
        set(scaling, -value / 128)
        keyTimeOffsets[time] = value * 60 / 128
        return true
    }

    private mutating func addModulator(_ c: DLSConnection, _ value: Double) {
        guard let target = Self.modulatorTarget(c.destination) else {
            return skip(c, "destination has no SF2 counterpart")
        }
        guard let source = Self.modulatorSource(c.source, curve: c.sourceCurve,
                                                bipolar: c.sourceIsBipolar, inverted: c.sourceIsInverted),
              let control = Self.modulatorSource(c.control, curve: c.controlCurve,
                                                 bipolar: c.controlIsBipolar, inverted: c.controlIsInverted) else {
            return skip(c, "source or control has no SF2 counterpart")
        }
        modulators.append(Modulator(source: source, destination: target.destination,
                                    amount: Int16(clamping: Int64((value * target.factor).rounded())),
                                    amountSource: control))
    }

    private mutating func finish() {
        for (time, offset) in keyTimeOffsets {
            let base = Double(generators[time] ?? time.defaultValue)
            set(time, base + offset)
        }
    }
}
