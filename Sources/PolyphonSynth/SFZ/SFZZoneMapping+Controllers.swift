import PolyphonSFZCore
import PolyphonSoundFontCore

extension SFZZoneMapping {
    /// The region's controller modulation of volume, pan and pitch (`volume_onccN`, `pan_onccN`,
    /// `pitch_onccN`/`tune_onccN`) as SF2 modulators, which add to what they move in its own
    /// unit, linearly in the controller, as sfizz's do: dB as centibels of attenuation (the
    /// engine does not scale a modulator's attenuation by 0.4), pan percent as ‰, cents of
    /// pitch (the default pitch-wheel modulator's "initial pitch"). The filters' and equaliser
    /// bands' controllers play through the voice's own path (``filterControllerModulations(_:curves:)``).
    ///
    /// sfizz reads a controller as value/127 and the engine as value/128 (SF2 2.04 §8.4), so
    /// amounts are scaled by 128/127 to reach the full depth at 127. Inputs with a curve, a
    /// step or smoothing play through the voice's own controllers instead
    /// (``voiceControllerModulations(_:curves:)``).
    static func controllerModulators(_ region: SFZRegion) -> [Modulator] {
        var modulators: [Modulator] = []
        func add(_ inputs: [SFZControllerInput], _ destination: UInt16, unitsPerDepth: Float) {
            for input in inputs where isPlayed(input) && input.smoothing == 0 {
                guard let source = source(of: input.controller) else { continue }
                let scale: Float = source.general == .pitchWheel ? 1 : 128 / 127
                let amount = clampedInt16((input.depth * unitsPerDepth * scale).rounded(), -32768...32767)
                modulators.append(Modulator(source: source, destination: destination, amount: amount))
            }
        }
        add(region.amplitude.volume.controllers, GeneratorType.initialAttenuation.rawValue, unitsPerDepth: -10)
        add(region.amplitude.pan.controllers, GeneratorType.pan.rawValue, unitsPerDepth: 5)
        add(region.pitch.tune.controllers, Modulator.initialPitchDestination, unitsPerDepth: 1)
        return modulators
    }

    /// The pitch wheel's range of a region with its own `bend_up`/`bend_down`, as sfizz plays
    /// it (`Region::getBendInCents`): bend × `bend_up` cents above the centre, |bend| ×
    /// `bend_down` below, whatever RPN 0 says (sfizz has no RPN 0). Two SF2 modulators make the
    /// two slopes — the wheel times a switch that is 1 on its own side of the centre, 0 on the
    /// other — in place of the default wheel modulator (cancelled). A region with sfizz's
    /// default range (±200 cents) keeps that modulator, so it follows RPN 0 as SF2 voices do
    /// (its 2 semitones until a MIDI file changes them).
    static func bendModulators(_ region: SFZRegion) -> [Modulator] {
        let up = region.pitch.bendUp, down = region.pitch.bendDown
        guard up != 200 || down != -200 || bendIsShaped(region) else { return [] }
        let destination = Modulator.initialPitchDestination
        let cancelled = Modulator.defaults.filter { $0.destination == destination }.map { modulator in
            var cancelled = modulator
            cancelled.amount = 0
            return cancelled
        }
        // A stepped or smoothed bend plays through the voice's controllers.
        if bendIsShaped(region) { return cancelled }
        var modulators = cancelled
        let wheel = ModulatorSource(.pitchWheel, isBipolar: true)
        if up != 0 {
            modulators.append(Modulator(source: wheel, destination: destination,
                                        amount: clampedInt16(up.rounded(), -32768...32767),
                                        amountSource: ModulatorSource(.pitchWheel, curve: .switch)))
        }
        if down != 0 {
            modulators.append(Modulator(source: wheel, destination: destination,
                                        amount: clampedInt16((-down).rounded(), -32768...32767),
                                        amountSource: ModulatorSource(.pitchWheel, isDecreasing: true, curve: .switch)))
        }
        return modulators
    }

