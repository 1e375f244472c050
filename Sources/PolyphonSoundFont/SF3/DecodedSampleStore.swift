import PolyphonSoundFontCore
import Foundation

/// The decoded PCM of a bank's Ogg Vorbis samples, filled lazily and shared by every
/// synthesizer that plays the bank.
///
/// Keyed by the stream's byte range in `smpl` rather than by sample index, so two headers that
/// share a stream decode it once, and bank values edited after loading cannot see another
/// header's PCM. Decoding happens outside the lock (so a parallel preload decodes in parallel);
/// if two threads decode the same stream at once, the first result stored wins and both return it.
final class DecodedSampleStore: @unchecked Sendable {
    // @unchecked: `entries` is only touched under `lock`; entries are immutable once stored.
    private let lock = NSLock()
    private var entries: [StreamRange: DecodedPCM] = [:]

    struct StreamRange: Hashable {
        var start: UInt32
        var end: UInt32
    }

    init() {}

    /// The stored PCM for `range`, if it has been decoded.
    func cached(_ range: StreamRange) -> DecodedPCM? {
        lock.lock()
        defer { lock.unlock() }
        return entries[range]
    }

    /// Stores `pcm` unless another thread got there first; returns the stored one.
    func store(_ pcm: DecodedPCM, for range: StreamRange) -> DecodedPCM {
        lock.lock()
        defer { lock.unlock() }
        if let existing = entries[range] { return existing }
        entries[range] = pcm
        return pcm
    }

    /// How many streams have been decoded so far.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }

    /// Total decoded points held, padding excluded.
    var pointCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.values.reduce(0) { $0 + $1.count }
    }
}

/// One decoded stream: its points followed by ``padding`` zero points, in memory it owns.
final class DecodedPCM: @unchecked Sendable {
    // @unchecked: written once in init, read-only afterwards.

    /// Zero points after the sample, as SF2 2.04 §7.10 asks of every sample.
    static let padding = 46

    /// Points plus padding.
    let words: UnsafeBufferPointer<Int16>
    /// Points without padding.
    let count: Int

    init(_ pcm: [Int16]) {
        let storage = UnsafeMutableBufferPointer<Int16>.allocate(capacity: pcm.count + Self.padding)
        _ = storage.initialize(from: pcm)
        (storage.baseAddress! + pcm.count).initialize(repeating: 0, count: Self.padding)
        words = UnsafeBufferPointer(storage)
        count = pcm.count
    }

    deinit { UnsafeMutableBufferPointer(mutating: words).deallocate() }
}
