/// The value specs of sfizz's `Defaults.cpp`, by the names sfizz gives them, in the units the
/// SFZ format uses (sfizz divides percentages and MIDI values afterwards; the model does not).
enum SFZSpecs {
    static let int32Max = Double(Int32.max)

    static let delay = SFZValueSpec.permissive(0, 100)
    static let offset = SFZValueSpec.permissive(0, int32Max)
    static let offsetModulation = SFZValueSpec.permissive(0, int32Max)
    static let sampleEnd = SFZValueSpec.clamped(0, int32Max)
    static let sampleEndModulation = SFZValueSpec.permissive(-int32Max, int32Max)
    static let sampleCount = SFZValueSpec(lower: 0, upper: Double(UInt32.max), belowLower: .reject, aboveUpper: .clamp)
    static let loopPoint = SFZValueSpec(lower: 0, upper: int32Max, belowLower: .reject, aboveUpper: .clamp)
    static let loopModulation = SFZValueSpec.permissive(-int32Max, int32Max)
    static let loopCrossfade = SFZValueSpec(lower: 0.001, upper: 1, belowLower: .clamp, aboveUpper: .accept)
    static let oscillatorPhase = SFZValueSpec.permissive(-1000, 1000)
    static let oscillatorDetune = SFZValueSpec.permissive(-12000, 12000)
    static let oscillatorModulationDepth = SFZValueSpec.permissive(0, 10000)
    static let group = SFZValueSpec.strict(-int32Max, Double(UInt32.max))
    static let offTime = SFZValueSpec.permissive(0, 100)
    static let polyphony = SFZValueSpec.clamped(0, 256)
    static let notePolyphony = SFZValueSpec.clamped(1, 256)
    static let midiValue = SFZValueSpec.permissive(0, 127)
    static let normalized = SFZValueSpec.permissive(0, 1)
    static let pitchBendValue = SFZValueSpec.permissive(-8192, 8191)
    static let tempo = SFZValueSpec.permissive(0, 500)
    static let timer = SFZValueSpec.strict(0, Double(Float.greatestFiniteMagnitude))
    static let sequence = SFZValueSpec.strict(1, 100)
    static let volume = SFZValueSpec.permissive(-144, 48)
    static let amplitude = SFZValueSpec.permissive(0, 10000)
    static let amplitudeModulation = SFZValueSpec.permissive(0, 10000)
    static let pan = SFZValueSpec.permissive(-100, 100)
    static let panModulation = SFZValueSpec.permissive(-200, 200)
    static let width = SFZValueSpec.permissive(-100, 100)
    static let ampKeytrack = SFZValueSpec.permissive(-96, 12)
    static let ampVeltrack = SFZValueSpec.permissive(-100, 100)
    static let ampVelcurve = SFZValueSpec.permissive(0, 1)
    static let ampRandom = SFZValueSpec.permissive(-24, 24)
    static let releaseDecay = SFZValueSpec(lower: 0, upper: 200, belowLower: .clamp, aboveUpper: .accept)
    static let filterCutoff = SFZValueSpec.permissive(0, 20000)
    static let filterCutoffModulation = SFZValueSpec.permissive(-12000, 12000)
    static let filterResonance = SFZValueSpec.permissive(0, 96)
    static let filterGain = SFZValueSpec.permissive(-96, 96)
    static let filterRandom = SFZValueSpec.permissive(-12000, 12000)
    static let filterKeytrack = SFZValueSpec.permissive(0, 1200)
    static let filterVeltrack = SFZValueSpec.permissive(-12000, 12000)
    static let eqBandwidth = SFZValueSpec.permissive(0.001, 4)
    static let eqBandwidthModulation = SFZValueSpec.permissive(-4, 4)
    static let eqFrequency = SFZValueSpec.permissive(0, 20000)
    static let eqFrequencyModulation = SFZValueSpec.permissive(-20000, 20000)
    static let eqGain = SFZValueSpec.permissive(-96, 96)
    static let eqVelocityToFrequency = SFZValueSpec.permissive(-30000, 30000)
    static let pitchKeytrack = SFZValueSpec.permissive(-1200, 1200)
    static let pitchRandom = SFZValueSpec.permissive(-12000, 12000)
    static let pitchVeltrack = SFZValueSpec.permissive(-12000, 12000)
    static let transpose = SFZValueSpec.permissive(-127, 127)
    static let tune = SFZValueSpec.permissive(-2400, 2400)
    static let pitchModulation = SFZValueSpec.permissive(-12000, 12000)
    static let bendRange = SFZValueSpec.permissive(-12000, 12000)
    static let bendStep = SFZValueSpec(lower: 1, upper: 1200, belowLower: .clamp, aboveUpper: .accept)
    static let smoothing = SFZValueSpec(lower: 0, upper: 100, belowLower: .reject, aboveUpper: .accept)
    static let ampLFODepth = SFZValueSpec.permissive(-10, 10)
    static let pitchLFODepth = SFZValueSpec.permissive(-1200, 1200)
    static let lfoFrequency = SFZValueSpec.permissive(0, 100)
    static let lfoFrequencyModulation = SFZValueSpec.permissive(-100, 100)
    static let lfoBeats = SFZValueSpec.permissive(0, 1000)
    static let lfoBeatsModulation = SFZValueSpec.permissive(-1000, 1000)
    static let lfoPhase: SFZValueSpec = {
        var spec = SFZValueSpec.permissive(0, 1)
        spec.wrapsPhase = true
        return spec
    }()
    static let lfoPhaseModulation = SFZValueSpec.permissive(0, 1)
    static let lfoTime = SFZValueSpec.permissive(0, 30)
    static let lfoCount = SFZValueSpec(lower: 0, upper: 1000, belowLower: .clamp, aboveUpper: .accept)
    static let lfoSteps = SFZValueSpec.clamped(0, 128)
    static let lfoStep = SFZValueSpec.permissive(-100, 100)
    static let lfoOffset = SFZValueSpec.permissive(-1, 1)
    static let lfoRatio = SFZValueSpec.permissive(0, 100)
    static let lfoScale = SFZValueSpec.permissive(0, 1)
    static let envelopeTime = SFZValueSpec.permissive(0, 100)
    static let envelopeTimeModulation = SFZValueSpec.permissive(-100, 100)
    static let envelopePercent = SFZValueSpec.permissive(0, 100)
    static let envelopePercentModulation = SFZValueSpec.permissive(-100, 100)
    static let envelopeDepth = SFZValueSpec.permissive(-12000, 12000)
    static let flexSustain = SFZValueSpec(lower: 0, upper: 100, belowLower: .clamp, aboveUpper: .accept)
    static let flexTime = SFZValueSpec.permissive(0, 100)
    static let flexTimeModulation = SFZValueSpec.permissive(-100, 100)
    static let flexLevel = SFZValueSpec.clamped(-1, 1)
    static let flexShape = SFZValueSpec.permissive(-100, 100)
    static let effect = SFZValueSpec.strict(0, 100)
    static let output = SFZValueSpec.clamped(0, 15)
    static let controllerNumber = SFZValueSpec.strict(0, 127)
}

extension SFZRegion {
    /// Filter `index`, created with those before it when missing (sfizz extends its list the
    /// same way).
    mutating func withFilter(_ index: Int, _ change: (inout SFZFilter) -> Void) {
        while filters.count <= index { filters.append(SFZFilter()) }
        change(&filters[index])
    }

    /// Equaliser band `index`, created with those before it when missing.
    mutating func withEqualizer(_ index: Int, _ change: (inout SFZEqualizer) -> Void) {
        while equalizers.count <= index { equalizers.append(SFZEqualizer(index: equalizers.count)) }
        change(&equalizers[index])
    }

    /// v2 LFO `index`, created with those before it when missing.
    mutating func withLFO(_ index: Int, _ change: (inout SFZLFO) -> Void) {
        while lfos.count <= index { lfos.append(SFZLFO()) }
        change(&lfos[index])
    }

    /// Flex envelope `index`, created with those before it when missing.
    mutating func withFlexEnvelope(_ index: Int, _ change: (inout SFZFlexEnvelope) -> Void) {
        while flexEnvelopes.count <= index { flexEnvelopes.append(SFZFlexEnvelope()) }
        change(&flexEnvelopes[index])
    }
}
