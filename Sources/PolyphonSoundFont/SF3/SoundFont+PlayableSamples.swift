import Foundation

extension SoundFont {
    /// The PCM and bounds a voice plays for the sample at `index` in ``samples``.
    ///
    /// SF2 (PCM) samples cost nothing: the view points into the mapped pool. SF3 Ogg Vorbis samples
    /// are decoded on first use through libvorbisfile and cached in ``sampleData``, so a song that
    /// uses five presets decodes only their samples, and later calls (from any thread) return the
    /// cached PCM. Safe to call from several threads at once.
    /// - Throws: ``SampleDecodingError`` when the index is out of range, the stream cannot be
    ///   decoded, or libvorbisfile is missing (the message names the package to install).
    public func playableSample(at index: Int) throws -> PlayableSample {
        guard samples.indices.contains(index) else {
            throw SampleDecodingError(sampleIndex: index, kind: .noSuchSample(count: samples.count))
        }
        let header = samples[index]
        guard header.sampleType.isCompressed else {
            return PlayableSample(words: sampleData.words, lowBytes: sampleData.lowBytes,
                                  start: Int(header.start), end: Int(header.end),
                                  loopStart: Int(header.loopStart), loopEnd: Int(header.loopEnd),
                                  sampleRate: Int(header.sampleRate), isDecoded: false)
        }
        let pcm = try decodedPCM(index, header)
        return PlayableSample(words: pcm.words, lowBytes: nil, start: 0, end: pcm.count,
                              loopStart: Int(header.loopStart), loopEnd: Int(header.loopEnd),
                              sampleRate: Int(header.sampleRate), isDecoded: true)
    }

    /// The indexes in ``samples`` that the preset at `presetIndex` can play, in ascending order.
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

    /// Decodes, in parallel, every compressed sample the given presets use (all presets when
    /// nil), so no note-on has to: the renderer's "preload". PCM samples need nothing.
    ///
    /// Every sample is attempted; the first failure is thrown after the others are done.
    /// - Returns: how many streams this call decoded (0 when all were cached or the bank is SF2).
    @discardableResult
    public func preloadSamples(forPresetsAt presetIndexes: [Int]? = nil) throws -> Int {
        var wanted = Set<Int>()
        if let presetIndexes {
            for p in presetIndexes { wanted.formUnion(sampleIndexes(forPresetAt: p)) }
        } else {
            wanted = Set(samples.indices)
        }
        let pending = wanted.sorted().filter { index in
            let header = samples[index]
            guard header.sampleType.isCompressed else { return false }
            return sampleData.decodedSamples.cached(.init(start: header.start, end: header.end)) == nil
        }
        guard !pending.isEmpty else { return 0 }
        let before = sampleData.decodedSamples.count
        let failures = FailureBox()
        DispatchQueue.concurrentPerform(iterations: pending.count) { i in
            do {
                _ = try decodedPCM(pending[i], samples[pending[i]])
            } catch {
                failures.record(i, error)
            }
        }
        if let error = failures.first { throw error }
        return sampleData.decodedSamples.count - before
    }

    /// How many Ogg Vorbis streams of this bank's pool have been decoded so far, and their total
    /// points (for logs and tests of laziness).
    public var decodedSampleStatistics: (streams: Int, points: Int) {
        (sampleData.decodedSamples.count, sampleData.decodedSamples.pointCount)
    }

    private func decodedPCM(_ index: Int, _ header: SampleHeader) throws -> DecodedPCM {
        let store = sampleData.decodedSamples
        let key = DecodedSampleStore.StreamRange(start: header.start, end: header.end)
        if let cached = store.cached(key) { return cached }
        let bytes = sampleData.bytes
        let start = Int(header.start), end = Int(header.end)
        guard start < end, end <= bytes.count else {
            throw SampleDecodingError(sampleIndex: index, sampleName: header.name,
                                      kind: .rangeOutsideSampleData(start: start, end: end, available: bytes.count))
        }
        let library: Libvorbisfile
        switch Libvorbisfile.shared {
        case .success(let loaded): library = loaded
        case .failure(let error):
            throw SampleDecodingError(sampleIndex: index, sampleName: header.name, kind: error.kind)
        }
        do {
            let decoded = try library.decode(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            return store.store(DecodedPCM(decoded.pcm), for: key)
        } catch let error as SampleDecodingError {
            throw SampleDecodingError(sampleIndex: index, sampleName: header.name, kind: error.kind)
        }
    }
}

/// Collects the first error (by sample order) of a parallel preload.
private final class FailureBox: @unchecked Sendable {
    // @unchecked: fields touched only under `lock`.
    private let lock = NSLock()
    private var firstIndex = Int.max
    private var error: Error?

    func record(_ index: Int, _ error: Error) {
        lock.lock()
        defer { lock.unlock() }
        if index < firstIndex {
            firstIndex = index
            self.error = error
        }
    }

    var first: Error? {
        lock.lock()
        defer { lock.unlock() }
        return error
    }
}
