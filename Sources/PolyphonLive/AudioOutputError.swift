/// Why a live audio output could not be opened or written.
///
/// Every case names the backend and the device, so a one-line message tells the user what to
/// install or which device name to fix.
public enum AudioOutputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The backend's system library is not installed; `advice` names the package.
    case libraryUnavailable(backend: String, library: String, advice: String)
    /// The device (or sound server) refused to open.
    case cannotOpen(backend: String, device: String, reason: String)
    /// The device accepts none of the formats Polyphon can produce.
    case unsupportedFormat(backend: String, device: String, reason: String)
    /// Writing to an open device failed and could not be recovered.
    case writeFailed(backend: String, device: String, reason: String)
    /// No backend could be opened; one reason per backend tried.
    case noBackendAvailable(reasons: [String])
    /// The backend does not exist on this platform (CoreAudio on Linux, ALSA on macOS).
    case backendNotOnThisPlatform(backend: String)

    public var description: String {
        switch self {
        case .libraryUnavailable(let backend, let library, let advice):
            return "\(backend): \(library) could not be loaded; \(advice)"
        case .cannotOpen(let backend, let device, let reason):
            return "\(backend): cannot open device '\(device)': \(reason)"
        case .unsupportedFormat(let backend, let device, let reason):
            return "\(backend): device '\(device)' has no usable format: \(reason)"
        case .writeFailed(let backend, let device, let reason):
            return "\(backend): writing to device '\(device)' failed: \(reason)"
        case .noBackendAvailable(let reasons):
            return "no audio output available: " + reasons.joined(separator: "; ")
        case .backendNotOnThisPlatform(let backend):
            return "\(backend) is not available on this platform"
        }
    }
}
