import PolyphonSFZCore
import PolyphonSoundFontCore

/// The sample pool of an SFZ bank: decoded files gathered by reference while the zones are
/// made, then copied once into the bank's `SampleData`.
///
/// Nothing is staged in growing arrays on the way (which at times held the points two and three
/// times over), so building a bank needs the decoded files plus the pool; once the files are
/// released (``SFZSoundBank/init(_:placement:releasingDecodedSamples:)``) the bank holds the only copy.
struct SFZSamplePool {
    /// Where a sample header's points come from.
    private enum Source {
        case decoded(SFZDecodedSample, channel: Int)
        case generated(words: [Int16], low: [UInt8])
    }

    private var sources: [Source] = []
    /// One header per sample, positions in the pool ``sampleData()`` makes.
    private(set) var headers: [SampleHeader] = []
    private var pointCount = 0
    private var hasLowBytes = false

    /// Each channel of `sample` (at most two) as a sample header; returns their indexes.
    mutating func add(_ sample: SFZDecodedSample, name: String) -> [Int] {
        let frames = sample.metadata.frameCount
        let rate = UInt32(clamping: Int(sample.metadata.sampleRate.rounded()))
        let root = sample.metadata.rootKey ?? 60
        if sample.lowBytes != nil { hasLowBytes = true }
        return sample.words.indices.map { channel in
            let side = sample.words.count == 2 ? (channel == 0 ? " L" : " R") : ""
            return append(.decoded(sample, channel: channel), frames: frames, name: name + side,
                          sampleRate: max(rate, 1), originalPitch: root)
        }
    }

    /// A generated sample (24-bit points as words and low bytes); returns its index.
    mutating func add(words: [Int16], low: [UInt8], name: String, sampleRate: UInt32, originalPitch: UInt8) -> Int {
        hasLowBytes = true
        return append(.generated(words: words, low: low), frames: words.count, name: name,
                      sampleRate: sampleRate, originalPitch: originalPitch)
    }

    private mutating func append(_ source: Source, frames: Int, name: String, sampleRate: UInt32,
                                 originalPitch: UInt8) -> Int {
        let start = UInt32(clamping: pointCount), end = UInt32(clamping: pointCount + frames)
        headers.append(SampleHeader(name: name, start: start, end: end, loopStart: start, loopEnd: end,
                                    sampleRate: sampleRate, originalPitch: originalPitch, pitchCorrection: 0,
                                    sampleLink: 0, sampleType: .mono))
        sources.append(source)
        pointCount += frames + SoundFont.Builder.samplePadding
        return headers.count - 1
    }

    /// The pool: every sample's points, each followed by zero points (SF2 2.04 §7.10).
    func sampleData() -> SampleData {
        SampleData(count: pointCount, hasLowBytes: hasLowBytes) { words, low in
            for (header, source) in zip(headers, sources) {
                let at = Int(header.start), count = Int(header.end - header.start)
                guard count > 0 else { continue }
                switch source {
                case .decoded(let sample, let channel):
                    Self.copy(sample.words[channel], count: count, to: words, at: at)
                    if let low, let from = sample.lowBytes?[channel] { Self.copy(from, count: count, to: low, at: at) }
                case .generated(let w, let l):
                    w.withUnsafeBufferPointer { Self.copy($0, count: count, to: words, at: at) }
                    if let low { l.withUnsafeBufferPointer { Self.copy($0, count: min(count, l.count), to: low, at: at) } }
                }
            }
        }
    }

    /// `count` points of `source` into `destination` from `at`, as one memory copy.
    private static func copy<T>(_ source: UnsafeBufferPointer<T>, count: Int, to destination: UnsafeMutableBufferPointer<T>,
                                at: Int) {
        guard let from = source.baseAddress, let to = destination.baseAddress else { return }
        UnsafeMutableRawPointer(to + at).copyMemory(from: from, byteCount: MemoryLayout<T>.stride * min(count, source.count))
    }
}
