extension MixTarget {
    /// ``add(_:_:_:)`` for a voice whose pan moves (``VoiceParameters/pansWithinChunk``): the
    /// gains ramp linearly over the chunk of `count` frames from ``VoiceParameters/panFrom`` to
    /// the pan its last control point set, so a pan LFO glides rather than stepping once a chunk.
    /// `s` and the buses start at frame `from` of the chunk.
    func addPanning(_ s: UnsafePointer<Float>, _ n: Int, _ sound: VoiceParameters, from: Int, of count: Int) {
        let to = SIMD2(sound.panLeft, sound.panRight)
        let step = (to - sound.panFrom) / Float(max(count, 1))
        var gains = sound.panFrom + step * Float(from + 1)
        let l = left, r = right
        for i in 0..<n {
            let v = s[i]
            l[i] += v * gains[0]
            r[i] += v * gains[1]
            gains += step
        }
        addSends(s, n, sound)
    }
}
