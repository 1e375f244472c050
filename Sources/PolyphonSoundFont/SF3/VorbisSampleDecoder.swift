import Foundation
import PolyphonSoundFontCore

/// SF3's Ogg Vorbis samples decoded with libvorbisfile (loaded at run time), each stream once:
/// the PCM is kept for as long as the bank lives and shared by every synthesizer playing it.
public final class VorbisSampleDecoder: CompressedSampleDecoder {
    let store = DecodedSampleStore()

    public init() {}

    public func decodeStream(in range: Range<Int>, of pool: UnsafeRawBufferPointer)
        throws(SampleDecodingError) -> (points: UnsafeBufferPointer<Int16>, count: Int) {
        let key = DecodedSampleStore.StreamRange(start: UInt32(clamping: range.lowerBound), end: UInt32(clamping: range.upperBound))
        if let cached = store.cached(key) { return (cached.words, cached.count) }
        let library: Libvorbisfile
        switch Libvorbisfile.shared {
        case .success(let loaded): library = loaded
        case .failure(let error): throw error
        }
        let decoded: [Int16]
        do {
            decoded = try library.decode(UnsafeRawBufferPointer(rebasing: pool[range])).pcm
        } catch let error as SampleDecodingError {
            throw error
        } catch {
            throw SampleDecodingError(kind: .invalidStream("\(error)"))
        }
        let pcm = store.store(DecodedPCM(decoded), for: key)
        return (pcm.words, pcm.count)
    }
}

extension SoundFont {
    /// Decodes the compressed samples of the given presets (all samples when nil) ahead of
    /// playing, in parallel on every core, so no voice waits for a decoder on the render thread.
    /// Returns how many streams were decoded now (already decoded ones are skipped). A no-op for
    /// SF2 banks.
    /// - Throws: the first ``SampleDecodingError`` met.
    @discardableResult
    public func preloadSamples(forPresetsAt presetIndexes: [Int]? = nil) throws -> Int {
        guard let decoder = sampleData.decoder as? VorbisSampleDecoder else { return 0 }
        var wanted = Set<Int>()
        if let presetIndexes {
            for p in presetIndexes { wanted.formUnion(sampleIndexes(forPresetAt: p)) }
        } else {
            wanted = Set(samples.indices)
        }
        let pending = wanted.sorted().filter { index in
            let header = samples[index]
            guard header.sampleType.isCompressed else { return false }
            return decoder.store.cached(.init(start: header.start, end: header.end)) == nil
        }
        guard !pending.isEmpty else { return 0 }
        let before = decoder.store.count
        let bank = self
        if let error = firstFailure(concurrentlyPerforming: pending.count, { (i: Int) throws(SampleDecodingError) in
            _ = try bank.playableSample(at: pending[i])
        }) { throw error }
        return decoder.store.count - before
    }

    /// How many compressed streams have been decoded so far, and their points.
    public var decodedSampleStatistics: (streams: Int, points: Int) {
        guard let decoder = sampleData.decoder as? VorbisSampleDecoder else { return (0, 0) }
        return (decoder.store.count, decoder.store.pointCount)
    }
}
