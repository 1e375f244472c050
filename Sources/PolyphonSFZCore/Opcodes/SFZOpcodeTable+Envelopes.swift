extension SFZOpcodeTable {
    typealias EnvelopeAccess = @Sendable (inout SFZRegion, (inout SFZEnvelope) -> Void) -> Void

    /// The SFZ v1 envelopes `ampeg_*`, `pitcheg_*`, `fileg_*`: stages, velocity and controller
    /// modifiers, depth.
    mutating func addLegacyEnvelopes() {
        let envelopes: [(String, EnvelopeAccess)] = [
            ("ampeg", { region, change in change(&region.amplitudeEnvelope) }),
            ("pitcheg", { region, change in
                var envelope = region.pitchEnvelope ?? SFZEnvelope()
                change(&envelope)
                region.pitchEnvelope = envelope
            }),
            ("fileg", { region, change in
                var envelope = region.filterEnvelope ?? SFZEnvelope()
                change(&envelope)
                region.filterEnvelope = envelope
            }),
        ]
        for (prefix, access) in envelopes {
            for stage in SFZEnvelopeStage.allCases {
                let isLevel = stage == .start || stage == .sustain
                let spec = isLevel ? SFZSpecs.envelopePercent : SFZSpecs.envelopeTime
                real("\(prefix)_\(stage.rawValue)", spec) { r, _, v in access(&r) { $0.set(stage, v) } }
                // sfizz reads vel2release with the time spec, vel2sustain with the percent one.
                let velocitySpec = stage == .sustain ? SFZSpecs.envelopePercentModulation : SFZSpecs.envelopeTimeModulation
                if stage != .start {
                    real("\(prefix)_velto\(stage.rawValue)", velocitySpec) { r, _, v in access(&r) { $0.velocityModifiers[stage] = v } }
                }
                let modifierSpec = isLevel ? SFZSpecs.envelopePercentModulation : SFZSpecs.envelopeTimeModulation
                checked("\(prefix)_\(stage.rawValue)_oncc&", controller: true) { t, p in
                    t.real(p, modifierSpec) { r, a, v in access(&r) { $0.updateModifier(stage, a.numbers.last!) { $0.depth = v } } }
                }
                checked("\(prefix)_\(stage.rawValue)_curvecc&", controller: true) { t, p in
                    t.integer(p, .strict(0, 255)) { r, a, v in access(&r) { $0.updateModifier(stage, a.numbers.last!) { $0.curve = v } } }
                }
            }
            flag("\(prefix)_dynamic") { r, _, v in access(&r) { $0.isDynamic = v } }
            if prefix == "ampeg" {
                add("ampeg_depth") { _ in .ignored }
                add("ampeg_veltodepth") { _ in .ignored }
            } else {
                let depthModulation = prefix == "pitcheg" ? SFZSpecs.pitchModulation : SFZSpecs.filterCutoffModulation
                modulated("\(prefix)_depth", value: SFZSpecs.envelopeDepth, depth: depthModulation) { r, _, change in
                    access(&r) { change(&$0.depth) }
                }
                real("\(prefix)_veltodepth", SFZSpecs.envelopeDepth) { r, _, v in access(&r) { $0.velocityToDepth = v } }
            }
        }
    }
}

extension SFZEnvelope {
    mutating func set(_ stage: SFZEnvelopeStage, _ value: Float) {
        switch stage {
        case .delay: delay = value
        case .start: start = value
        case .attack: attack = value
        case .hold: hold = value
        case .decay: decay = value
        case .sustain: sustain = value
        case .release: release = value
        }
    }

    /// The modifier of `stage` by `controller`, created at depth 0 when missing.
    mutating func updateModifier(_ stage: SFZEnvelopeStage, _ controller: Int, _ change: (inout SFZControllerInput) -> Void) {
        if let index = controllerModifiers.firstIndex(where: { $0.stage == stage && $0.input.controller == controller }) {
            change(&controllerModifiers[index].input)
        } else {
            var input = SFZControllerInput(controller: controller)
            change(&input)
            controllerModifiers.append(SFZEnvelopeControllerModifier(stage: stage, input: input))
        }
    }
}
