import PolyphonSoundFontCore

/// A sound bank that cannot be found, recognised or opened, naming the path.
///
/// Errors inside a bank's structure are the format's own (``SoundFontError`` for the RIFF
/// formats, ``SampleBankError``); this type covers what happens before a format is chosen.
public struct SoundBankError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// A path the user named (flag or environment variable) does not exist.
        case notFound(origin: String)
        /// The file could not be opened or read (`errno` text).
        case cannotOpen(String)
        /// The content is none of the supported kinds.
        case unrecognized
        /// A SoundBankPlayer bank was given but no audio loader to read its sample files.
        case audioLoaderRequired
        /// An SFZ instrument was given where a SoundFont-style bank is expected: SFZ is read
        /// by PolyphonSFZ (`SFZInstrument`), not turned into a ``SoundFont``.
        case sfzInstrument
    }

    /// The path concerned.
    public var path: String
    /// What went wrong.
    public var kind: Kind

    /// An error about `path`.
    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    /// One line: `path: what`.
    public var description: String {
        switch kind {
        case .notFound(let origin): return "\(path): no such sound bank (given by \(origin))"
        case .cannotOpen(let why): return "\(path): cannot open file (\(why))"
        case .unrecognized:
            return "\(path): not a sound bank (expected a SoundFont 2/3, DLS, SoundBankPlayer property list or SFZ instrument)"
        case .audioLoaderRequired:
            return "\(path): a SoundBankPlayer sample bank needs an audio file reader to load its samples"
        case .sfzInstrument:
            return "\(path): is an SFZ instrument, not a SoundFont: read it with SFZInstrument(contentsOf:) and play it through SFZSoundBank"
        }
    }
}
