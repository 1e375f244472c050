/// Each MIDI channel's output level, measured from the voices as they are mixed (read only:
/// the rendered samples do not change).
///
/// A voice's contribution is its signal after its own filter and gain, times the larger of its
/// two pan gains: the block peak of that, over the voices of a channel, is the channel's block
/// peak. (A voice whose settled filter is shared with others is measured before that shared
/// filter, times the filter's pass-band gain: right below the cutoff, not at its resonance.)
/// Effects and the master volume come after.
///
/// Ballistics as a peak programme meter: the level rises to a block's peak at once and falls at
/// ``fallDecibelsPerSecond`` otherwise. All memory is allocated up front; measuring allocates
/// nothing and takes no lock.
final class ChannelLevelMeter {
    /// How fast a level falls when its channel goes quiet.
    static let fallDecibelsPerSecond = 20.0
    /// Levels that fall below −120 dBFS read as silence (−∞), as a channel that never sounded.
    static let floor: Float = 1e-6

    let channelCount: Int
    private let sampleRate: Double
    /// This chunk's peak per channel (linear), gathered on the render thread.
    private let blockPeaks: UnsafeMutablePointer<Float>
    /// The metered level per channel (linear), after ballistics.
    private let levels: UnsafeMutablePointer<Float>

    init(channelCount: Int, sampleRate: Double) {
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        blockPeaks = .allocate(filledWith: 0, count: channelCount)
        levels = .allocate(filledWith: 0, count: channelCount)
    }

    deinit {
        blockPeaks.deallocate()
        levels.deallocate()
    }

    /// Takes in the first `n` frames of a voice's signal on `channel`, scaled by `gain`.
    @inline(__always)
    func measure(_ signal: UnsafePointer<Float>, _ n: Int, gain: Float, channel: Int) {
        guard n > 0, gain > 0, channel >= 0, channel < channelCount else { return }
        var peak4 = SIMD4<Float>.zero
        var i = 0
        while i + 4 <= n {
            let v = SIMD4(signal[i], signal[i + 1], signal[i + 2], signal[i + 3])
            peak4 = pointwiseMax(peak4, pointwiseMax(v, -v))
            i += 4
        }
        var peak = peak4.max()
        while i < n {
            peak = max(peak, abs(signal[i]))
            i += 1
        }
        blockPeaks[channel] = max(blockPeaks[channel], peak * gain)
    }

    /// Ends a chunk of `frames` frames: each level falls by the chunk's share of the fall rate
    /// or rises to the chunk's peak, whichever is higher.
    func finishChunk(frames: Int) {
        let decay = Float(Math.pow(10, -Self.fallDecibelsPerSecond / 20 * Double(frames) / sampleRate))
        for c in 0..<channelCount {
            let level = max(blockPeaks[c], levels[c] * decay)
            levels[c] = level < Self.floor ? 0 : level
            blockPeaks[c] = 0
        }
    }

    /// The metered level of `channel` in dBFS (0 dBFS: a full-scale sample), −∞ for silence.
    func level(ofChannel channel: Int) -> Float {
        guard channel >= 0, channel < channelCount else { return -.infinity }
        let l = levels[channel]
        return l > 0 ? 20 * Math.log10(l) : -.infinity
    }

    /// Every level back to silence.
    func reset() {
        blockPeaks.update(repeating: 0, count: channelCount)
        levels.update(repeating: 0, count: channelCount)
    }
}
