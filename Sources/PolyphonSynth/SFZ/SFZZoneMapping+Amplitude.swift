import PolyphonSFZCore
import PolyphonSoundFontCore

extension SFZZoneMapping {
    /// What of the region's level the SF2 voice cannot play, as an ``AmplitudeShape`` (sfizz's
    /// formulas): `amp_veltrack` other than 100, `amp_velcurve_N` and `amp_veltrack_onccN` (sfizz's
    /// curve replacing SF2's velocity modulator, which the zone then cancels), `amp_keytrack`,
    /// `amp_random`, the gain above 0 dB, the crossfades and `amplitude_onccN`; nil when the
    /// region has none of them. A positive `volume_onccN` also needs one, to reach above 0 dB.
    /// `stream` numbers the region for `amp_random` (its two sides draw alike); `curves` are the
    /// instrument's, for `*_curveccN`.
    static func amplitudeShape(_ region: SFZRegion, stream: UInt32, curves: SFZCurveSet) -> AmplitudeShape? {
        let amplitude = region.amplitude
        var shape = AmplitudeShape()
        shape.gain = max(gainDecibels(amplitude), 0)
        if replacesVelocityCurve(amplitude) {
            // sfizz's `buildFromVelcurvePoints`: 0 at velocity 0 and 1 at 127 unless given, linear between.
            var points: [Int: Float] = [:]
            for point in amplitude.velocityCurve { points[Int(point.velocity)] = point.gain }
            let controllers = depths(amplitude.velocityTracking.controllers, curves)
            shape.velocity = AmplitudeShape.VelocityTracking(
                tracking: amplitude.velocityTracking.value / 100,
                curve: points.isEmpty ? [] : SFZCurve(points: points).values,
                controllers: controllers)
        }
        shape.keytrack = amplitude.keytrack
        shape.keycenter = amplitude.keycenter
        shape.random = amplitude.random
        shape.randomStream = stream
        shape.noteCrossfades = noteCrossfades(region.crossfade)
        shape.controllerCrossfades = controllerCrossfades(region.crossfade)
        shape.controllerGains = depths(amplitude.amplitude.controllers, curves)
        let boosts = amplitude.volume.controllers.contains { isPlayed($0) && $0.depth > 0 }
        let unchanged = shape.gain == 0 && shape.velocity == nil && shape.keytrack == 0 && shape.random == 0
            && shape.noteCrossfades.isEmpty && !shape.followsControllers && !boosts
        return unchanged ? nil : shape
    }

    /// Whether the region's velocity tracking differs from sfizz's default (100 %, (v/127)²),
    /// which SF2's default velocity modulator already plays.
    static func replacesVelocityCurve(_ amplitude: SFZAmplitude) -> Bool {
        amplitude.velocityTracking.value != 100 || !amplitude.velocityCurve.isEmpty
            || amplitude.velocityTracking.controllers.contains(where: isPlayedController)
    }

    /// A controller input the shaped amplitude follows: MIDI controllers 0–127, through any
    /// curve, without a quantising step.
    static func isPlayedController(_ input: SFZControllerInput) -> Bool {
        (0..<128).contains(input.controller) && input.step == 0
    }

    /// The inputs the shaped amplitude (or a filter's velocity tracking) follows, their depths
    /// divided by `divisor` (percents as fractions by default), each through its curve (none
    /// for the linear curve 0).
    static func depths(_ inputs: [SFZControllerInput], _ curves: SFZCurveSet, divisor: Float = 100) -> [ControllerDepth] {
        inputs.compactMap { input in
            guard isPlayedController(input) else { return nil }
            return ControllerDepth(controller: input.controller, depth: input.depth / divisor,
                                   curve: input.curve == 0 ? [] : curves.curve(at: input.curve).values)
        }
    }

    /// The key and velocity crossfades that change anything.
    static func noteCrossfades(_ crossfade: SFZCrossfade) -> [AmplitudeShape.Crossfade] {
        var fades: [AmplitudeShape.Crossfade] = []
        let keyCurve = curve(crossfade.keyCurve), velocityCurve = curve(crossfade.velocityCurve)
        if crossfade.keyIn != SFZRange(0, 0) {
            fades.append(.init(.key, fadesIn: true, start: Float(crossfade.keyIn.lower),
                               end: Float(crossfade.keyIn.upper), curve: keyCurve))
        }
        if crossfade.keyOut != SFZRange(127, 127) {
            fades.append(.init(.key, fadesIn: false, start: Float(crossfade.keyOut.lower),
                               end: Float(crossfade.keyOut.upper), curve: keyCurve))
        }
        if crossfade.velocityIn != SFZRange(0, 0) {
            fades.append(.init(.velocity, fadesIn: true, lower: crossfade.velocityIn.lower,
                               upper: crossfade.velocityIn.upper, curve: velocityCurve))
        }
        if crossfade.velocityOut != SFZRange(127, 127) {
            fades.append(.init(.velocity, fadesIn: false, lower: crossfade.velocityOut.lower,
                               upper: crossfade.velocityOut.upper, curve: velocityCurve))
        }
        return fades
    }

