import PolyphonSoundFontCore

/// Where a voice's sample lives and how its loop is laid out.
struct SampleInfo {
    /// The points: the bank's mapped pool for SF2 (for a stacked bank, the pool of the bank the
    /// sample came from), decoded PCM for SF3 (positions below are relative to these pointers).
    var words: UnsafePointer<Int16>? = nil
    var low: UnsafePointer<UInt8>? = nil
    var start = 0
    var end = 0
    var loopStart = 0
    var loopEnd = 0
    var sampleRate: Double = 44100
    var originalPitch = 60
    var pitchCorrection = 0
    var isPlayable = false
}

/// The bank's samples as voices play them: where each one's points are, its loop, rate and
/// pitch, resolved once per synthesizer; SF3 samples decoded on first use; and each sample's
/// loop peak, which tells when a quiet looping voice can no longer be heard.
struct SampleTable {
    private let soundBank: SoundFont
    private var samples: [SampleInfo]
    private var loopPeaks: [Float]

    init(soundBank: SoundFont) {
        self.soundBank = soundBank
        let pool = soundBank.sampleData
        samples = soundBank.samples.map { h in
            // A stacked bank's sample reads the pool it came with, where that pool lies (a
            // mapped file stays mapped); positions are made relative to it.
            let part = pool.part(containing: Int(h.start))
            let data = part.data, base = part.start
            let end = h.sampleType.isCompressed ? 0 : min(Int(h.end) - base, data.words.count)
            let start = min(Int(h.start) - base, end)
            return SampleInfo(words: data.words.baseAddress.map { UnsafePointer($0) },
                              low: data.lowBytes?.baseAddress.map { UnsafePointer($0) }, start: start, end: end,
                              loopStart: Int(h.loopStart) - base, loopEnd: Int(h.loopEnd) - base,
                              sampleRate: h.sampleRate >= 400 ? Double(h.sampleRate) : 44100,
                              originalPitch: h.originalPitch == 255 ? 60 : Int(min(h.originalPitch, 127)),
                              pitchCorrection: Int(h.pitchCorrection),
                              isPlayable: !h.sampleType.isROM && (h.sampleType.isCompressed || end > start))
        }
        loopPeaks = [Float](repeating: -1, count: soundBank.samples.count)
    }

    /// Sample `i` ready to play — decoding an SF3 sample the first time — or nil when it cannot
    /// be played (out of range, ROM, empty, or undecodable).
    mutating func playable(_ i: Int) -> SampleInfo? {
        guard i >= 0 && i < samples.count, samples[i].isPlayable else { return nil }
        if samples[i].words == nil || (soundBank.samples[i].sampleType.isCompressed && samples[i].end == 0) {
            guard decode(i) else { return nil }
        }
        return samples[i]
    }

    /// SF3: decodes a compressed sample (cached by the bank, shared by every synthesizer
    /// playing it). Returns false when the sample cannot be decoded.
    private mutating func decode(_ i: Int) -> Bool {
        guard let p = try? soundBank.playableSample(at: i), let base = p.words.baseAddress else {
            samples[i].isPlayable = false
            return false
        }
        samples[i].words = base
        samples[i].low = p.lowBytes?.baseAddress
        samples[i].start = p.start
        samples[i].end = p.end
        samples[i].loopStart = p.loopStart
        samples[i].loopEnd = p.loopEnd
        loopPeaks[i] = -1
        return true
    }

    /// Largest absolute sample value in a sample's loop (full sample if unlooped), cached.
    mutating func loopPeak(_ i: Int) -> Float {
        if loopPeaks[i] >= 0 { return loopPeaks[i] }
        let info = samples[i]
        var lo = info.loopStart, hi = info.loopEnd
        if !(lo >= info.start && hi <= info.end && hi > lo) { lo = info.start; hi = info.end }
        var peak: Int32 = 0
        if let words = info.words {
            var j = lo
            while j < hi {
                peak = max(peak, abs(Int32(words[j])))
                j += 1
            }
        }
        let v = Float(peak) / 32768
        loopPeaks[i] = v
        return v
    }
}
