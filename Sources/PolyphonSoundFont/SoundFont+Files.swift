import PolyphonSoundFontCore
import Foundation

extension SoundFont {
    /// Reads the SF2 or SF3 bank at `path`.
    ///
    /// The file is memory-mapped: only the preset, instrument and sample tables are read while
    /// loading, and ``SoundFont/sampleData`` points into the mapping, so sample pages are loaded
    /// only when a voice plays them. SF3 samples are decoded on first use
    /// (``VorbisSampleDecoder``).
    /// - Throws: ``SoundFontError`` when the file cannot be read or its structure is broken.
    ///   Readable sloppiness is listed in ``SoundFont/warnings``.
    public init(contentsOf path: String) throws(SoundFontError) {
        let file = try MappedFile(path: path)
        try self.init(bytes: file.bytes, owner: file, name: path, sampleDecoder: VorbisSampleDecoder())
    }

    /// Reads the SF2 or SF3 bank at a file URL. See ``init(contentsOf:)-(String)``.
    public init(contentsOf url: URL) throws(SoundFontError) {
        guard url.isFileURL else {
            throw SoundFontError(file: url.absoluteString, chunk: "file", offset: 0,
                                 kind: .cannotOpen("not a file URL"))
        }
        try self.init(contentsOf: url.path)
    }

    /// Reads a bank from bytes in memory, with SF3 samples decoded on first use; `name` is used
    /// in errors and warnings.
    public init(bytes: [UInt8], name: String) throws(SoundFontError) {
        try self.init(bytes: bytes, name: name, sampleDecoder: VorbisSampleDecoder())
    }

    /// Writes ``SoundFont/serialized()`` to the file at `path`, replacing it.
    /// - Throws: ``SoundFontError`` with kind ``SoundFontError/Kind/cannotOpen(_:)`` when the file
    ///   cannot be written.
    public func write(to path: String) throws(SoundFontError) {
        try write(to: URL(fileURLWithPath: path))
    }

    /// Writes ``SoundFont/serialized()`` to a file URL, replacing the file.
    public func write(to url: URL) throws(SoundFontError) {
        do {
            try Data(serialized()).write(to: url, options: .atomic)
        } catch {
            throw SoundFontError(file: url.path, chunk: "file", offset: 0,
                                 kind: .cannotOpen(error.localizedDescription))
        }
    }
}
