import PolyphonSFZCore
import PolyphonSoundFontCore

extension SFZZoneMapping {
    /// The filters sfizz runs per voice (`fil_*` and `fil2_*`), and its equaliser bands.
    static let playedFilters = 2
    static let playedEqualizers = 3

    /// Adds the region's second filter, its equaliser bands and the controllers moving its
    /// filters and bands to `shaping`.
    static func addFilterStages(_ region: SFZRegion, curves: SFZCurveSet, stream: UInt32, to shaping: inout VoiceShaping) {
        if region.filters.count > 1 {
            shaping.secondFilter = filterShape(region.filters[1], curves: curves, stream: filterStream(stream, index: 1))
        }
        shaping.equalizers = region.equalizers.prefix(playedEqualizers).map(equalizerShape)
        shaping.controllerModulations = filterControllerModulations(region, curves: curves)
    }

    /// An equaliser band in the voice's terms.
    static func equalizerShape(_ band: SFZEqualizer) -> EqualizerBandShape {
        let kind: EqualizerBandShape.Kind = switch band.type {
        case .peak: .peak
        case .lowShelf: .lowShelf
        case .highShelf: .highShelf
        }
        return EqualizerBandShape(kind, frequency: band.frequency.value, bandwidth: band.bandwidth.value,
                                  gain: band.gain.value, velocityToFrequency: band.velocityToFrequency,
                                  velocityToGain: band.velocityToGain)
    }

    /// The controllers moving the filters' cutoff, resonance and gain and the bands' frequency,
    /// width and gain (`cutoff_onccN`, `cutoff2_onccN`, `fil_gain_onccN`, `eq1_gain_onccN` …)
    /// with their curves, smoothing and steps; inputs from sources the voice lacks are left out
    /// (``isFilterPlayed(_:)``).
    static func filterControllerModulations(_ region: SFZRegion, curves: SFZCurveSet) -> [ControllerModulationShape] {
        var modulations: [ControllerModulationShape] = []
        func add(_ inputs: [SFZControllerInput], _ target: ControllerModulationShape.Target, _ index: Int) {
            for input in inputs where isFilterPlayed(input) && input.depth != 0 {
                let curve = input.curve == 0 ? [] : curves.curve(at: input.curve).values
                modulations.append(ControllerModulationShape(controller: input.controller, target: target, index: index,
                                                             depth: input.depth, curve: curve,
                                                             smoothing: Float(input.smoothing), step: input.step))
            }
        }
        for (index, filter) in region.filters.prefix(playedFilters).enumerated() {
            add(filter.cutoff.controllers, .cutoff, index)
            add(filter.resonance.controllers, .resonance, index)
            add(filter.gain.controllers, .filterGain, index)
        }
        for (index, band) in region.equalizers.prefix(playedEqualizers).enumerated() {
            add(band.frequency.controllers, .equalizerFrequency, index)
            add(band.bandwidth.controllers, .equalizerBandwidth, index)
            add(band.gain.controllers, .equalizerGain, index)
        }
        return Array(modulations.prefix(ShapedControllers.capacity))
    }

    /// Whether the voice follows a controller moving a filter or band: MIDI controllers 0–127,
    /// and sfizz's pitch bend, channel and key pressure, note-on velocity and key number.
    static func isFilterPlayed(_ input: SFZControllerInput) -> Bool {
        (0...131).contains(input.controller) || input.controller == 133
    }

    /// The filters' and bands' controller inputs of `region`, counted as the voice plays them.
    static func filterControllerInputs(_ region: SFZRegion) -> [SFZControllerInput] {
        region.filters.prefix(playedFilters).flatMap {
            $0.cutoff.controllers + $0.resonance.controllers + $0.gain.controllers
        } + region.equalizers.prefix(playedEqualizers).flatMap {
            $0.frequency.controllers + $0.bandwidth.controllers + $0.gain.controllers
        }
    }
}
