/// What a ``LiveOutput`` has done so far: frames, underruns and how hard the render thread
/// worked.
public struct LiveOutputStatistics: Sendable, Equatable {
    /// Frames the render callback has produced.
    public var framesRendered: Int
    /// Frames handed to the device.
    public var framesWritten: Int
    /// Times the device ran dry: the writer fell further behind the device's clock than the
    /// device buffer holds (so the listener heard a gap), or the device itself reported an
    /// underrun.
    public var underruns: Int
    /// Of ``underruns``, those the device reported (ALSA's `EPIPE`).
    public var deviceUnderruns: Int
    /// The longest one render callback took, in seconds.
    public var longestRender: Double
    /// The length of one render block, in seconds: a render longer than this is late.
    public var blockDuration: Double

    /// The longest render as a fraction of the block's duration (1 = only just in time).
    public var peakLoad: Double { blockDuration > 0 ? longestRender / blockDuration : 0 }
}
