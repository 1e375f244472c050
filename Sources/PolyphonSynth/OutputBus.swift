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

    /// The loudest send in the chunk last measured by ``measureSends(_:)``.
    private(set) var sendLevel: Float = 0

    /// Measures this chunk's sends; returns true when the effects must run on this bus (something
    /// is sent, or a tail is still ringing).
    func measureSends(_ n: Int) -> Bool {
        var input: Float = 0
        if reverb != nil { for i in 0..<n { input = max(input, abs(reverbSend[i])) } }
        if chorus != nil { for i in 0..<n { input = max(input, abs(chorusSend[i])) } }
        sendLevel = input
        return input > 0 || !effectsSilent
    }

    /// Runs the effect sends into the dry signal and tracks whether the tails have ended:
    /// once nothing is sent, the effects are silent when the wet output falls below −120 dBFS.
    ///
    /// The synthesizer decides when effects run at all: not while nothing is sent anywhere
    /// and every tail is over (so silence costs nothing), and then on every bus at once (so
    /// per-channel units keep the same modulation phase as one shared unit would, and stems
    /// add up to the mix).
    func runEffects(_ n: Int) {
        let input = sendLevel
        guard reverb != nil || chorus != nil else { return }
        var dry: Float = 0
        if input == 0 { for i in 0..<n { dry = max(dry, abs(left[i]), abs(right[i])) } }
        reverb?.process(input: reverbSend, addingTo: left, right, frameCount: n)
        chorus?.process(input: chorusSend, addingTo: left, right, frameCount: n)
        if input > 0 {
            effectsSilent = false
        } else if dry == 0 {
            // No voice sounds on this bus: what is in it now is the tail alone.
            var wet: Float = 0
            for i in 0..<n { wet = max(wet, abs(left[i]), abs(right[i])) }
            if wet < 1e-6 { effectsSilent = true }
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
