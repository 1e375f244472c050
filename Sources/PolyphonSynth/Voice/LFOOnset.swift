/// How an LFO of sfizz's starts (``ShapedLFO``, ``RoutedLFO``): silent for its delay (whole
/// frames, rounded up), then faded in linearly over its fade time.
struct LFOOnset {
    private var delayFrames = 0
    /// Fade-in progress 0…1 and its step per frame.
    private(set) var fade: Double = 1
    private var fadeStep: Double = 0

    init() {}

    /// An onset of `delay` then `fade` seconds at `rate`.
    init(delay: Float, fade: Float, rate: Double) {
        // An SFZ may give any finite delay (`pitchlfo_delay=1e30`); beyond Int32.max frames (over
        // 13 hours) the LFO never starts anyway, and the conversion to Int must not trap.
        delayFrames = delay > 0 ? Int(min(Double(delay) * rate, Double(Int32.max)).rounded(.up)) : 0
        self.fade = fade > 0 ? 0 : 1
        fadeStep = fade > 0 ? 1 / (Double(fade) * rate) : 0
    }

    /// True while the delay runs: the LFO gives nothing and its phase stands still.
    var isDelaying: Bool { delayFrames > 0 }

    /// Moves on by `frames`; returns how many of them come after the delay.
    mutating func advance(_ frames: Int) -> Int {
        var n = frames
        if delayFrames > 0 {
            let skipped = min(n, delayFrames)
            delayFrames -= skipped
            n -= skipped
        }
        if n > 0 && fade < 1 { fade = min(1, fade + fadeStep * Double(n)) }
        return n
    }
}
