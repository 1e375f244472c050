/// Where a render's work goes, and how much of it a ``RenderThreadPool`` can share: chunks,
/// rounds of voices and voice frames that went to the threads or stayed on the render thread
/// (and why), and — with a clock — the time of each part of a chunk. For
/// `PolyphonBenchmark --thread-profile`; not API.
///
/// The counts are exact whatever the clock; the times are what the clock says (the benchmark
/// hands it the render thread's CPU time, so a loaded machine does not inflate them). A pool
/// that runs every task on the calling thread but reports two threads gives the rounds their
/// threaded shape with all the time on one thread: Amdahl's bound, measured.
@_spi(Testing) public final class RenderProfile {
    /// Nanoseconds on any fixed clock.
    public let clock: () -> UInt64

    public init(clock: @escaping () -> UInt64) {
        self.clock = clock
    }

    /// Chunks rendered (the render loop's pieces between events) and their frames.
    public internal(set) var chunks = 0
    public internal(set) var chunkFrames = 0
    /// Rounds spread over the threads, and their voice frames (voices × chunk frames).
    public internal(set) var threadedRounds = 0
    public internal(set) var threadedVoiceFrames = 0
    /// Rounds kept on the render thread, and their voice frames.
    public internal(set) var serialRounds = 0
    public internal(set) var serialVoiceFrames = 0
    /// The least voices a threaded round held when last counted (``Synthesizer/threadedRoundMinimum``).
    public internal(set) var minimumVoices = VoiceRenderer.minimumThreadedVoices
    /// Of those: kept because the round held too few voices (``VoiceRenderer/minimumThreadedVoices``)…
    public internal(set) var fewVoicesRounds = 0
    public internal(set) var fewVoicesVoiceFrames = 0
    /// …or enough voices but too few frames (``VoiceRenderer/minimumThreadedWork``).
    public internal(set) var shortChunkRounds = 0
    public internal(set) var shortChunkVoiceFrames = 0
    /// Voice frames by the voices in their round: index i counts rounds of 2^i … 2^(i+1) − 1
    /// voices (the last, 128 and more).
    public internal(set) var voiceFramesByRoundSize = [Int](repeating: 0, count: 8)

    /// Nanoseconds spent, summed over the render: dispatching events (and held-back releases)…
    public internal(set) var dispatchTime: UInt64 = 0
    /// …rendering and filtering voices, and mixing them, in rounds spread over the threads…
    public internal(set) var threadedRenderTime: UInt64 = 0
    public internal(set) var threadedMixTime: UInt64 = 0
    /// …the same in rounds kept on the render thread…
    public internal(set) var serialRenderTime: UInt64 = 0
    public internal(set) var serialMixTime: UInt64 = 0
    /// The tasks of those rounds (both steps), timed on whichever thread ran them and summed over
    /// the threads: beside the two times above (the render thread's, its waits included), what
    /// the same work costs when several threads share it (their caches, the cores' clock).
    public internal(set) var threadedTaskTime: UInt64 = 0
    /// …between the two steps of a round: routing voices into shared filters, the meter…
    public internal(set) var routeTime: UInt64 = 0
    /// …running the shared filters at a chunk's end…
    public internal(set) var sharedFilterTime: UInt64 = 0
    /// …the effects, master volume and bus sum (``Mixer/finish(_:)``), and of that the effect
    /// units run side by side on the threads (``ParallelEffects``)…
    public internal(set) var effectsTime: UInt64 = 0
    public internal(set) var parallelEffectsTime: UInt64 = 0
    /// Each whole chunk after its events, everything above included, and the output copied out:
    /// what it holds beyond the parts is clearing buses, trimming the pool and the copy.
    public internal(set) var chunkTime: UInt64 = 0

    @inline(__always)
    func countRound(voices r: Int, frames n: Int, threaded: Bool, minimumVoices: Int) {
        let work = r * n
        self.minimumVoices = minimumVoices
        voiceFramesByRoundSize[min(7, Int.bitWidth - 1 - r.leadingZeroBitCount)] += work
        if threaded {
            threadedRounds += 1
            threadedVoiceFrames += work
        } else {
            serialRounds += 1
            serialVoiceFrames += work
            if r < minimumVoices {
                fewVoicesRounds += 1
                fewVoicesVoiceFrames += work
            } else {
                shortChunkRounds += 1
                shortChunkVoiceFrames += work
            }
        }
    }
}
