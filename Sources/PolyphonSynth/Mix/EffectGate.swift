/// Decides when the reverb and chorus run: from the exact frame something is first sent to
/// them on any bus (so their modulation starts with the sound, however far into the render that
/// is) until a block of ``Synthesizer/controlPeriod`` frames — counted from that start — in
/// which nothing was sent, no voice sounded and the tails, all buses summed, stayed below
/// −120 dBFS. Their tails are then cleared, and silence costs nothing.
///
/// Everything is counted from the start frame, never from where render calls or chunks begin,
/// so output is the same bit for bit however calls are sliced; deciding on every bus together
/// (on the summed output) keeps channel buses starting and stopping exactly as one shared bus
/// would.
struct EffectGate {
    /// True from the first frame anything is sent to an effect until the tails are over.
    private(set) var isActive = false
    /// Frames the effects have run since they started.
    private var frames = 0
    /// In the current block: something was sent or a voice sounded (on any bus), and the
    /// loudest output otherwise (the tails alone, all buses summed).
    private var blockHadSignal = false
    private var blockTail: Float = 0

    /// Runs the effects of every bus over the chunk's `n` frames, or none. With `parallel`, the
    /// effect units run side by side wherever the gate's decisions are known before they run.
    mutating func run(_ buses: [OutputBus], count n: Int, parallel: ParallelEffects? = nil) {
        let grid = Synthesizer.controlPeriod
        var start = 0
        var parallel = parallel
        while start < n {
            if !isActive {
                var first = n
                for b in buses { if let f = b.firstSend(from: start, to: first) { first = f } }
                guard first < n else { return }
                isActive = true
                frames = 0
                blockHadSignal = false
                blockTail = 0
                start = first
            }
            if let units = parallel {
                // Tried once a chunk: where a block without signal makes the gate read the tails,
                // the rest of the chunk runs piece by piece below.
                parallel = nil
                if n - start >= ParallelEffects.minimumFrames && runsThrough(buses, from: start, to: n) {
                    units.run(from: start, count: n - start)
                    return
                }
            }
            let m = min(n - start, grid - frames % grid)
            let measuring = !blockHadSignal
            for b in buses where b.runEffects(from: start, count: m, measuring: measuring) { blockHadSignal = true }
            if !blockHadSignal { blockTail = max(blockTail, Self.summedPeak(buses, from: start, count: m)) }
            frames += m
            start += m
            if frames % grid == 0 {
                if !blockHadSignal && blockTail < 1e-6 {
                    isActive = false
                    for b in buses { b.clearTails() }
                }
                blockHadSignal = false
                blockTail = 0
            }
        }
    }

    /// When every block of ``Synthesizer/controlPeriod`` frames met in frames `start..<n` has a
    /// signal (something sent, a voice sounding) before its effects would run, the gate neither
    /// stops nor reads the effects' output there: advances it to `n` as ``run(_:count:parallel:)``
    /// would and returns true, leaving the effects to run over the frames in one piece. Else
    /// changes nothing and returns false.
    private mutating func runsThrough(_ buses: [OutputBus], from start: Int, to n: Int) -> Bool {
        let grid = Synthesizer.controlPeriod
        var had = blockHadSignal, tail = blockTail, counted = frames, s = start
        while s < n {
            let m = min(n - s, grid - counted % grid)
            if !had { had = buses.contains { $0.hasSignal(from: s, count: m) } }
            guard had else { return false }
            counted += m
            s += m
            if counted % grid == 0 {
                had = false
                tail = 0
            }
        }
        blockHadSignal = had
        blockTail = tail
        frames = counted
        return true
    }

    /// The largest magnitude of the buses' output, summed as the main output sums them.
    private static func summedPeak(_ buses: [OutputBus], from start: Int, count m: Int) -> Float {
        var peak: Float = 0
        if buses.count == 1 {
            let l = buses[0].left + start, r = buses[0].right + start
            for i in 0..<m { peak = max(peak, abs(l[i]), abs(r[i])) }
            return peak
        }
        for i in start..<(start + m) {
            var l: Float = 0, r: Float = 0
            for b in buses {
                l += b.left[i]
                r += b.right[i]
            }
            peak = max(peak, abs(l), abs(r))
        }
        return peak
    }
}
