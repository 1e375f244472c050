/// Switches for the speed tricks and counters of what they did, so tests can compare each
/// trick's output with the plain path and check that it ran. Not API.
extension Synthesizer {
    /// Whether stereo pairs in step share one phase stream (``StereoTwins.swift``), and how many
    /// frames did.
    @_spi(Testing) public var pairsStereoTwins: Bool {
        get { renderer.pairsTwins }
        set { renderer.pairsTwins = newValue }
    }
    @_spi(Testing) public var stereoTwinFrames: Int { renderer.twinFrames }

    /// Whether voices whose filters have settled share filters (``FilterRouter``), and how
    /// many voice frames did.
    @_spi(Testing) public var sharesFilters: Bool {
        get { renderer.shortcuts.sharing }
        set { renderer.shortcuts.sharing = newValue }
    }
    @_spi(Testing) public var sharedFilterFrames: Int { renderer.router.sharedFrames }
    /// Chunks of members' signals the threads' mix step added to shared filters' inputs so far.
    @_spi(Testing) public var sharedInputsMixedOnThreads: Int { renderer.router.pool.queuedMembers }

    /// Whether steady voices run through control points that would change nothing
    /// (``SteadyVoice.swift``), how many points they passed so far (and how many of those
    /// inside a longer oscillator run), and how many active voices are steady now.
    @_spi(Testing) public var skipsSteadyControlPoints: Bool {
        get { renderer.shortcuts.steady }
        set { renderer.shortcuts.steady = newValue }
    }
    @_spi(Testing) public var steadyPointsPassed: (all: Int, runThrough: Int) {
        (renderer.steadyPoints, renderer.steadyPointsRunThrough)
    }
    /// Whether every control point flushes the voice filters' tiny state, as where the hardware
    /// does not flush denormals (``DenormalMode``); the default follows the platform.
    @_spi(Testing) public var flushesFilterStateAtControlPoints: Bool {
        get { context.explicitFilterFlush }
        set { context.explicitFilterFlush = newValue }
    }
    /// Whether every round of voices is spread over the threads, however little work it holds
    /// (``VoiceRenderer/minimumThreadedVoices``, ``VoiceRenderer/minimumThreadedWork``), and how
    /// many rounds were.
    @_spi(Testing) public var spreadsEveryRoundOverThreads: Bool {
        get { renderer.alwaysUsesThreads }
        set { renderer.alwaysUsesThreads = newValue }
    }
    @_spi(Testing) public var threadedRounds: Int { renderer.threadedRounds }
    /// The least voices and voice frames a round must hold to be spread over the threads
    /// (``VoiceRenderer/minimumThreadedVoices``, ``VoiceRenderer/minimumThreadedWork``):
    /// benchmarks try others on one build.
    @_spi(Testing) public var threadedRoundMinimum: (voices: Int, voiceFrames: Int) {
        get { (renderer.minimumVoices, renderer.minimumWork) }
        set { (renderer.minimumVoices, renderer.minimumWork) = (max(1, newValue.voices), max(0, newValue.voiceFrames)) }
    }
    @_spi(Testing) public var steadyVoiceCount: Int {
        var n = 0
        voicePool.forEachActive { v in if v.isHeldSteady { n += 1 } }
        return n
    }
}

extension Synthesizer {
    /// Counts and times the render's parts while set (``RenderProfile``); nil by default.
    @_spi(Testing) public var renderProfile: RenderProfile? {
        get { renderer.profile }
        set {
            renderer.profile = newValue
            mixer.parallelEffects?.profile = newValue
        }
    }
    /// Chunks whose reverb and chorus ran side by side on the threads (``ParallelEffects``).
    @_spi(Testing) public var effectChunksOnThreads: Int { mixer.parallelEffects?.chunksRun ?? 0 }
}
