import PolyphonSoundFontCore

/// A voice's SFZ v2 LFOs and flex envelopes (``RoutedLFO``, ``FlexEnvelope``) and where they
/// go: each source's output times its route's depth added to the pitch, volume, pan, width,
/// position, cutoff and resonance, and multiplied into the amplitude, as sfizz's modulation
/// matrix does; routes to the rest of the filter chain (gains, the second filter, the
/// equaliser bands) are kept in a short list beside them. The depths, the LFOs' frequencies and
/// phases and the envelopes' points follow their controllers: read at the note's start and
/// whenever the channel changes.
///
/// Fixed-size state in the voice (four of each, sfizz's defaults); the shapes are kept for the
/// controller updates and the step sequences, so nothing is allocated while the voice plays.
struct RoutedModulation {
    /// What the sources add (multiply, for the amplitude) to each target now.
    struct Output {
        var pitch: Float = 0
        var volume: Float = 0
        var amplitude: Float = 1
        var pan: Float = 0
        var cutoff: Float = 0
        var resonance: Float = 0
        /// Percent of a stereo zone's width and position.
        var width: Float = 0
        var position: Float = 0
        /// What the filter chain's stages get, in ``ShapedControllers``' slots (the first
        /// filter's cutoff and resonance are ``cutoff`` and ``resonance``).
        var filterChain = SIMD16<Float>(repeating: 0)
        /// The amplitude envelope has finished by then: the voice ends.
        var ended = false
    }

    private(set) var isActive = false
    /// The envelope that is the voice's amplitude envelope (`egN_ampeg`), −1 for none.
    private(set) var amplitudeEnvelope = -1
    private var shaping: VoiceShaping?
    private var key = 0
    private var velocity = 0
    private var rate: Double = 44_100
    private var lfoCount = 0
    private var envelopeCount = 0
    private var lfo0 = RoutedLFO(), lfo1 = RoutedLFO(), lfo2 = RoutedLFO(), lfo3 = RoutedLFO()
    private var eg0 = FlexEnvelope(), eg1 = FlexEnvelope(), eg2 = FlexEnvelope(), eg3 = FlexEnvelope()
    /// Depth of source s (0–3 the LFOs, 4–7 the envelopes) on target t at lane 8s + t.
    private var depths = SIMD64<Float>(repeating: 0)
    /// Routes to the filter chain beyond the first filter's cutoff and resonance: depth,
    /// source (as in ``depths``) and slot of each, ``filterChainRouteLimit`` at most.
    private var chainDepths = SIMD16<Float>(repeating: 0)
    private var chainSources = SIMD16<UInt8>(repeating: 0)
    private var chainSlots = SIMD16<UInt8>(repeating: 0)
    private var chainRouteCount = 0
    /// Sources routed to the amplitude, one bit each.
    private var amplitudeSources: UInt8 = 0
    /// Some source is routed to the pan, width or position, and the percents they gave at the
    /// last control point (pan, width, position).
    private(set) var movesPan = false
    var lastPlacement = SIMD4<Float>(repeating: 0)
    /// A stereo zone's width and position with their controllers (fractions), which the routed
    /// ones are added to; set by the voice when the note starts and the channel changes.
    var stereoPlacement = SIMD2<Float>(repeating: 0)
    /// Some source is routed to the pitch.
    private(set) var movesPitch = false