    /// The controller crossfades on MIDI controllers 0–127.
    static func controllerCrossfades(_ crossfade: SFZCrossfade) -> [AmplitudeShape.ControllerCrossfade] {
        let ccCurve = curve(crossfade.controllerCurve)
        func fades(_ ranges: [SFZControllerRange], fadesIn: Bool) -> [AmplitudeShape.ControllerCrossfade] {
            ranges.compactMap { range in
                guard (0..<128).contains(range.controller) else { return nil }
                let fade = AmplitudeShape.Crossfade(.controller, fadesIn: fadesIn, lower: range.range.lower,
                                                    upper: range.range.upper, curve: ccCurve)
                return AmplitudeShape.ControllerCrossfade(controller: UInt8(range.controller), fade: fade)
            }
        }
        return fades(crossfade.controllersIn, fadesIn: true) + fades(crossfade.controllersOut, fadesIn: false)
    }

    private static func curve(_ curve: SFZCrossfadeCurve) -> AmplitudeShape.Crossfade.Curve {
        curve == .gain ? .gain : .power
    }

    /// The `side` of a stereo region's file: its `pan`, `width` and `position` (and the latter
    /// two's controllers) as fractions.
    static func stereoShape(_ region: SFZRegion, side: StereoShape.Side, curves: SFZCurveSet) -> StereoShape {
        let amplitude = region.amplitude
        return StereoShape(side: side, pan: amplitude.pan.value / 100, width: amplitude.width.value / 100,
                           position: amplitude.position.value / 100,
                           widthControllers: depths(amplitude.width.controllers, curves),
                           positionControllers: depths(amplitude.position.controllers, curves))
    }

    /// SF2's default velocity → attenuation modulator, cancelled (an identical modulator of
    /// amount 0), for zones whose ``AmplitudeShape`` plays sfizz's velocity curve.
    static let cancelledVelocityCurve: [Modulator] = Modulator.defaults.prefix(1).map { modulator in
        var zero = modulator
        zero.amount = 0
        return zero
    }

    /// SF2's default modulators of CC 7 (volume), 10 (pan) and 11 (expression) for the
    /// controllers in `used`, cancelled: sfizz connects its defaults for them (CC 7 and 11 on
    /// the amplitude as value², CC 10 on the pan) only when no region of the instrument uses
    /// the controller itself.
    static func cancelledControllerDefaults(_ used: Set<Int>) -> [Modulator] {
        Modulator.defaults.compactMap { modulator in
            guard modulator.source.isCC, used.contains(Int(modulator.source.index)),
                  [7, 10, 11].contains(Int(modulator.source.index)) else { return nil }
            var zero = modulator
            zero.amount = 0
            return zero
        }
    }

    /// The MIDI controllers the instrument's regions connect to anything the voice follows
    /// (`volume_onccN`, `amplitude_onccN`, `pan_onccN`, `width_onccN`, `position_onccN`,
    /// `pitch_onccN`, `cutoff_onccN`, `resonance_onccN`), as sfizz counts them before connecting
    /// its defaults.
    static func connectedControllers(_ regions: [SFZRegion]) -> Set<Int> {
        var used: Set<Int> = []
        for region in regions {
            let amplitude = region.amplitude
            var inputs = amplitude.volume.controllers + amplitude.amplitude.controllers + amplitude.pan.controllers
                + amplitude.width.controllers + amplitude.position.controllers + region.pitch.tune.controllers
            for filter in region.filters { inputs += filter.cutoff.controllers + filter.resonance.controllers }
            for input in inputs where (0..<128).contains(input.controller) { used.insert(input.controller) }
        }
        return used
    }
}

extension SFZZoneMapping {
    /// The shaping of one zone of `region`: `base` (``shaping(_:)``) with the region's
    /// amplitude shape and, for a side of a stereo file, its ``StereoShape``.
    static func shaping(_ base: VoiceShaping?, amplitude: AmplitudeShape?, _ region: SFZRegion,
                        side: StereoShape.Side?, curves: SFZCurveSet) -> VoiceShaping? {
        var shaping = base ?? VoiceShaping()
        shaping.amplitude = amplitude
        shaping.stereo = side.map { stereoShape(region, side: $0, curves: curves) }
        return shaping.isEmpty && shaping.noteStart == nil ? nil : shaping
    }
}
