/// Turns the compressed samples of an SF3 bank (Ogg Vorbis streams in its `smpl` chunk) into
/// 16-bit PCM when a voice first needs them.
///
/// The bank model stays portable: decoding needs a codec library, so the native layer
/// (PolyphonSoundFont) supplies a decoder when it opens a bank, and a bank read without one
/// simply cannot play its compressed samples.
public protocol CompressedSampleDecoder: AnyObject, Sendable {
    /// The PCM points of the compressed stream in bytes `range` of `pool` (the `smpl` chunk),
    /// decoded on first request and kept for as long as the decoder lives, followed by at least
    /// 46 zero points as SF2 requires of every sample; `count` excludes those.
    func decodeStream(in range: Range<Int>, of pool: UnsafeRawBufferPointer)
        throws(SampleDecodingError) -> (points: UnsafeBufferPointer<Int16>, count: Int)
}

extension SoundFont {
    /// Sample `index` as 16-bit (or 24-bit) PCM ready to play: the pool's own points for SF2, the
    /// decoded stream for an SF3 compressed sample (its positions then start at 0).
    /// - Throws: ``SampleDecodingError`` when the sample does not exist or cannot be decoded.
    public func playableSample(at index: Int) throws(SampleDecodingError) -> PlayableSample {
        guard samples.indices.contains(index) else {
            throw SampleDecodingError(sampleIndex: index, kind: .noSuchSample(count: samples.count))
        }
        let header = samples[index]
        guard header.sampleType.isCompressed else {
            // A stacked bank's sample lies in one of its pools, at the header's positions less
            // where that pool starts.
            let part = sampleData.part(containing: Int(header.start))
            return PlayableSample(words: part.data.words, lowBytes: part.data.lowBytes,
                                  start: Int(header.start) - part.start, end: Int(header.end) - part.start,
                                  loopStart: Int(header.loopStart) - part.start, loopEnd: Int(header.loopEnd) - part.start,
                                  sampleRate: Int(header.sampleRate), isDecoded: false)
        }
        let bytes = sampleData.bytes
        let start = Int(header.start), end = Int(header.end)
        guard start < end, end <= bytes.count else {
            throw SampleDecodingError(sampleIndex: index, sampleName: header.name,
                                      kind: .rangeOutsideSampleData(start: start, end: end, available: bytes.count))
        }
        guard let decoder = sampleData.decoder else {
            throw SampleDecodingError(sampleIndex: index, sampleName: header.name, kind: .noDecoder)
        }
        let pcm: (points: UnsafeBufferPointer<Int16>, count: Int)
        do {
            pcm = try decoder.decodeStream(in: start..<end, of: bytes)
        } catch {
            throw SampleDecodingError(sampleIndex: index, sampleName: header.name, kind: error.kind)
        }
        return PlayableSample(words: pcm.points, lowBytes: nil, start: 0, end: pcm.count,
                              loopStart: Int(header.loopStart), loopEnd: Int(header.loopEnd),
                              sampleRate: Int(header.sampleRate), isDecoded: true)
    }

    /// The samples a preset's regions play, in index order.
    public func sampleIndexes(forPresetAt presetIndex: Int) -> [Int] {
        guard presets.indices.contains(presetIndex) else { return [] }
        var result = Set<Int>()
        for zone in presets[presetIndex].zones {
            guard let raw = zone.value(of: .instrument) else { continue }
            let instrument = Int(UInt16(bitPattern: raw))
            guard instruments.indices.contains(instrument) else { continue }
            for instrumentZone in instruments[instrument].zones {
                guard let id = instrumentZone.value(of: .sampleID) else { continue }
                let sample = Int(UInt16(bitPattern: id))
                if samples.indices.contains(sample) { result.insert(sample) }
            }
        }
        return result.sorted()
    }
}

extension SoundFont {
    /// The same bank with `decoder` turning its compressed samples into PCM (for a bank built
    /// in code or read without one). The sample pool is shared, not copied. A stacked bank
    /// (``SampleData/init(stacking:)``) has no compressed samples and is returned as it is.
    public func withSampleDecoder(_ decoder: (any CompressedSampleDecoder)?) -> SoundFont {
        guard sampleData.parts.isEmpty else { return self }
        var bank = self
        bank.sampleData = SampleData(bytes: sampleData.bytes, lowBytes: sampleData.lowBytes, owner: sampleData,
                                     decoder: decoder)
        return bank
    }
}