    /// Starts the LFOs and envelopes `shaping` names for a note, or leaves them off (touching
    /// nothing of the state when it was off: SF2 voices pay one test).
    mutating func start(_ shaping: VoiceShaping?, channel: Channel, key: Int, velocity: Int, rate: Double,
                        seed: UInt64) {
        guard let shaping, !shaping.routedLFOs.isEmpty || !shaping.flexEnvelopes.isEmpty else {
            if isActive { isActive = false; self.shaping = nil }
            return
        }
        isActive = true
        self.shaping = shaping
        self.key = key
        self.velocity = velocity
        self.rate = rate
        lfoCount = min(shaping.routedLFOs.count, RoutedLFOShape.voiceLimit)
        envelopeCount = min(shaping.flexEnvelopes.count, FlexEnvelopeShape.voiceLimit)
        amplitudeEnvelope = shaping.flexEnvelopes.prefix(envelopeCount).firstIndex(where: { $0.drivesAmplitude }) ?? -1
        for i in 0..<lfoCount {
            let shape = shaping.routedLFOs[i]
            let lfo = RoutedLFO(shape, frequency: Self.finite(shape.frequency + sum(shape.frequencyControllers, channel)),
                                phase: Self.finite(shape.phase + sum(shape.phaseControllers, channel)),
                                delay: Self.finite(shape.delay + sum(shape.delayControllers, channel)),
                                fade: Self.finite(shape.fade + sum(shape.fadeControllers, channel)), rate: rate,
                                seed: seed &* 8 &+ UInt64(i))
            withLFO(i) { $0 = lfo }
        }
        for i in 0..<envelopeCount {
            let shape = shaping.flexEnvelopes[i]
            let (levels, seconds, shapes) = points(shape, channel)
            let envelope = FlexEnvelope(levels: levels, seconds: seconds, shapes: shapes,
                                        pointCount: shape.points.count, sustain: shape.sustain, rate: rate)
            withEnvelope(i) { $0 = envelope }
        }
        updateDepths(channel)
    }

    /// The channel's controllers moved: new depths, LFO frequencies and envelope points.
    mutating func channelChanged(_ channel: Channel) {
        guard isActive, let shaping else { return }
        for i in 0..<lfoCount {
            let shape = shaping.routedLFOs[i]
            if !shape.frequencyControllers.isEmpty {
                let hz = Self.finite(shape.frequency + sum(shape.frequencyControllers, channel))
                let rate = self.rate
                withLFO(i) { $0.setFrequency(hz, rate: rate) }
            }
            if !shape.phaseControllers.isEmpty {
                let phase = Self.finite(shape.phase + sum(shape.phaseControllers, channel))
                withLFO(i) { $0.setPhase(phase) }
            }
        }
        for i in 0..<envelopeCount {
            let shape = shaping.flexEnvelopes[i]
            guard shape.points.contains(where: { !$0.levelControllers.isEmpty || !$0.timeControllers.isEmpty }) else {
                continue
            }
            let (levels, seconds, _) = points(shape, channel)
            let rate = self.rate
            withEnvelope(i) { $0.setPoints(levels: levels, seconds: seconds, rate: rate, currentStageToo: shape.isDynamic) }
        }
        updateDepths(channel)
    }

    mutating func advance(_ frames: Int) {
        for i in 0..<lfoCount { withLFO(i) { $0.advance(frames) } }
        for i in 0..<envelopeCount { withEnvelope(i) { $0.advance(frames) } }
    }

    mutating func release() {
        for i in 0..<envelopeCount { withEnvelope(i) { $0.release() } }
    }

    /// True once the amplitude envelope (if there is one) has finished: the voice is silent.
    var amplitudeEnvelopeFinished: Bool {
        amplitudeEnvelope >= 0 && envelope(amplitudeEnvelope).isFinished
    }

