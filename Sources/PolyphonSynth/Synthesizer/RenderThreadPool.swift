/// Threads a ``Synthesizer`` spreads the rendering of its voices over
/// (``Synthesizer/init(soundBank:sampleRate:configuration:threads:)``).
///
/// The engine is portable and starts no threads of its own: a native layer implements this
/// protocol (PolyphonPlayback's `RenderThreads`). Each chunk the synthesizer hands the pool
/// numbered tasks — groups of voices to render, then stretches of frames to mix — that may run
/// in any order on any of the pool's threads; every output sample is summed in voice-pool
/// order whoever computed its parts, so the output is the same bytes whatever the thread
/// count. The reverb and chorus run once, on the render thread, on the summed sends.
///
/// One synthesizer at a time uses a pool.
public protocol RenderThreadPool: AnyObject {
    /// Threads taking part in ``perform(_:taskCount:)``, the calling thread included: at least 1.
    var threadCount: Int { get }

    /// Calls `work.performTask(i, thread:)` once for every `i` in `0..<taskCount`, spread over
    /// the pool's threads, and returns when every call has returned. The calling thread takes
    /// part as thread 0; `thread` is below ``threadCount`` and no two calls with the same
    /// `thread` overlap. Called from the render thread: it must not allocate, take locks or
    /// wait on anything but tasks under way.
    func perform(_ work: any ParallelRenderWork, taskCount: Int)
}

/// Work a ``RenderThreadPool`` runs: numbered tasks, independent of each other.
public protocol ParallelRenderWork: AnyObject {
    /// Runs task `index` on the thread the pool numbers `thread` (which selects the task's
    /// working memory).
    func performTask(_ index: Int, thread: Int)
}