    /// Whether the region steps (`bend_step` above 1 cent) or smooths (`bend_smooth`) its bend.
    static func bendIsShaped(_ region: SFZRegion) -> Bool {
        region.pitch.bendStep > 1 || region.pitch.bendSmoothing > 0
    }

    /// The controllers moving the region's volume, pan and pitch through a curve, a step or
    /// smoothing (`volume_curveccN`, `pan_stepccN`, `pitch_smoothccN`, `gain_`/`tune_` aliases),
    /// and its bend when stepped or smoothed, as the voice follows them
    /// (``ShapedVoiceControllers``): each input's value through its `<curve>`, times its depth,
    /// truncated to its step, followed linearly over its smoothing time — sfizz's controller
    /// source. The bend is sfizz's `Voice::pitchEnvelope`: the wheel (−1…1) times `bend_up`
    /// above the centre and −`bend_down` below, truncated to `bend_step` cents, smoothed over
    /// `bend_smooth` ms; as in sfizz, RPN 0 does not change it. At most
    /// ``ShapedControllers/capacity`` play (the tally warns of more).
    static func voiceControllerModulations(_ region: SFZRegion, curves: SFZCurveSet) -> [ControllerModulationShape] {
        var modulations: [ControllerModulationShape] = []
        func add(_ inputs: [SFZControllerInput], _ target: ControllerModulationShape.Target) {
            for input in inputs where isShapedVoiceInput(input) {
                let curve = input.curve == 0 ? [] : curves.curve(at: input.curve).values
                modulations.append(ControllerModulationShape(controller: input.controller, target: target,
                                                             depth: input.depth, curve: curve,
                                                             smoothing: Float(input.smoothing), step: input.step))
            }
        }
        add(region.amplitude.volume.controllers, .volume)
        add(region.amplitude.pan.controllers, .pan)
        add(region.pitch.tune.controllers, .pitch)
        if bendIsShaped(region) {
            let step = region.pitch.bendStep > 1 ? region.pitch.bendStep : 0
            let smoothing = Float(region.pitch.bendSmoothing)
            for (target, depth) in [(ControllerModulationShape.Target.bendUp, region.pitch.bendUp),
                                    (.bendDown, -region.pitch.bendDown)] where depth != 0 {
                modulations.append(ControllerModulationShape(controller: 128, target: target, depth: depth,
                                                             smoothing: smoothing, step: step))
            }
        }
        return Array(modulations.prefix(ShapedControllers.capacity))
    }

    /// Whether a volume, pan or pitch input plays through the voice's own controllers: a source
    /// the voice has, with a curve, a step or smoothing.
    static func isShapedVoiceInput(_ input: SFZControllerInput) -> Bool {
        source(of: input.controller) != nil && input.depth != 0
            && (input.curve != 0 || input.step != 0 || input.smoothing > 0)
    }

    /// Whether the voice follows a controller input as sfizz does: a source it has, the linear
    /// curve, no quantising step. (Smoothing is not followed: the value moves at once.)
    static func isPlayed(_ input: SFZControllerInput) -> Bool {
        source(of: input.controller) != nil && input.curve == 0 && input.step == 0
    }

    /// The SF2 source of an SFZ controller: MIDI controllers 0–127, and sfizz's extended
    /// sources pitch bend (128, bipolar), channel and key pressure (129, 130), velocity (131)
    /// and key number (133); nil for the others.
    static func source(of controller: Int) -> ModulatorSource? {
        switch controller {
        case 0...127: .cc(UInt8(controller))
        case 128: ModulatorSource(.pitchWheel, isBipolar: true)
        case 129: ModulatorSource(.channelPressure)
        case 130: ModulatorSource(.polyPressure)
        case 131: ModulatorSource(.noteOnVelocity)
        case 133: ModulatorSource(.noteOnKeyNumber)
        default: nil
        }
    }
}
