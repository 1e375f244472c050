/// Where an SFZ v2 LFO or flex envelope (``RoutedLFOShape``, ``FlexEnvelopeShape``) sends its
/// output, each in sfizz's unit: the source's output (−1…1) times the route's depth is added
/// to the target, except the amplitude, which it multiplies (sfizz's multiplicative target).
/// The targets from ``filterGain`` on move the voice's filter chain, in the order
/// ``ControllerModulationShape`` numbers its stages (first filter, second, bands 1–3).
public enum ModulationTarget: UInt8, Hashable, Sendable, CaseIterable {
    /// Cents of pitch.
    case pitch = 0
    /// dB of volume.
    case volume
    /// A factor (1 is 100 %) the amplitude is multiplied by.
    case amplitude
    /// Percent of pan (−100 hard left … 100 hard right).
    case pan
    /// Cents of the shaped filter's cutoff.
    case cutoff
    /// dB of the shaped filter's resonance.
    case resonance
    /// Percent of a stereo zone's width (a mono zone has none, as in sfizz).
    case width
    /// Percent of a stereo zone's position.
    case position
    /// dB of the first filter's shelf or peak gain.
    case filterGain
    /// Cents of the second filter's cutoff.
    case secondCutoff
    /// dB of the second filter's resonance.
    case secondResonance
    /// dB of the second filter's shelf or peak gain.
    case secondFilterGain
    /// Hz, octaves of bandwidth and dB of gain of equaliser bands 1, 2 and 3.
    case band1Frequency, band1Bandwidth, band1Gain
    case band2Frequency, band2Bandwidth, band2Gain
    case band3Frequency, band3Bandwidth, band3Gain
}

extension ModulationTarget {
    /// The first target that moves the filter chain rather than the voice's pitch, level or pan.
    public static let firstFilterChainTarget = ModulationTarget.filterGain

    /// Equaliser band `band`'s (0 is `eq1`) frequency, bandwidth or gain: `part` 0, 1 or 2.
    public static func band(_ band: Int, part: Int) -> ModulationTarget? {
        guard (0..<3).contains(band), (0..<3).contains(part) else { return nil }
        return ModulationTarget(rawValue: band1Frequency.rawValue + UInt8(3 * band + part))
    }
}

/// One connection of a modulation source to a target: its depth, and the controllers that move
/// the depth — added to it, or for the amplitude, multiplied into it (each as position × depth),
/// as sfizz's modulation matrix combines them.
public struct ModulationRoute: Hashable, Sendable {
    public var target: ModulationTarget
    /// The target's unit at full output (the amplitude: a factor).
    public var depth: Float
    public var depthControllers: [ControllerDepth]

    /// A route to `target` of `depth`, moved by `depthControllers`.
    public init(_ target: ModulationTarget, depth: Float, depthControllers: [ControllerDepth] = []) {
        self.target = target
        self.depth = depth
        self.depthControllers = depthControllers
    }
}

/// An SFZ v2 LFO (`lfoN_*`) as sfizz plays it: a sum of waves, each at `ratio` times the LFO's
/// frequency, `offset + scale × wave`, starting from `phase` after `delay` seconds and faded in
/// linearly over `fade` seconds; after `count` cycles (0: never) it stops.
public struct RoutedLFOShape: Hashable, Sendable {
    /// One of the waves summed.
    public struct Wave: Hashable, Sendable {
        public var wave: LFOShape.Wave
        public var offset: Float
        public var ratio: Float
        public var scale: Float

        /// `wave` at `ratio` times the LFO's frequency, scaled and offset.
        public init(_ wave: LFOShape.Wave, offset: Float = 0, ratio: Float = 1, scale: Float = 1) {
            self.wave = wave
            self.offset = offset
            self.ratio = ratio
            self.scale = scale
        }
    }

    /// Hz, and the controllers adding Hz to it.
    public var frequency: Float
    public var frequencyControllers: [ControllerDepth] = []
    /// Starting phase, 0…1, and the controllers adding to it (followed while the LFO runs:
    /// sfizz adds them to the phase at every frame).
    public var phase: Float = 0
    public var phaseControllers: [ControllerDepth] = []
    /// Seconds, each with the controllers adding seconds (read when the note starts).
    public var delay: Float = 0
    public var delayControllers: [ControllerDepth] = []
    public var fade: Float = 0
    public var fadeControllers: [ControllerDepth] = []
    /// Cycles before the LFO stops (0: it never does).
    public var count: Int = 0
    /// A step sequence (`lfoN_stepX`, −1…1) played in place of the waves, one step after the
    /// other through each cycle of the first wave's phase, scaled and offset by the first
    /// wave; empty for none.
    public var steps: [Float] = []
    public var waves: [Wave]
    public var routes: [ModulationRoute]

    /// An LFO at `frequency` Hz summing `waves`, sent along `routes`.
    public init(frequency: Float, waves: [Wave], routes: [ModulationRoute]) {
        self.frequency = frequency
        self.waves = waves
        self.routes = routes
    }
}

/// An SFZ v2 flex envelope (`egN_*`) as sfizz plays it: from level 0, a segment to each point's
/// level over its time, bent by its shape (`x^(1 + shape)` above 0, `1 − (1 − x)^(1 − shape)`
/// below); the sustain point's level holds while the key is down, the points after it play on
/// release, and after the last the output is 0.
public struct FlexEnvelopeShape: Hashable, Sendable {
    /// One point: the segment reaching it.
    public struct Point: Hashable, Sendable {
        /// Seconds from the previous point, and the controllers adding seconds.
        public var time: Float
        public var timeControllers: [ControllerDepth] = []
        /// −1…1, and the controllers adding to it.
        public var level: Float
        public var levelControllers: [ControllerDepth] = []
        public var shape: Float = 0

        /// A point reached `time` seconds after the previous one at `level`.
        public init(time: Float, level: Float, shape: Float = 0) {
            self.time = time
            self.level = level
            self.shape = shape
        }
    }

    public var points: [Point]
    /// The index of the point held until release.
    public var sustain: Int
    /// Controllers moving the points' times and levels act while the envelope runs, not only
    /// when it reaches them (`egN_dynamic`).
    public var isDynamic = false
    /// The envelope is the voice's amplitude envelope in place of the SF2 one (`egN_ampeg`): the
    /// voice ends when it does.
    public var drivesAmplitude = false
    public var routes: [ModulationRoute]

    /// An envelope through `points`, holding at point `sustain`, sent along `routes`.
    public init(points: [Point], sustain: Int, routes: [ModulationRoute]) {
        self.points = points
        self.sustain = sustain
        self.routes = routes
    }
}

extension RoutedLFOShape {
    /// LFOs a voice plays (sfizz's default); an instrument's further ones are left out.
    public static let voiceLimit = 4
    /// Waves an LFO sums (sfizz's limit).
    public static let waveLimit = 8
    /// Steps of a step sequence (sfizz's limit).
    public static let stepLimit = 128
}

extension FlexEnvelopeShape {
    /// Envelopes a voice plays (sfizz's default); an instrument's further ones are left out.
    public static let voiceLimit = 4
    /// Points an envelope plays (sfizz's default); further points are left out.
    public static let pointLimit = 8
}
