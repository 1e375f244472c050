import Foundation

extension MIDIFile {
    /// Reads a Standard MIDI File from disk.
    ///
    /// - Throws: ``MIDIFileError`` naming the file's last path component.
    public init(contentsOf url: URL) throws(MIDIFileError) {
        let name = url.lastPathComponent
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw MIDIFileError(fileName: name, trackIndex: nil, byteOffset: 0,
                                reason: .unreadable(error.localizedDescription))
        }
        try self.init(bytes: [UInt8](data), name: name)
    }

    /// Reads a Standard MIDI File from a path on disk.
    ///
    /// - Throws: ``MIDIFileError`` naming the file by `path` as given, so that a command-line
    ///   tool reports the path its user typed.
    public init(contentsOfFile path: String) throws(MIDIFileError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw MIDIFileError(fileName: path, trackIndex: nil, byteOffset: 0,
                                reason: .unreadable(error.localizedDescription))
        }
        try self.init(bytes: [UInt8](data), name: path)
    }

    /// Writes the file to disk (see ``serialized(format:runningStatus:)``), replacing it.
    public func write(to url: URL, format: MIDIFileFormat? = nil, runningStatus: Bool = true) throws {
        try Data(serialized(format: format, runningStatus: runningStatus)).write(to: url, options: .atomic)
    }
}

extension Song {
    /// Reads a song from a Standard MIDI File on disk (see ``Song/init(midiFile:)``).
    ///
    /// - Throws: ``MIDIFileError`` naming the file, track and byte offset of the defect.
    public init(contentsOf url: URL) throws(MIDIFileError) {
        self.init(midiFile: try MIDIFile(contentsOf: url))
    }

    /// Writes the song as a Standard MIDI File (see ``Song/midiFile(ticksPerQuarterNote:format:)``).
    public func write(to url: URL, ticksPerQuarterNote: Int = 480, format: MIDIFileFormat = .multipleTracks) throws {
        try midiFile(ticksPerQuarterNote: ticksPerQuarterNote, format: format).write(to: url)
    }
}
