import PolyphonSoundFontCore
import Foundation

extension SoundFont {
    /// Reads the DLS Level 1 or Level 2 collection at `path` into the bank model
    /// (see ``DLSConnection`` for the articulation mapping).
    /// - Throws: ``SoundFontError`` (format ``SoundFontError/Format/dls``) naming the chunk and
    ///   byte offset. Readable problems are listed in ``warnings``.
    public init(contentsOfDLS path: String) throws(SoundFontError) {
        let file: MappedFile
        do {
            file = try MappedFile(path: path)
        } catch {
            var error = error
            error.format = .dls
            throw error
        }
        var reader = DLSReader(file: file, name: path)
        self = try reader.read()
    }

    /// Reads a DLS collection from bytes in memory; `name` is used in errors and warnings.
    public init(dlsBytes bytes: [UInt8], name: String) throws(SoundFontError) {
        var reader = DLSReader(file: MappedFile(copying: bytes), name: name)
        self = try reader.read()
    }
}
