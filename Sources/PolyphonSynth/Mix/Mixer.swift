/// The synthesizer's output side: the buses voices mix into, each with its effect sends and
/// effect units, the gate that runs the effects, the master volume, and the buses summed into
/// the main output.
///
/// Voices never see the mixer: each chunk they add their signal into the ``targets`` it hands
/// down, one per bus. Then ``finish(_:)`` runs the effects on the summed sends, applies the
/// master volume and sums the buses into ``left`` and ``right``.
final class Mixer {
    /// Outputs: one (the mix), one per channel, or the explicit buses notes are routed to.
    let buses: [OutputBus]
    /// Where voices mix, one target per bus, in bus order (fixed for the mixer's life).
    let targets: UnsafeMutablePointer<MixTarget>
    /// Master volume from universal SysEx, 0…1.
    var masterVolume: Float = 1
    private var effects = EffectGate()
    /// The buses summed, one chunk.
    let left: UnsafeMutablePointer<Float>
    let right: UnsafeMutablePointer<Float>

    /// Runs the effect units side by side, when there are threads and several units.
    let parallelEffects: ParallelEffects?

    /// `busCount` buses of up to `chunkFrames` frames each, their effects run on `threads`.
    init(busCount: Int, chunkFrames: Int, sampleRate: Double, configuration: SynthesizerConfiguration,
         threads: (any RenderThreadPool)? = nil) {
        buses = (0..<busCount).map { _ in
            OutputBus(capacity: chunkFrames, sampleRate: sampleRate, configuration: configuration)
        }
        parallelEffects = ParallelEffects(threads: threads, buses: buses, capacity: chunkFrames)
        targets = .allocate(capacity: busCount)
        for (b, bus) in buses.enumerated() { (targets + b).initialize(to: bus.target) }
        left = .allocate(capacity: chunkFrames)
        right = .allocate(capacity: chunkFrames)
    }

    deinit {
        targets.deallocate()
        left.deallocate()
        right.deallocate()
    }

    var busCount: Int { buses.count }

    /// True when the effect units' tails have died away (always true with effects off).
    var effectsAreSilent: Bool { !effects.isActive }

    /// Reverb parameters, the same on every bus.
    var reverbSettings: ReverbSettings? {
        get { buses[0].reverb?.settings }
        set { if let newValue { for b in buses { b.reverb?.settings = newValue } } }
    }

    /// Chorus parameters, the same on every bus.
    var chorusSettings: ChorusSettings? {
        get { buses[0].chorus?.settings }
        set { if let newValue { for b in buses { b.chorus?.settings = newValue } } }
    }

    /// Starts a chunk of `n` frames: every bus and send silent.
    func begin(_ n: Int) {
        for b in buses { b.clear(n) }
    }

    /// Ends the chunk the voices have mixed into: effects on the sends, master volume, then the
    /// buses summed into ``left`` and ``right``.
    func finish(_ n: Int) {
        effects.run(buses, count: n, parallel: parallelEffects)
        if masterVolume != 1 {
            let m = masterVolume
            for b in buses {
                for i in 0..<n { b.left[i] *= m; b.right[i] *= m }
            }
        }
        if buses.count == 1 {
            left.copyFloats(from: buses[0].left, count: n)
            right.copyFloats(from: buses[0].right, count: n)
        } else {
            left.update(repeating: 0, count: n)
            right.update(repeating: 0, count: n)
            for b in buses {
                for i in 0..<n { left[i] += b.left[i]; right[i] += b.right[i] }
            }
        }
    }
}
