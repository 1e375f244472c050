/// The bank's sample pool: 16-bit words (and the optional `sm24` low bytes) read in place
/// from a memory-mapped file or from memory the bank owns.
///
/// Immutable after creation and shared by every synthesizer that plays the bank. The
/// buffers stay valid as long as this object lives.
public final class SampleData: @unchecked Sendable {
    /// The `smpl` chunk as little-endian 16-bit words (for SF3: the raw bytes, see ``bytes``).
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

    /// Sample data over memory kept alive by `owner` (a memory mapping or other allocation).
    ///
    /// `bytes` must start at an even address for ``words`` to be read as `Int16`.
    public init(bytes: UnsafeRawBufferPointer, lowBytes: UnsafeBufferPointer<UInt8>?, owner: AnyObject?,
                decoder: (any CompressedSampleDecoder)? = nil) {
        self.bytes = bytes
        self.lowBytes = lowBytes
        self.owner = owner
        self.decoder = decoder
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
    /// intermediate array (``SoundFont/merging(_:)``).
    public convenience init(count: Int, hasLowBytes: Bool,
                            fill: (UnsafeMutableBufferPointer<Int16>, UnsafeMutableBufferPointer<UInt8>?) -> Void) {
        let storage = OwnedStorage(count: count, hasLowBytes: hasLowBytes)
        fill(storage.words, storage.low)
        self.init(bytes: UnsafeRawBufferPointer(storage.words),
                  lowBytes: storage.low.map { UnsafeBufferPointer($0) }, owner: storage)
    }

    /// A 24-bit sample point as a value in −1…1 (16-bit banks: the word with a zero low byte).
    @inlinable
    public func normalized(at index: Int) -> Float {
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
