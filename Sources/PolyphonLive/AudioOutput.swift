/// A device that plays interleaved stereo `Float` samples: the sink at the end of
/// ``LiveOutput``'s writer thread.
///
/// A backend is a blocking writer: ``write(_:frameCount:)`` returns once the device (or sound
/// server) has taken the frames, which is what paces the writer thread to the device's clock.
/// One thread at a time uses an output (the writer thread, then whoever closes it).
public protocol AudioOutput: AnyObject, Sendable {
    /// The backend's short name, as `--backend` takes it: `pulse`, `alsa` or `coreaudio`.
    var backendName: String { get }
    /// The device or server the output plays to, as the user would name it.
    var deviceName: String { get }
    /// The sample rate the device agreed to, in Hz (it may differ from the one asked for).
    var sampleRate: Double { get }
    /// Frames per write the device works in (its period), after negotiation.
    var periodFrames: Int { get }
    /// Frames the device buffers ahead of the speaker: the output latency, after negotiation.
    var bufferFrames: Int { get }

    /// Plays `frameCount` interleaved stereo frames, blocking until the device has taken them.
    ///
    /// - Returns: `true` when the device reported that it had run dry (an underrun it
    ///   recovered from) before taking these frames.
    func write(_ samples: UnsafePointer<Float>, frameCount: Int) throws(AudioOutputError) -> Bool

    /// Blocks until everything written has been played.
    func drain()

    /// Releases the device. Further writes fail; closing twice is harmless.
    func close()
}

/// What ``LiveOutput`` and the backends ask of the device.
public struct AudioOutputSettings: Sendable, Equatable {
    /// The sample rate to ask for, in Hz. The device may choose another: read
    /// ``AudioOutput/sampleRate`` after opening and render at that rate.
    public var sampleRate: Double
    /// The latency to aim for, in seconds: one device period. The default, 10 ms, is short
    /// enough to play from a keyboard and long enough for a busy passage on a small machine.
    public var latency: Double
    /// Periods in the device buffer; more survive scheduling hiccups at the cost of delay.
    public var bufferPeriods: Int
    /// The name the sound server shows for this client.
    public var clientName: String

    /// Settings with the default 10 ms latency at 44.1 kHz.
    public init(sampleRate: Double = 44_100, latency: Double = 0.010, bufferPeriods: Int = 3,
                clientName: String = "polyphon") {
        self.sampleRate = sampleRate
        self.latency = latency
        self.bufferPeriods = bufferPeriods
        self.clientName = clientName
    }

    /// The period that ``latency`` asks for at ``sampleRate``, at least 16 frames.
    public var periodFrames: Int { max(16, Int((sampleRate * latency).rounded())) }
}