    /// What the sources give `frames` frames from now; the amplitude envelope (`egN_ampeg`)
    /// multiplies the amplitude as sfizz's master amplitude.
    func ahead(_ frames: Int) -> Output {
        var sum = SIMD8<Float>(repeating: 0)
        var values = SIMD8<Float>(repeating: 0)
        var amplitude: Float = 1
        var ended = false
        for s in 0..<lfoCount + envelopeCount {
            let source = s < lfoCount ? s : 4 + s - lfoCount
            let (value, finished) = self.value(of: source, ahead: frames)
            if source == 4 + amplitudeEnvelope { ended = finished }
            if chainRouteCount > 0 { values[source] = value }
            let lanes = source * 8
            sum += value * SIMD8(depths[lanes], depths[lanes + 1], 0, depths[lanes + 3],
                                 depths[lanes + 4], depths[lanes + 5], depths[lanes + 6], depths[lanes + 7])
            if amplitudeSources & (1 << source) != 0 {
                amplitude *= value * depths[lanes + Int(ModulationTarget.amplitude.rawValue)]
            }
            if source == 4 + amplitudeEnvelope { amplitude *= value }
        }
        var chain = SIMD16<Float>(repeating: 0)
        for r in 0..<chainRouteCount {
            chain[Int(chainSlots[r])] += values[Int(chainSources[r])] * chainDepths[r]
        }
        return Output(pitch: sum[Int(ModulationTarget.pitch.rawValue)],
                      volume: sum[Int(ModulationTarget.volume.rawValue)], amplitude: amplitude,
                      pan: sum[Int(ModulationTarget.pan.rawValue)], cutoff: sum[Int(ModulationTarget.cutoff.rawValue)],
                      resonance: sum[Int(ModulationTarget.resonance.rawValue)],
                      width: sum[Int(ModulationTarget.width.rawValue)],
                      position: sum[Int(ModulationTarget.position.rawValue)], filterChain: chain, ended: ended)
    }

    /// The pitch alone `frames` frames from now (``ahead(_:)``'s `pitch`).
    func pitch(ahead frames: Int) -> Float {
        var pitch: Float = 0
        for s in 0..<lfoCount + envelopeCount {
            let source = s < lfoCount ? s : 4 + s - lfoCount
            pitch += value(of: source, ahead: frames).value * depths[source * 8 + Int(ModulationTarget.pitch.rawValue)]
        }
        return pitch
    }

    /// Source `source`'s output `frames` frames from now (0–3 the LFOs, 4–7 the envelopes),
    /// and whether an envelope has finished by then.
    @inline(__always)
    private func value(of source: Int, ahead frames: Int) -> (value: Float, finished: Bool) {
        if source < 4 {
            var lfo = self.lfo(source)
            lfo.advance(frames)
            return (lfo.value(step: lfo.playsSteps ? step(source, lfo.stepIndex) : 0), false)
        }
        var envelope = self.envelope(source - 4)
        envelope.advance(frames)
        return (envelope.value, envelope.isFinished)
    }

    /// Step `index` of LFO `i`'s sequence, read in place from the shape.
    private func step(_ i: Int, _ index: Int) -> Float {
        guard let shaping, index < shaping.routedLFOs[i].steps.count else { return 0 }
        return shaping.routedLFOs[i].steps[index]
    }

    /// Routes to the filter chain a voice keeps (sfizz has no limit; 16 covers every stage of
    /// the chain from two sources).
    static let filterChainRouteLimit = 16

    /// The filter chain slot (``ShapedControllers/slot(_:index:)``) a target moves, nil for the
    /// voice's own targets.
    static func filterChainSlot(_ target: ModulationTarget) -> Int? {
        target.rawValue >= ModulationTarget.firstFilterChainTarget.rawValue ? Int(target.rawValue) - 6 : nil
    }

    // MARK: - Controllers

