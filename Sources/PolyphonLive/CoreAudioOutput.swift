#if canImport(AudioToolbox)
import AudioToolbox
import Atomics
import PolyphonLockFree

/// Plays through CoreAudio's default output with an `AudioQueue` (macOS and iOS).
///
/// CoreAudio pulls: its queue thread asks for buffers. ``write(_:frameCount:)`` therefore
/// pushes into a ring that the queue's callback empties, sleeping while the ring is full, which
/// paces the writer the way a blocking device write does elsewhere. A callback that finds the
/// ring short plays silence for the rest and counts an underrun.
///
/// Compiled only on Apple platforms; the project's tests run on Linux, where this type does
/// not exist.
public final class CoreAudioOutput: AudioOutput, @unchecked Sendable {
    // @unchecked: the ring is single-producer (write) single-consumer (the queue callback).

    public let backendName = "coreaudio"
    public let deviceName = "default output"
    public let sampleRate: Double
    public let periodFrames: Int
    public let bufferFrames: Int

    private let ring: SPSCRing<Float>
    private let underruns = ManagedAtomic<Int>(0)
    private var reportedUnderruns = 0
    private var queue: AudioQueueRef?
    private static let bufferCount = 3

    /// Opens the default output device at `settings`' rate with three queue buffers of one
    /// period each.
    public init(settings: AudioOutputSettings = AudioOutputSettings()) throws(AudioOutputError) {
        sampleRate = settings.sampleRate
        periodFrames = settings.periodFrames
        bufferFrames = periodFrames * Self.bufferCount
        ring = SPSCRing(capacityFrames: 4 * periodFrames)
        var format = AudioStreamBasicDescription(
            mSampleRate: settings.sampleRate, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 8, mFramesPerPacket: 1, mBytesPerFrame: 8,
            mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
        var created: AudioQueueRef?
        let status = AudioQueueNewOutput(&format, { userData, queue, buffer in
            guard let userData else { return }
            Unmanaged<CoreAudioOutput>.fromOpaque(userData).takeUnretainedValue().fill(buffer, queue: queue)
        }, Unmanaged.passUnretained(self).toOpaque(), nil, nil, 0, &created)
        guard status == noErr, let created else {
            throw .cannotOpen(backend: "coreaudio", device: deviceName, reason: "AudioQueueNewOutput returned \(status)")
        }
        queue = created
        for _ in 0..<Self.bufferCount {
            var buffer: AudioQueueBufferRef?
            let allocated = AudioQueueAllocateBuffer(created, UInt32(periodFrames * 8), &buffer)
            guard allocated == noErr, let buffer else {
                AudioQueueDispose(created, true)
                queue = nil
                throw .cannotOpen(backend: "coreaudio", device: deviceName, reason: "AudioQueueAllocateBuffer returned \(allocated)")
            }
            fill(buffer, queue: created, priming: true)
        }
        let started = AudioQueueStart(created, nil)
        guard started == noErr else {
            AudioQueueDispose(created, true)
            queue = nil
            throw .cannotOpen(backend: "coreaudio", device: deviceName, reason: "AudioQueueStart returned \(started)")
        }
    }

    deinit { close() }

    /// The queue's callback: one period from the ring, silence for what is missing.
    private func fill(_ buffer: AudioQueueBufferRef, queue: AudioQueueRef, priming: Bool = false) {
        let samples = buffer.pointee.mAudioData.assumingMemoryBound(to: Float.self)
        let got = ring.read(into: samples, count: periodFrames)
        if got < periodFrames {
            (samples + 2 * got).update(repeating: 0, count: 2 * (periodFrames - got))
            if !priming { underruns.wrappingIncrement(ordering: .relaxed) }
        }
        buffer.pointee.mAudioDataByteSize = UInt32(periodFrames * 8)
        AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
    }

    public func write(_ samples: UnsafePointer<Float>, frameCount: Int) throws(AudioOutputError) -> Bool {
        guard queue != nil else { throw .writeFailed(backend: backendName, device: deviceName, reason: "closed") }
        var done = 0
        while done < frameCount {
            let n = ring.write(interleaved: samples + 2 * done, count: frameCount - done)
            done += n
            if n == 0 { AudioThread.sleep(seconds: Double(periodFrames) / sampleRate / 4) }
        }
        let total = underruns.load(ordering: .relaxed)
        defer { reportedUnderruns = total }
        return total > reportedUnderruns
    }

    public func drain() {
        while ring.availableFrames > 0 && queue != nil {
            AudioThread.sleep(seconds: Double(periodFrames) / sampleRate)
        }
    }

    public func close() {
        if let queue {
            AudioQueueStop(queue, true)
            AudioQueueDispose(queue, true)
        }
        queue = nil
    }
}
#endif
