/// The bank's sample pool: 16-bit words (and the optional `sm24` low bytes) read in place
/// from a memory-mapped file or from memory the bank owns — or, for banks stacked into one
/// (``init(stacking:)``), the pools of those banks left where they are.
///
/// Immutable after creation and shared by every synthesizer that plays the bank. The
/// buffers stay valid as long as this object lives.
public final class SampleData: @unchecked Sendable {
    /// The `smpl` chunk as little-endian 16-bit words (for SF3: the raw bytes, see ``bytes``).
    /// Empty for a stacked pool: its points are in its ``parts``.
    public let words: UnsafeBufferPointer<Int16>
    /// The `sm24` chunk (one low byte per sample point), when present and valid.
    public let lowBytes: UnsafeBufferPointer<UInt8>?
    /// The `smpl` chunk as raw bytes (SF3 stores Ogg Vorbis streams here).
    public let bytes: UnsafeRawBufferPointer
    /// Keeps the mapping or allocation alive.
    private let owner: AnyObject?
    /// SF3: turns the compressed samples of this pool into PCM (see
    /// ``SoundFont/playableSample(at:)``); nil where none was given.
    public let decoder: (any CompressedSampleDecoder)?
    /// A stacked pool's pools, in order, each with the position its first point has in the
    /// stack; empty for a pool of its own.
    public let parts: [Part]

    /// One pool of a stacked pool (``SampleData/init(stacking:)``).
    public struct Part: Sendable {
        /// The pool, where it was: a memory-mapped file stays mapped.
        public let data: SampleData
        /// The position of the pool's first point in the stack: a sample header of the stacked
        /// bank whose `start` is `p` plays `data`'s point `p − start`.
        public let start: Int
    }

    /// The number of sample points: the words of this pool, or of every part of a stacked one.
    public var pointCount: Int {
        guard let last = parts.last else { return words.count }
        return last.start + last.data.words.count
    }

    /// True when some point has a 24-bit low byte (``lowBytes`` here or in a part).
    public var has24BitPoints: Bool { lowBytes != nil || parts.contains { $0.data.lowBytes != nil } }

    /// Sample data over memory kept alive by `owner` (a memory mapping or other allocation).
    ///
    /// `bytes` must start at an even address for ``words`` to be read as `Int16`.
    public init(bytes: UnsafeRawBufferPointer, lowBytes: UnsafeBufferPointer<UInt8>?, owner: AnyObject?,
                decoder: (any CompressedSampleDecoder)? = nil) {
        self.bytes = bytes
        self.lowBytes = lowBytes
        self.owner = owner
        self.decoder = decoder
        parts = []
        let count = bytes.count / 2
        if let base = bytes.baseAddress, count > 0 {
            // smpl starts at an even file offset inside a page-aligned mapping, so the words
            // are 2-byte aligned.
            words = UnsafeBufferPointer(start: base.assumingMemoryBound(to: Int16.self), count: count)
        } else {
            words = UnsafeBufferPointer(start: nil, count: 0)
        }
    }

    /// Copies sample words into memory this object owns (for banks built in code).
    public convenience init(copying samples: [Int16], lowBytes: [UInt8]? = nil) {
        let storage = OwnedStorage(samples: samples, lowBytes: lowBytes)
        self.init(bytes: UnsafeRawBufferPointer(storage.words),
                  lowBytes: storage.low.map { UnsafeBufferPointer($0) }, owner: storage)
    }

    /// `count` sample words (and low bytes, with `hasLowBytes`) in memory this object owns,
    /// written once by `fill`, which must set every one: a pool assembled without an
    /// intermediate array (``SoundFont/merging(_:copyingSamples:)``).
    public convenience init(count: Int, hasLowBytes: Bool,
                            fill: (UnsafeMutableBufferPointer<Int16>, UnsafeMutableBufferPointer<UInt8>?) -> Void) {
        let storage = OwnedStorage(count: count, hasLowBytes: hasLowBytes)
        fill(storage.words, storage.low)
        self.init(bytes: UnsafeRawBufferPointer(storage.words),
                  lowBytes: storage.low.map { UnsafeBufferPointer($0) }, owner: storage)
    }

