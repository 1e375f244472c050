#if !canImport(Darwin)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Plays through an ALSA PCM: `default`, a card (`hw:0`, `plughw:1,0`) or any PCM that ALSA's
/// configuration defines, such as `file:'/tmp/out.raw',raw` which writes what it plays to a file.
///
/// Negotiates interleaved stereo, 32-bit float where the device takes it and 16-bit integers
/// otherwise (converted here), the sample rate nearest the one asked for, and a period near
/// the asked latency with ``AudioOutputSettings/bufferPeriods`` periods in the buffer.
public final class ALSAOutput: AudioOutput, @unchecked Sendable {
    // @unchecked: one thread at a time writes (LiveOutput's writer); close is idempotent.

    public let backendName = "alsa"
    public let deviceName: String
    public let sampleRate: Double
    public let periodFrames: Int
    public let bufferFrames: Int
    /// Whether the device takes float samples (otherwise they are converted to 16-bit).
    public let usesFloatSamples: Bool

    private let library: Libasound
    private var pcm: OpaquePointer?
    /// Conversion space for 16-bit devices, one period long.
    private let converted: UnsafeMutablePointer<Int16>

    static let streamPlayback: Int32 = 0
    static let accessInterleaved: Int32 = 3
    static let formatS16LE: Int32 = 2
    static let formatFloatLE: Int32 = 14

    /// Opens `device` for playback with `settings`.
    public init(device: String = "default", settings: AudioOutputSettings = AudioOutputSettings()) throws(AudioOutputError) {
        let library = try Libasound.shared()
        self.library = library
        deviceName = device
        var handle: OpaquePointer?
        let opened = library.pcmOpen(&handle, device, Self.streamPlayback, 0)
        guard opened == 0, let handle else {
            throw .cannotOpen(backend: "alsa", device: device, reason: library.message(opened))
        }
        func fail(_ step: String, _ code: Int32) -> AudioOutputError {
            _ = library.pcmClose(handle)
            return .cannotOpen(backend: "alsa", device: device, reason: "\(step): \(library.message(code))")
        }
        var hw: OpaquePointer?
        guard library.hwParamsMalloc(&hw) == 0, let hw else { throw fail("hw params", -ENOMEM) }
        defer { library.hwParamsFree(hw) }
        var code = library.hwParamsAny(handle, hw)
        if code < 0 { throw fail("hw params", code) }
        code = library.hwParamsSetAccess(handle, hw, Self.accessInterleaved)
        if code < 0 { throw fail("interleaved access", code) }
        var useFloat = true
        if library.hwParamsSetFormat(handle, hw, Self.formatFloatLE) < 0 {
            useFloat = false
            code = library.hwParamsSetFormat(handle, hw, Self.formatS16LE)
            if code < 0 {
                _ = library.pcmClose(handle)
                throw .unsupportedFormat(backend: "alsa", device: device,
                                         reason: "neither FLOAT_LE nor S16_LE: \(library.message(code))")
            }
        }
        code = library.hwParamsSetChannels(handle, hw, 2)
        if code < 0 {
            _ = library.pcmClose(handle)
            throw .unsupportedFormat(backend: "alsa", device: device, reason: "no stereo: \(library.message(code))")
        }
        // Let ALSA resample if the card cannot run at the asked rate; the nearest rate wins.
        _ = library.hwParamsSetRateResample(handle, hw, 1)
        var rate = UInt32(settings.sampleRate.rounded())
        code = library.hwParamsSetRateNear(handle, hw, &rate, nil)
        if code < 0 { throw fail("sample rate \(rate)", code) }
        var period = UInt(settings.periodFrames)
        code = library.hwParamsSetPeriodSizeNear(handle, hw, &period, nil)
        if code < 0 { throw fail("period of \(period) frames", code) }
        var buffer = period * UInt(max(2, settings.bufferPeriods))
        code = library.hwParamsSetBufferSizeNear(handle, hw, &buffer)
        if code < 0 { throw fail("buffer of \(buffer) frames", code) }
        code = library.hwParams(handle, hw)
        if code < 0 { throw fail("applying hw params", code) }
        _ = library.hwParamsGetPeriodSize(hw, &period, nil)
        _ = library.hwParamsGetBufferSize(hw, &buffer)

        var sw: OpaquePointer?
        if library.swParamsMalloc(&sw) == 0, let sw {
            defer { library.swParamsFree(sw) }
            // Start once the buffer is nearly full, wake when a period is free.
            if library.swParamsCurrent(handle, sw) == 0 {
                _ = library.swParamsSetStartThreshold(handle, sw, max(period, buffer - period))
                _ = library.swParamsSetAvailMin(handle, sw, period)
                _ = library.swParams(handle, sw)
            }
        }
        code = library.pcmPrepare(handle)
        if code < 0 { throw fail("prepare", code) }

        pcm = handle
        sampleRate = Double(rate)
        periodFrames = Int(period)
        bufferFrames = Int(buffer)
        usesFloatSamples = useFloat
        converted = .allocate(capacity: 2 * Int(period))
    }

    deinit {
        close()
        converted.deallocate()
    }

    public func write(_ samples: UnsafePointer<Float>, frameCount: Int) throws(AudioOutputError) -> Bool {
        guard let pcm else { throw .writeFailed(backend: backendName, device: deviceName, reason: "closed") }
        var done = 0
        var ranDry = false
        while done < frameCount {
            let chunk = usesFloatSamples ? frameCount - done : min(frameCount - done, periodFrames)
            let source = samples + 2 * done
            let result: Int
            if usesFloatSamples {
                result = library.pcmWritei(pcm, source, UInt(chunk))
            } else {
                for i in 0..<(2 * chunk) {
                    converted[i] = Int16((max(-1, min(1, source[i])) * 32767).rounded())
                }
                result = library.pcmWritei(pcm, converted, UInt(chunk))
            }
            if result >= 0 {
                done += result
                continue
            }
            // -EPIPE is an underrun, -ESTRPIPE a suspend: recover and write the frames again.
            if Int32(result) == -EPIPE { ranDry = true }
            let recovered = library.pcmRecover(pcm, Int32(result), 1)
            if recovered < 0 {
                throw .writeFailed(backend: backendName, device: deviceName, reason: library.message(Int32(result)))
            }
        }
        return ranDry
    }

    public func drain() {
        if let pcm { _ = library.pcmDrain(pcm) }
    }

    public func close() {
        if let pcm { _ = library.pcmClose(pcm) }
        pcm = nil
    }

    /// The playback PCMs ALSA's configuration names (`default`, `sysdefault:CARD=…`, plugins).
    public static func availableDevices() throws(AudioOutputError) -> [(name: String, description: String)] {
        try Libasound.shared().playbackDevices()
    }
}
#endif
