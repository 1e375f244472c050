/// A container or codec that Polyphon can write an audio file in.
///
/// WAV, AIFF and CAF are written by Polyphon itself, with no system library. FLAC, Ogg Vorbis,
/// Opus and MP3 are handed to libsndfile, which is loaded at run time (see ``Libsndfile``), so a
/// machine without it can still render to the native formats.
public enum AudioFileFormat: String, Sendable, Hashable, CaseIterable {
    /// RIFF WAVE, little-endian.
    case wav
    /// Audio Interchange File Format, big-endian (plain AIFF, not AIFF-C).
    case aiff
    /// Core Audio Format.
    case caf
    /// Free Lossless Audio Codec (through libsndfile).
    case flac
    /// Ogg Vorbis (through libsndfile).
    case ogg
    /// Opus in an Ogg container (through libsndfile).
    case opus
    /// MPEG-1 Layer III (through libsndfile 1.1 or later built with LAME).
    case mp3

    /// Chooses a format from a file name extension such as `"wav"`, `".AIFF"` or `"oga"`.
    ///
    /// Returns `nil` for an extension that names none of the supported formats.
    public init?(fileExtension: String) {
        var ext = fileExtension.lowercased()
        if ext.hasPrefix(".") { ext.removeFirst() }
        switch ext {
        case "wav", "wave": self = .wav
        case "aif", "aiff": self = .aiff
        case "caf": self = .caf
        case "flac": self = .flac
        case "ogg", "oga": self = .ogg
        case "opus": self = .opus
        case "mp3": self = .mp3
        default: return nil
        }
    }

    /// Chooses a format from the extension of the last path component of `path`.
    public init?(path: String) {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        self.init(fileExtension: String(name[name.index(after: dot)...]))
    }

    /// The usual file name extension, without the dot.
    public var fileExtension: String { rawValue }

    /// Whether Polyphon writes and reads this format itself, without libsndfile.
    public var isNative: Bool {
        switch self {
        case .wav, .aiff, .caf: true
        case .flac, .ogg, .opus, .mp3: false
        }
    }
}