    /// Several pools played as one without copying a point: each stays where it is (a
    /// memory-mapped bank stays mapped, paged in as it plays) and the stack's positions run
    /// through them end to end, each pool starting where the one before ended — the positions
    /// the pools would have copied into one (``SoundFont/merging(_:copyingSamples:)``). A part
    /// that is itself stacked contributes its own parts. Compressed (SF3) pools are not
    /// stacked: their positions count bytes, not points; decode them first.
    public init(stacking pools: [SampleData]) {
        var parts: [Part] = []
        var start = 0
        for pool in pools {
            for part in pool.parts.isEmpty ? [Part(data: pool, start: 0)] : pool.parts {
                parts.append(Part(data: part.data, start: start + part.start))
            }
            start += pool.pointCount
        }
        self.parts = parts
        bytes = UnsafeRawBufferPointer(start: nil, count: 0)
        words = UnsafeBufferPointer(start: nil, count: 0)
        lowBytes = nil
        owner = nil
        decoder = nil
    }

    /// The pool that holds position `position` and where that pool starts: this pool and 0
    /// unless it is stacked; for a stacked pool the last part starting at or before
    /// `position` (the last part for a position past the end, the first for a negative one).
    public func part(containing position: Int) -> Part {
        guard parts.count > 1 else { return parts.first ?? Part(data: self, start: 0) }
        var lo = 0, hi = parts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if parts[mid].start <= position { lo = mid } else { hi = mid - 1 }
        }
        return parts[lo]
    }

    /// A 24-bit sample point as a value in −1…1 (16-bit banks: the word with a zero low byte).
    @inlinable
    public func normalized(at index: Int) -> Float {
        if !parts.isEmpty {
            let part = part(containing: index)
            return part.data.normalized(at: index - part.start)
        }
        if let low = lowBytes {
            let v = Int32(words[index]) << 8 | Int32(low[index])
            return Float(v) * (1.0 / 8_388_608.0)
        }
        return Float(words[index]) * (1.0 / 32768.0)
    }
}

private final class OwnedStorage {
    let words: UnsafeMutableBufferPointer<Int16>
    let low: UnsafeMutableBufferPointer<UInt8>?

    init(samples: [Int16], lowBytes: [UInt8]?) {
        // Allocate at least one element so the base address is never nil, but expose exactly
        // `count` elements: an empty bank must have an empty `smpl`, not one zero word.
        let w = UnsafeMutableBufferPointer<Int16>.allocate(capacity: max(samples.count, 1))
        _ = w.initialize(from: samples)
        words = UnsafeMutableBufferPointer(rebasing: w[0..<samples.count])
        if let lowBytes {
            let l = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(lowBytes.count, 1))
            _ = l.initialize(from: lowBytes)
            low = UnsafeMutableBufferPointer(rebasing: l[0..<lowBytes.count])
        } else {
            low = nil
        }
    }

    /// Room for `count` points, zeroed, so nothing uninitialised is ever read.
    init(count: Int, hasLowBytes: Bool) {
        // Zeroed as raw bytes (one memset; Embedded Swift initialises typed buffers point by point).
        let w = UnsafeMutableBufferPointer<Int16>.allocate(capacity: max(count, 1))
        UnsafeMutableRawBufferPointer(w).initializeMemory(as: UInt8.self, repeating: 0)
        words = UnsafeMutableBufferPointer(rebasing: w[0..<count])
        if hasLowBytes {
            let l = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(count, 1))
            UnsafeMutableRawBufferPointer(l).initializeMemory(as: UInt8.self, repeating: 0)
            low = UnsafeMutableBufferPointer(rebasing: l[0..<count])
        } else {
            low = nil
        }
    }

    deinit {
        words.deallocate()
        low?.deallocate()
    }
}

/// Bytes copied into memory this object owns (a bank read from an array, sample words moved to
/// an aligned address).
package final class OwnedBytes: @unchecked Sendable {
    // @unchecked: written once in init, read-only afterwards.
    package let bytes: UnsafeRawBufferPointer

    package init(copying source: [UInt8]) {
        // At least one byte, so the base address is never nil; 8-byte alignment so 16-bit
        // words and other fields can be read in place.
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(source.count, 1), alignment: 8)
        source.withUnsafeBytes { storage.copyMemory(from: $0) }
        bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(storage)[0..<source.count])
    }

    package convenience init(copying source: UnsafeRawBufferPointer) {
        self.init(copying: Array(source))
    }

    deinit { UnsafeMutableRawPointer(mutating: bytes.baseAddress)?.deallocate() }
}
