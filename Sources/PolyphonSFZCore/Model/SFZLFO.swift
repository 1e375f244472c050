/// The wave of an LFO (`lfoN_wave`, `amplfo_wave`), numbered as in ARIA and sfizz.
public enum SFZLFOWave: Int, Hashable, Sendable, CaseIterable {
    case triangle = 0, sine = 1, pulse75 = 2, square = 3, pulse25 = 4, pulse12_5 = 5
    case ramp = 6, saw = 7
    /// Random values held for a period (ARIA's 12).
    case sampleAndHold = 12
}

/// An SFZ v1 LFO: `amplfo_*` (depth in dB), `pitchlfo_*` (cents), `fillfo_*` (cents of cutoff).
public struct SFZLegacyLFO: Hashable, Sendable {
    /// `*_delay`, seconds.
    public var delay: Float = 0
    /// `*_fade`: seconds to reach full depth after the delay.
    public var fade: Float = 0
    /// `*_freq` in Hz, and `*_freq_onccN`.
    public var frequency = SFZModulatedValue(0)
    /// `*_depth`, and `*_depth_onccN`.
    public var depth = SFZModulatedValue(0)
    /// `*_depthchanaft`: depth added at full channel pressure.
    public var depthByChannelPressure: Float = 0
    /// `*_depthpolyaft`: depth added at full key pressure.
    public var depthByKeyPressure: Float = 0
    /// `*_freqchanaft`: Hz added at full channel pressure.
    public var frequencyByChannelPressure: Float = 0
    /// `*_freqpolyaft`: Hz added at full key pressure.
    public var frequencyByKeyPressure: Float = 0
    /// `*_wave` (sfizz extension); v1 LFOs are sines.
    public var wave: SFZLFOWave = .sine

    /// An LFO with nothing set.
    public init() {}
}

/// An SFZ v2 LFO (`lfoN_*`): a sum of waves (or a step sequence) routed to any number of
/// targets, each with its own depth.
public struct SFZLFO: Hashable, Sendable {
    /// `lfoN_freq` in Hz, and `lfoN_freq_onccN`.
    public var frequency = SFZModulatedValue(0)
    /// `lfoN_beats`: period in beats of the host tempo, and `lfoN_beats_onccN`.
    public var beats = SFZModulatedValue(0)
    /// `lfoN_phase`: starting phase 0…1, and `lfoN_phase_onccN`.
    public var phase = SFZModulatedValue(0)
    /// `lfoN_delay` in seconds, and `lfoN_delay_onccN`.
    public var delay = SFZModulatedValue(0)
    /// `lfoN_fade` in seconds, and `lfoN_fade_onccN`.
    public var fade = SFZModulatedValue(0)
    /// `lfoN_count`: cycles before it stops (0: no end).
    public var count = 0
    /// `lfoN_steps`/`lfoN_stepX`: a step sequence in percent (−100…100) played in place of
    /// the first wave; nil when none is given.
    public var steps: [Float]?
    /// `lfoN_waveX`, `lfoN_offsetX`, `lfoN_ratioX`, `lfoN_scaleX`: the waves summed (the first
    /// is `lfoN_wave`).
    public var subwaves = [SFZLFOSubwave()]
    /// `lfoN_pitch`, `lfoN_volume`, `lfoN_cutoff2` …: where it goes and how far.
    public var routes: [SFZModulationRoute] = []

    /// An LFO with nothing set: a triangle at 0 Hz, going nowhere.
    public init() {}
}

/// One of the waves a v2 LFO sums.
public struct SFZLFOSubwave: Hashable, Sendable {
    /// `lfoN_waveX` (triangle).
    public var wave: SFZLFOWave = .triangle
    /// `lfoN_offsetX`: added to the wave, −1…1.
    public var offset: Float = 0
    /// `lfoN_ratioX`: frequency relative to the LFO's (1).
    public var ratio: Float = 1
    /// `lfoN_scaleX`: level (1).
    public var scale: Float = 1

    /// A triangle at the LFO's frequency and full level.
    public init() {}
}

/// An SFZ v2 flex envelope (`egN_*`): points joined by shaped segments, routed to targets.
public struct SFZFlexEnvelope: Hashable, Sendable {
    /// `egN_timeX`, `egN_levelX`, `egN_shapeX`, from point 0.
    public var points: [SFZFlexEnvelopePoint] = []
    /// `egN_sustain`: the point held while the key is down.
    public var sustainPoint = 0
    /// `egN_dynamic`.
    public var isDynamic = false
    /// `egN_ampeg`: this envelope replaces the amplitude envelope.
    public var drivesAmplitude = false
    /// `egN_pitch`, `egN_cutoff` …: where it goes and how far.
    public var routes: [SFZModulationRoute] = []

    /// An envelope with no points.
    public init() {}
}

/// A point of a flex envelope.
public struct SFZFlexEnvelopePoint: Hashable, Sendable {
    /// `egN_timeX`: seconds from the previous point, and `egN_timeX_onccN`.
    public var time = SFZModulatedValue(0)
    /// `egN_levelX`: −1…1, and `egN_levelX_onccN`.
    public var level = SFZModulatedValue(0)
    /// `egN_shapeX`: 0 linear, positive and negative bend the segment.
    public var shape: Float = 0

    /// A point at level 0, no time after the previous one.
    public init() {}
}

/// Where a v2 LFO or flex envelope sends its output.
public enum SFZModulationTarget: Hashable, Sendable {
    /// Percent of amplitude.
    case amplitude
    /// Pan, percent.
    case pan
    /// Stereo width, percent.
    case width
    /// Stereo position, percent.
    case position
    /// Cents.
    case pitch
    /// dB.
    case volume
    /// Cents of cutoff of filter `index` (0 is `fil1`).
    case cutoff(filter: Int)
    /// dB of resonance of filter `index`.
    case resonance(filter: Int)
    /// dB of gain of filter `index`.
    case filterGain(filter: Int)
    /// dB of gain of equaliser band `index` (0 is `eq1`).
    case equalizerGain(band: Int)
    /// Hz of equaliser band `index`.
    case equalizerFrequency(band: Int)
    /// Octaves of bandwidth of equaliser band `index`.
    case equalizerBandwidth(band: Int)
    /// Hz of the frequency of v2 LFO `index` (flex envelopes only: `egN_freq_lfoX`).
    case lfoFrequency(lfo: Int)
}

/// A modulation source's connection to one target: its depth, and the controllers that move
/// the depth (`lfo1_pitch=50 lfo1_pitch_oncc1=100`).
public struct SFZModulationRoute: Hashable, Sendable {
    /// Where it goes.
    public var target: SFZModulationTarget
    /// How far, in the target's unit at full output.
    public var depth: SFZModulatedValue

    /// A route to `target` of `depth`.
    public init(target: SFZModulationTarget, depth: SFZModulatedValue = SFZModulatedValue(0)) {
        self.target = target
        self.depth = depth
    }
}

extension Array where Element == SFZModulationRoute {
    /// The route to `target`, created at depth 0 if there is none.
    mutating func update(_ target: SFZModulationTarget, _ change: (inout SFZModulatedValue) -> Void) {
        if let index = firstIndex(where: { $0.target == target }) {
            change(&self[index].depth)
        } else {
            var route = SFZModulationRoute(target: target)
            change(&route.depth)
            append(route)
        }
    }
}
