import Foundation
import PolyphonAudio
import PolyphonSFZCore
import PolyphonSoundFont

/// An instrument's sample files, decoded through PolyphonAudio when a voice first needs them
/// (WAV, AIFF and CAF natively; FLAC, Ogg Vorbis and the rest through libsndfile, loaded at run
/// time) and kept for every synthesizer that plays the instrument, as SF3 samples are.
///
/// Decoding happens outside the lock, so a parallel preload decodes in parallel; when two
/// threads decode the same file at once the first result stored wins and both get it.
public final class SFZSampleStore: SFZSampleProvider, @unchecked Sendable {
    // @unchecked: `decoded` and `metadata` are only touched under `lock`; stored entries are
    // immutable.
    private let lock = NSLock()
    private let files: [SFZSampleFile]
    private var decoded: [Int: SFZDecodedSample] = [:]
    private var described: [Int: SFZSampleMetadata] = [:]

    /// A store for `files` (an instrument's ``SFZInstrument/samples``).
    public init(files: [SFZSampleFile]) {
        self.files = files
    }

    public func sample(at index: Int) throws(SFZSampleError) -> SFZDecodedSample {
        if let cached = decodedSample(at: index) { return cached }
        let file = try self.file(at: index)
        let audio: AudioFile
        do {
            audio = try AudioFile(contentsOf: file.path)
        } catch {
            throw SFZSampleError(path: file.path, reason: Self.reason(error, path: file.path))
        }
        let sample = SFZDecodedSample(channels: audio.channels, sampleRate: audio.sampleRate,
                                      loop: Self.loop(audio.instrument, frameCount: audio.frameCount),
                                      rootKey: audio.instrument?.rootKey, keepsLowBytes: Self.needsLowBytes(audio.sourceEncoding),
                                      reversed: file.isReversed)
        lock.lock()
        defer { lock.unlock() }
        if let existing = decoded[index] { return existing }
        decoded[index] = sample
        described[index] = sample.metadata
        return sample
    }

    public func decodedSample(at index: Int) -> SFZDecodedSample? {
        lock.lock()
        defer { lock.unlock() }
        return decoded[index]
    }

    public func releaseDecodedSample(at index: Int) {
        lock.lock()
        defer { lock.unlock() }
        decoded[index] = nil
    }

    /// Sample `index`'s length, rate, channels, loop and root key, read from the file's header
    /// without decoding it (or from the decoded sample when there is one).
    /// - Throws: ``SFZSampleError`` when the header cannot be read.
    public func metadata(at index: Int) throws(SFZSampleError) -> SFZSampleMetadata {
        lock.lock()
        if let known = described[index] {
            lock.unlock()
            return known
        }
        lock.unlock()
        let file = try self.file(at: index)
        let description: AudioFileDescription
        do {
            description = try AudioFileDescription(contentsOf: file.path)
        } catch {
            throw SFZSampleError(path: file.path, reason: Self.reason(error, path: file.path))
        }
        let metadata = SFZSampleMetadata(frameCount: description.frameCount, sampleRate: description.sampleRate,
                                         channelCount: min(description.channelCount, 2),
                                         loop: file.isReversed ? nil : Self.loop(description.instrument, frameCount: description.frameCount),
                                         rootKey: description.instrument?.rootKey)
        lock.lock()
        defer { lock.unlock() }
        described[index] = described[index] ?? metadata
        return described[index]!
    }

    private func file(at index: Int) throws(SFZSampleError) -> SFZSampleFile {
        guard files.indices.contains(index) else {
            throw SFZSampleError(path: "#\(index)", reason: "no such sample (the instrument has \(files.count))")
        }
        return files[index]
    }

    /// How many files have been decoded, and their frames.
    public var statistics: (samples: Int, frames: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (decoded.count, decoded.values.reduce(0) { $0 + $1.metadata.frameCount })
    }

    /// Decodes the given samples (all when nil) ahead of playing, in parallel on every core, so
    /// no voice waits for a file on the render thread. Returns how many were decoded now.
    /// - Throws: the first ``SFZSampleError`` met.
    @discardableResult
    public func preload(_ indexes: [Int]? = nil) throws -> Int {
        let wanted = (indexes ?? Array(files.indices)).filter { decodedSample(at: $0) == nil }
        guard !wanted.isEmpty else { return 0 }
        if let error = firstFailure(concurrentlyPerforming: wanted.count, { (i: Int) throws(SFZSampleError) in
            _ = try self.sample(at: wanted[i])
        }) { throw error }
        return wanted.count
    }

    /// The file's first forward (or alternating) loop as first…last frame, inside the file.
    static func loop(_ instrument: AudioFileInstrument?, frameCount: Int) -> SFZRange<Int>? {
        guard let loop = instrument?.loops.first, loop.mode != .backward else { return nil }
        let first = max(loop.start, 0), last = min(loop.end - 1, frameCount - 1)
        return first <= last ? SFZRange(first, last) : nil
    }

    /// 24-bit, 32-bit and float sources keep their low byte; 16-bit and narrower do not need it.
    static func needsLowBytes(_ encoding: SampleEncoding) -> Bool {
        switch encoding {
        case .signedInteger(let bits), .unsignedInteger(let bits): return bits > 16
        case .float, .compressed: return true
        }
    }

    private static func reason(_ error: any Error, path: String) -> String {
        let text = String(describing: error)
        return text.hasPrefix(path + ": ") ? String(text.dropFirst(path.count + 2)) : text
    }
}
