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

    /// The first of frames `start..<end` with something sent to an effect, if any.
    func firstSend(from start: Int, to end: Int) -> Int? {
        var first = end
        if reverb != nil, let i = (start..<end).first(where: { reverbSend[$0] != 0 }) { first = i }
        if chorus != nil, let i = (start..<first).first(where: { chorusSend[$0] != 0 }) { first = i }
        return first < end ? first : nil
    }

    /// Whether anything was sent or a voice sounded on the bus in frames `start ..< start + m`:
    /// what ``runEffects(from:count:measuring:)`` measures, without running the effects.
    func hasSignal(from start: Int, count m: Int) -> Bool {
        guard reverb != nil || chorus != nil else { return false }
        let l = left + start, r = right + start
        if reverb != nil { for i in 0..<m where abs(reverbSend[start + i]) > 0 { return true } }
        if chorus != nil { for i in 0..<m where abs(chorusSend[start + i]) > 0 { return true } }
        for i in 0..<m where abs(l[i]) > 0 || abs(r[i]) > 0 { return true }
        return false
    }

    /// Runs the effect sends of frames `start ..< start + m` into the dry signal. With
    /// `measuring`, returns whether anything was sent or a voice sounded on the bus there
    /// (otherwise false).
    func runEffects(from start: Int, count m: Int, measuring: Bool) -> Bool {
        guard reverb != nil || chorus != nil else { return false }
        var level: Float = 0
        if measuring {
            let l = left + start, r = right + start
            if reverb != nil { for i in 0..<m { level = max(level, abs(reverbSend[start + i])) } }
            if chorus != nil { for i in 0..<m { level = max(level, abs(chorusSend[start + i])) } }
            for i in 0..<m { level = max(level, abs(l[i]), abs(r[i])) }
        }
        reverb?.process(input: reverbSend + start, addingTo: left + start, right + start, frameCount: m)
        chorus?.process(input: chorusSend + start, addingTo: left + start, right + start, frameCount: m)
        return level > 0
    }

    /// Silences the effects' tails (delay lines and filter states), so that they start from
    /// silence the next time something is sent.
    func clearTails() {
        reverb?.clearTail()
        chorus?.clearTail()
    }
}
