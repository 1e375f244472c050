/// One stereo output of the synthesizer with its own effect sends and effect units: the main
/// mix, or — when channel outputs are on — one per MIDI channel, so stems include their share
/// of reverb and chorus and add up to the mix.
final class OutputBus {
    let left: UnsafeMutablePointer<Float>
    let right: UnsafeMutablePointer<Float>
    let reverbSend: UnsafeMutablePointer<Float>
    let chorusSend: UnsafeMutablePointer<Float>
    let reverb: Reverb?
    let chorus: Chorus?
    /// False while an effect may still be producing a tail.
    private(set) var effectsSilent = true

    init(capacity: Int, sampleRate: Double, configuration: SynthesizerConfiguration) {
        left = .allocate(capacity: capacity)
        right = .allocate(capacity: capacity)
        reverbSend = .allocate(capacity: capacity)
        chorusSend = .allocate(capacity: capacity)
        reverb = configuration.reverbEnabled ? Reverb(sampleRate: sampleRate, settings: configuration.reverb) : nil
        chorus = configuration.chorusEnabled ? Chorus(sampleRate: sampleRate, settings: configuration.chorus) : nil
    }

    deinit {
        left.deallocate()
        right.deallocate()
        reverbSend.deallocate()
        chorusSend.deallocate()
    }

    var target: MixTarget {
        MixTarget(left: left, right: right, reverb: reverb == nil ? nil : reverbSend,
                  chorus: chorus == nil ? nil : chorusSend)
    }

    func clear(_ n: Int) {
        left.update(repeating: 0, count: n)
        right.update(repeating: 0, count: n)
        if reverb != nil { reverbSend.update(repeating: 0, count: n) }
        if chorus != nil { chorusSend.update(repeating: 0, count: n) }
    }

    /// Effect tails are judged silent only at the end of blocks of this many frames of absolute
    /// time, so a tail stops at the same frame however render calls are sliced.
    static let silenceGrid = 64

    /// Something was sent, or a voice sounded on the bus, in the current grid block.
    private var blockHadSignal = false
    /// The loudest wet-only output in the current grid block.
    private var blockWet: Float = 0

    /// Runs the effect sends into the dry signal of `n` frames starting at absolute frame
    /// `frame`, and tracks whether the tails have ended: once a whole grid block had no send
    /// and no voice on the bus, and its wet output stayed below −120 dBFS, the effects are
    /// silent — their tails are cleared and they only advance their modulation (exactly as
    /// processing silence would) until something is sent again. Silence therefore costs next
    /// to nothing, and the output is the same bit for bit as if the effects had run all along
    /// (a cleared effect fed silence adds only zeros).
    func runEffects(_ n: Int, startingAt frame: Int64) {
        guard reverb != nil || chorus != nil else { return }
        let grid = Self.silenceGrid
        var done = 0
        while done < n {
            let position = Int((frame + Int64(done)) % Int64(grid))
            let m = min(n - done, grid - position)
            runEffects(from: done, count: m, endsBlock: position + m == grid)
            done += m
        }
    }

    private func runEffects(from start: Int, count m: Int, endsBlock: Bool) {
        let l = left + start, r = right + start
        var input: Float = 0
        if reverb != nil { for i in 0..<m { input = max(input, abs(reverbSend[start + i])) } }
        if chorus != nil { for i in 0..<m { input = max(input, abs(chorusSend[start + i])) } }
        if effectsSilent && input == 0 {
            reverb?.advance(frameCount: m)
            chorus?.advance(frameCount: m)
            return
        }
        if input > 0 {
            effectsSilent = false
            blockHadSignal = true
        }
        if !blockHadSignal {
            var dry: Float = 0
            for i in 0..<m { dry = max(dry, abs(l[i]), abs(r[i])) }
            if dry > 0 { blockHadSignal = true }
        }
        reverb?.process(input: reverbSend + start, addingTo: l, r, frameCount: m)
        chorus?.process(input: chorusSend + start, addingTo: l, r, frameCount: m)
        if !blockHadSignal {
            // No voice sounds on this bus: what is in it now is the tail alone.
            for i in 0..<m { blockWet = max(blockWet, abs(l[i]), abs(r[i])) }
        }
        if endsBlock {
            if !blockHadSignal && blockWet < 1e-6 {
                effectsSilent = true
                reverb?.clearTail()
                chorus?.clearTail()
            }
            blockHadSignal = false
            blockWet = 0
        }
    }
}

/// A pair of caller-owned buffers receiving one stereo output.
public struct StereoBuffer {
    public var left: UnsafeMutablePointer<Float>
    public var right: UnsafeMutablePointer<Float>
    public init(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>) {
        self.left = left
        self.right = right
    }
}
