#if !canImport(Darwin)
/// Plays through a PulseAudio server (or PipeWire's PulseAudio server) with the simple API.
///
/// The server is found the usual way (`PULSE_SERVER`, the user's runtime directory) unless
/// named. Samples go as 32-bit float stereo; the server converts to its sink's rate, so the
/// asked rate is the rate used. The target buffer is ``AudioOutputSettings/bufferPeriods``
/// periods of the asked latency, requested a period at a time.
public final class PulseAudioOutput: AudioOutput, @unchecked Sendable {
    // @unchecked: one thread at a time writes (LiveOutput's writer); close is idempotent.

    public let backendName = "pulse"
    public let deviceName: String
    public let sampleRate: Double
    public let periodFrames: Int
    public let bufferFrames: Int

    private let library: Libpulse
    private var stream: OpaquePointer?

    /// Connects to `server` (`nil`: the default) and opens a playback stream on `sink`
    /// (`nil`: the server's default sink).
    public init(server: String? = nil, sink: String? = nil,
                settings: AudioOutputSettings = AudioOutputSettings()) throws(AudioOutputError) {
        let library = try Libpulse.shared()
        self.library = library
        deviceName = sink ?? "default sink"
        let rate = UInt32(settings.sampleRate.rounded())
        let period = settings.periodFrames
        let buffer = period * max(2, settings.bufferPeriods)
        var spec = PulseSampleSpec(format: PulseSampleSpec.float32LE, rate: rate, channels: 2)
        let frameBytes = UInt32(2 * MemoryLayout<Float>.size)
        var attributes = PulseBufferAttributes(maxLength: UInt32.max, targetLength: UInt32(buffer) * frameBytes,
                                               prebuffer: UInt32.max, minimumRequest: UInt32(period) * frameBytes,
                                               fragmentSize: UInt32.max)
        var error: Int32 = 0
        let opened = withUnsafePointer(to: &spec) { specPointer in
            withUnsafePointer(to: &attributes) { attributePointer in
                library.simpleNew(server, settings.clientName, 1, sink, "playback",
                                  specPointer, nil, attributePointer, &error)
            }
        }
        guard let opened else {
            throw .cannotOpen(backend: "pulse", device: sink ?? server ?? "default server", reason: library.message(error))
        }
        stream = opened
        sampleRate = Double(rate)
        periodFrames = period
        bufferFrames = buffer
    }

    deinit { close() }

    public func write(_ samples: UnsafePointer<Float>, frameCount: Int) throws(AudioOutputError) -> Bool {
        guard let stream else { throw .writeFailed(backend: backendName, device: deviceName, reason: "closed") }
        var error: Int32 = 0
        if library.simpleWrite(stream, samples, frameCount * 2 * MemoryLayout<Float>.size, &error) < 0 {
            throw .writeFailed(backend: backendName, device: deviceName, reason: library.message(error))
        }
        // The simple API does not report the server's underruns; LiveOutput's clock does.
        return false
    }

    /// The server's playback latency (what is buffered ahead of the speaker), in seconds.
    public var latency: Double {
        guard let stream else { return 0 }
        var error: Int32 = 0
        return Double(library.simpleGetLatency(stream, &error)) * 1e-6
    }

    public func drain() {
        guard let stream else { return }
        var error: Int32 = 0
        _ = library.simpleDrain(stream, &error)
    }

    public func close() {
        if let stream { library.simpleFree(stream) }
        stream = nil
    }
}
#endif