    /// Each route's depth with its controllers: added, or multiplied for the amplitude (sfizz
    /// multiplies a multiplicative target's depth by its controllers).
    private mutating func updateDepths(_ channel: Channel) {
        guard let shaping else { return }
        depths = SIMD64(repeating: 0)
        chainDepths = SIMD16(repeating: 0)
        chainRouteCount = 0
        amplitudeSources = 0
        movesPan = false
        movesPitch = false
        func apply(_ routes: [ModulationRoute], source: Int) {
            for route in routes {
                if let slot = Self.filterChainSlot(route.target) {
                    let depth = Self.finite(route.depth + sum(route.depthControllers, channel))
                    guard chainRouteCount < Self.filterChainRouteLimit else { continue }
                    chainDepths[chainRouteCount] = depth
                    chainSources[chainRouteCount] = UInt8(source)
                    chainSlots[chainRouteCount] = UInt8(slot)
                    chainRouteCount += 1
                    continue
                }
                let lane = source * 8 + Int(route.target.rawValue)
                if route.target == .amplitude {
                    var depth = route.depth
                    for input in route.depthControllers { depth *= position(input.controller, channel) * input.depth }
                    depths[lane] = Self.finite(amplitudeSources & (1 << source) != 0 ? depths[lane] * depth : depth)
                    amplitudeSources |= 1 << source
                } else {
                    depths[lane] = Self.finite(depths[lane] + route.depth + sum(route.depthControllers, channel))
                    movesPan = movesPan || route.target == .pan || route.target == .width || route.target == .position
                    movesPitch = movesPitch || route.target == .pitch
                }
            }
        }
        for i in 0..<lfoCount { apply(shaping.routedLFOs[i].routes, source: i) }
        for i in 0..<envelopeCount { apply(shaping.flexEnvelopes[i].routes, source: 4 + i) }
    }

    /// The points' levels and times with their controllers, and their shapes.
    private func points(_ shape: FlexEnvelopeShape, _ channel: Channel) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
        var levels = SIMD8<Float>(repeating: 0), seconds = levels, shapes = levels
        for (i, point) in shape.points.prefix(FlexEnvelopeShape.pointLimit).enumerated() {
            levels[i] = Self.finite(point.level + sum(point.levelControllers, channel))
            seconds[i] = Self.finite(point.time + sum(point.timeControllers, channel))
            shapes[i] = point.shape
        }
        return (levels, seconds, shapes)
    }

    private func sum(_ inputs: [ControllerDepth], _ channel: Channel) -> Float {
        var total: Float = 0
        for input in inputs { total += position(input.controller, channel) * input.depth }
        return Self.finite(total)
    }

    /// `x` within ±10⁶, NaN as −10⁶: opcodes keep any finite value, and two of 3·10³⁸ summed
    /// are infinite, which a delay or an idle LFO (0 × ∞) would turn into a NaN pitch.
    static func finite(_ x: Float) -> Float { Voice.bounded(x, -1e6...1e6) }

    /// A controller's position as sfizz reads it: 0…1 (the pitch wheel −1…1).
    private func position(_ controller: Int, _ channel: Channel) -> Float {
        switch controller {
        case 0..<128: Float(channel.controllers[controller]) / 127
        case 128: (Float(channel.pitchWheel) - 8192) / 8192
        case 129: Float(channel.channelPressure) / 127
        case 130: Float(channel.polyPressure[min(max(key, 0), 127)]) / 127
        case 131: Float(velocity) / 127
        case 133: Float(key) / 127
        default: 0
        }
    }

    // MARK: - Slots

    private func lfo(_ i: Int) -> RoutedLFO {
        switch i {
        case 0: lfo0
        case 1: lfo1
        case 2: lfo2
        default: lfo3
        }
    }

    private func envelope(_ i: Int) -> FlexEnvelope {
        switch i {
        case 0: eg0
        case 1: eg1
        case 2: eg2
        default: eg3
        }
    }

    private mutating func withLFO(_ i: Int, _ body: (inout RoutedLFO) -> Void) {
        switch i {
        case 0: body(&lfo0)
        case 1: body(&lfo1)
        case 2: body(&lfo2)
        default: body(&lfo3)
        }
    }

    private mutating func withEnvelope(_ i: Int, _ body: (inout FlexEnvelope) -> Void) {
        switch i {
        case 0: body(&eg0)
        case 1: body(&eg1)
        case 2: body(&eg2)
        default: body(&eg3)
        }
    }
}
