#if !canImport(Darwin)
import PolyphonDynamicLibrary
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// libasound (ALSA's user-space library), loaded at run time with `dlopen` so that Polyphon
/// builds without `libasound2-dev` and runs without ALSA where it is not needed.
///
/// Holds the PCM functions for ``ALSAOutput``, the device-name hints for listing, and the
/// sequencer functions for ``ALSASequencerInput``.
final class Libasound: @unchecked Sendable {
    // @unchecked: immutable after init; libasound's functions are called on distinct handles.

    /// The advice shown when the library is missing.
    static let installAdvice = "install libasound2 (Debian/Ubuntu: apt install libasound2)"
    static let libraryName = "libasound.so.2"

    typealias PCM = OpaquePointer
    typealias Params = OpaquePointer

    let pcmOpen: @convention(c) (UnsafeMutablePointer<PCM?>, UnsafePointer<CChar>, Int32, Int32) -> Int32
    let pcmClose: @convention(c) (PCM) -> Int32
    let pcmPrepare: @convention(c) (PCM) -> Int32
    let pcmDrain: @convention(c) (PCM) -> Int32
    let pcmWritei: @convention(c) (PCM, UnsafeRawPointer, UInt) -> Int
    let pcmRecover: @convention(c) (PCM, Int32, Int32) -> Int32
    let hwParamsMalloc: @convention(c) (UnsafeMutablePointer<Params?>) -> Int32
    let hwParamsFree: @convention(c) (Params) -> Void
    let hwParamsAny: @convention(c) (PCM, Params) -> Int32
    let hwParamsSetAccess: @convention(c) (PCM, Params, Int32) -> Int32
    let hwParamsSetFormat: @convention(c) (PCM, Params, Int32) -> Int32
    let hwParamsSetChannels: @convention(c) (PCM, Params, UInt32) -> Int32
    let hwParamsSetRateResample: @convention(c) (PCM, Params, UInt32) -> Int32
    let hwParamsSetRateNear: @convention(c) (PCM, Params, UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<Int32>?) -> Int32
    let hwParamsSetPeriodSizeNear: @convention(c) (PCM, Params, UnsafeMutablePointer<UInt>, UnsafeMutablePointer<Int32>?) -> Int32
    let hwParamsSetBufferSizeNear: @convention(c) (PCM, Params, UnsafeMutablePointer<UInt>) -> Int32
    let hwParams: @convention(c) (PCM, Params) -> Int32
    let hwParamsGetPeriodSize: @convention(c) (Params, UnsafeMutablePointer<UInt>, UnsafeMutablePointer<Int32>?) -> Int32
    let hwParamsGetBufferSize: @convention(c) (Params, UnsafeMutablePointer<UInt>) -> Int32
    let swParamsMalloc: @convention(c) (UnsafeMutablePointer<Params?>) -> Int32
    let swParamsFree: @convention(c) (Params) -> Void
    let swParamsCurrent: @convention(c) (PCM, Params) -> Int32
    let swParamsSetStartThreshold: @convention(c) (PCM, Params, UInt) -> Int32
    let swParamsSetAvailMin: @convention(c) (PCM, Params, UInt) -> Int32
    let swParams: @convention(c) (PCM, Params) -> Int32
    let strerror: @convention(c) (Int32) -> UnsafePointer<CChar>?
    let deviceNameHint: @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutableRawPointer?>?>) -> Int32
    let deviceNameGetHint: @convention(c) (UnsafeRawPointer, UnsafePointer<CChar>) -> UnsafeMutablePointer<CChar>?
    let deviceNameFreeHint: @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> Int32

    private let library: DynamicLibrary

    /// The library, loaded once per process.
    static func shared() throws(AudioOutputError) -> Libasound { try loaded.get() }

    private static let loaded: Result<Libasound, AudioOutputError> = {
        do throws(DynamicLibrary.Failure) {
            return .success(try Libasound(library: DynamicLibrary(firstOf: [libraryName])))
        } catch {
            return .failure(unavailable(error))
        }
    }()

    private init(library: DynamicLibrary) throws(DynamicLibrary.Failure) {
        self.library = library
        pcmOpen = try library.symbol("snd_pcm_open")
        pcmClose = try library.symbol("snd_pcm_close")
        pcmPrepare = try library.symbol("snd_pcm_prepare")
        pcmDrain = try library.symbol("snd_pcm_drain")
        pcmWritei = try library.symbol("snd_pcm_writei")
        pcmRecover = try library.symbol("snd_pcm_recover")
        hwParamsMalloc = try library.symbol("snd_pcm_hw_params_malloc")
        hwParamsFree = try library.symbol("snd_pcm_hw_params_free")
        hwParamsAny = try library.symbol("snd_pcm_hw_params_any")
        hwParamsSetAccess = try library.symbol("snd_pcm_hw_params_set_access")
        hwParamsSetFormat = try library.symbol("snd_pcm_hw_params_set_format")
        hwParamsSetChannels = try library.symbol("snd_pcm_hw_params_set_channels")
        hwParamsSetRateResample = try library.symbol("snd_pcm_hw_params_set_rate_resample")
        hwParamsSetRateNear = try library.symbol("snd_pcm_hw_params_set_rate_near")
        hwParamsSetPeriodSizeNear = try library.symbol("snd_pcm_hw_params_set_period_size_near")
        hwParamsSetBufferSizeNear = try library.symbol("snd_pcm_hw_params_set_buffer_size_near")
        hwParams = try library.symbol("snd_pcm_hw_params")
        hwParamsGetPeriodSize = try library.symbol("snd_pcm_hw_params_get_period_size")
        hwParamsGetBufferSize = try library.symbol("snd_pcm_hw_params_get_buffer_size")
        swParamsMalloc = try library.symbol("snd_pcm_sw_params_malloc")
        swParamsFree = try library.symbol("snd_pcm_sw_params_free")
        swParamsCurrent = try library.symbol("snd_pcm_sw_params_current")
        swParamsSetStartThreshold = try library.symbol("snd_pcm_sw_params_set_start_threshold")
        swParamsSetAvailMin = try library.symbol("snd_pcm_sw_params_set_avail_min")
        swParams = try library.symbol("snd_pcm_sw_params")
        strerror = try library.symbol("snd_strerror")
        deviceNameHint = try library.symbol("snd_device_name_hint")
        deviceNameGetHint = try library.symbol("snd_device_name_get_hint")
        deviceNameFreeHint = try library.symbol("snd_device_name_free_hint")
    }

    /// Looks up a further function (the sequencer's), for ``ALSASequencerInput``.
    func symbol<T>(_ name: String, as type: T.Type) throws(AudioOutputError) -> T {
        do throws(DynamicLibrary.Failure) {
            return try library.symbol(name, as: type)
        } catch {
            throw Self.unavailable(error)
        }
    }

    private static func unavailable(_ failure: DynamicLibrary.Failure) -> AudioOutputError {
        .libraryUnavailable(backend: "alsa", library: libraryName, advice: "\(failure); \(installAdvice)")
    }

    /// ALSA's text for a negative error code.
    func message(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }

    /// The PCM names ALSA's configuration offers for playback, with their descriptions.
    func playbackDevices() -> [(name: String, description: String)] {
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard deviceNameHint(-1, "pcm", &hints) == 0, let hints else { return [] }
        defer { _ = deviceNameFreeHint(hints) }
        var devices: [(String, String)] = []
        var index = 0
        while let hint = hints[index] {
            index += 1
            func text(_ id: String) -> String? {
                guard let value = deviceNameGetHint(hint, id) else { return nil }
                defer { free(value) }
                return String(cString: value)
            }
            // IOID is absent for devices that do both directions, "Input" for capture only.
            if text("IOID") == "Input" { continue }
            guard let name = text("NAME") else { continue }
            let description = (text("DESC") ?? "").split(separator: "\n").joined(separator: " — ")
            devices.append((name, description))
        }
        return devices
    }
}
#endif
