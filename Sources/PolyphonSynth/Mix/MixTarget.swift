/// The buses a voice mixes into for one chunk, all starting at the chunk's first frame.
struct MixTarget {
    var left: UnsafeMutablePointer<Float>
    var right: UnsafeMutablePointer<Float>
    /// nil when the effect is off: sends are then not accumulated at all.
    var reverb: UnsafeMutablePointer<Float>?
    var chorus: UnsafeMutablePointer<Float>?

    /// The same buses from frame `offset` of the chunk on.
    @inline(__always)
    func advanced(by offset: Int) -> MixTarget {
        MixTarget(left: left + offset, right: right + offset, reverb: reverb.map { $0 + offset },
                  chorus: chorus.map { $0 + offset })
    }

    /// Adds `n` frames of a voice's (filtered) signal, panned, and its effect sends.
    @inline(__always)
    func add(_ s: UnsafePointer<Float>, _ n: Int, _ sound: VoiceParameters) {
        let l = left, r = right
        let pl = sound.panLeft, pr = sound.panRight
        for i in 0..<n {
            let v = s[i]
            l[i] += v * pl
            r[i] += v * pr
        }
        addSends(s, n, sound)
    }

    /// Adds `n` frames of a voice's signal into the effect sends alone (its dry signal was
    /// mixed with its filter batch).
    @inline(__always)
    func addSends(_ s: UnsafePointer<Float>, _ n: Int, _ sound: VoiceParameters) {
        if sound.reverbSend > 0, let bus = reverb {
            let b = bus, k = sound.reverbSend
            for i in 0..<n { b[i] += s[i] * k }
        }
        if sound.chorusSend > 0, let bus = chorus {
            let b = bus, k = sound.chorusSend
            for i in 0..<n { b[i] += s[i] * k }
        }
    }

    /// Left, right, reverb and chorus gains of a voice here, as a shared filter mixes them (a
    /// send is 0 when this target does not take it, as ``addSends(_:_:_:)`` skips it).
    func gains(for sound: VoiceParameters) -> SIMD4<Float> {
        SIMD4(sound.panLeft, sound.panRight, reverb != nil && sound.reverbSend > 0 ? sound.reverbSend : 0,
              chorus != nil && sound.chorusSend > 0 ? sound.chorusSend : 0)
    }
}
