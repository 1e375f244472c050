/// The kinds of live audio output Polyphon can play through, tried in ``automaticOrder``.
public enum AudioBackend: String, CaseIterable, Sendable {
    /// PulseAudio (or PipeWire's PulseAudio server), through `libpulse-simple.so.0`.
    case pulseAudio = "pulse"
    /// ALSA, through `libasound.so.2`: the `default` PCM or any PCM name.
    case alsa = "alsa"
    /// CoreAudio's output unit (Apple platforms only).
    case coreAudio = "coreaudio"

    /// The order tried when no backend is named: the sound server first, because on a desktop
    /// it owns the card and ALSA's `default` would only reach it through a plugin.
    public static var automaticOrder: [AudioBackend] {
        #if canImport(AudioToolbox)
        [.coreAudio]
        #else
        [.pulseAudio, .alsa]
        #endif
    }

    /// Opens this backend's device (`nil`: the backend's default device).
    public func open(device: String? = nil,
                     settings: AudioOutputSettings = AudioOutputSettings()) throws(AudioOutputError) -> any AudioOutput {
        switch self {
        case .pulseAudio:
            #if canImport(Darwin)
            throw .backendNotOnThisPlatform(backend: rawValue)
            #else
            return try PulseAudioOutput(server: nil, sink: device, settings: settings)
            #endif
        case .alsa:
            #if canImport(Darwin)
            throw .backendNotOnThisPlatform(backend: rawValue)
            #else
            return try ALSAOutput(device: device ?? "default", settings: settings)
            #endif
        case .coreAudio:
            #if canImport(AudioToolbox)
            return try CoreAudioOutput(settings: settings)
            #else
            throw .backendNotOnThisPlatform(backend: rawValue)
            #endif
        }
    }

    /// Opens the first backend of ``automaticOrder`` that works.
    ///
    /// - Throws: ``AudioOutputError/noBackendAvailable(reasons:)`` with each backend's reason,
    ///   which names the package to install when a library is missing.
    public static func openFirstAvailable(device: String? = nil,
                                          settings: AudioOutputSettings = AudioOutputSettings()) throws(AudioOutputError) -> any AudioOutput {
        var reasons: [String] = []
        for backend in automaticOrder {
            do {
                return try backend.open(device: device, settings: settings)
            } catch {
                reasons.append(error.description)
            }
        }
        throw .noBackendAvailable(reasons: reasons)
    }
}
