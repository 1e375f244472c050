/// Why a Standard MIDI File could not be read: the data is not a MIDI file or is corrupt in a way
/// no reader could repair. Names the file, the track (when inside one), the byte offset from the
/// start of the file and the reason.
public struct MIDIFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Hashable {
        /// The file could not be opened or read; carries the system's message.
        case unreadable(String)
        /// The data starts with neither `MThd` nor a RIFF `RMID` header.
        case notAMIDIFile
        /// The file ends inside the `MThd` header chunk.
        case truncatedHeader
        /// The header chunk declares fewer than the 6 bytes every header has.
        case invalidHeaderLength(UInt32)
        /// The format word is not 0, 1 or 2.
        case unsupportedFormat(UInt16)
        /// The division word means nothing (0 ticks per quarter, unknown SMPTE rate, 0 ticks per frame).
        case invalidDivision(UInt16)
        /// A RIFF `RMID` file has no `data` chunk holding the MIDI file.
        case missingRIFFDataChunk
        /// A variable-length quantity runs over the 4 bytes the specification allows.
        case variableLengthQuantityTooLong
        /// A data byte appears where a status byte is needed and no running status is in effect.
        case missingRunningStatus(UInt8)
        /// A status byte that cannot appear in a file (system common or real-time, `F1`…`FE`).
        case unexpectedStatusByte(UInt8)
        /// A channel message has a data byte with the high bit set.
        case dataByteOutOfRange(UInt8)
    }

    /// The file name given to the reader (the path's last component when read from disk).
    public let fileName: String
    /// The index of the track chunk (0-based) the error lies in, `nil` outside tracks.
    public let trackIndex: Int?
    /// Offset of the offending byte from the start of the file.
    public let byteOffset: Int
    /// What is wrong.
    public let reason: Reason

    /// Creates an error.
    public init(fileName: String, trackIndex: Int?, byteOffset: Int, reason: Reason) {
        self.fileName = fileName
        self.trackIndex = trackIndex
        self.byteOffset = byteOffset
        self.reason = reason
    }

    /// One line: file, place and reason, for example
    /// `song.mid: track 2, byte 1234 (0x4D2): data byte 0x9C out of range in a channel message`.
    public var description: String {
        var place = trackIndex.map { "track \($0), " } ?? ""
        place += "byte \(byteOffset) (0x\(String(byteOffset, radix: 16, uppercase: true)))"
        return "\(fileName): \(place): \(reasonText)"
    }

    private var reasonText: String {
        switch reason {
        case .unreadable(let message): return "cannot read file: \(message)"
        case .notAMIDIFile: return "not a Standard MIDI File (no MThd or RIFF RMID header)"
        case .truncatedHeader: return "file ends inside the MThd header"
        case .invalidHeaderLength(let length): return "MThd header length \(length) is shorter than 6"
        case .unsupportedFormat(let format): return "unsupported format \(format) (must be 0, 1 or 2)"
        case .invalidDivision(let word): return "invalid division 0x\(String(word, radix: 16, uppercase: true))"
        case .missingRIFFDataChunk: return "RIFF RMID file has no data chunk"
        case .variableLengthQuantityTooLong: return "variable-length quantity longer than 4 bytes"
        case .missingRunningStatus(let byte):
            return "data byte 0x\(hex(byte)) with no running status in effect"
        case .unexpectedStatusByte(let byte): return "status byte 0x\(hex(byte)) is not allowed in a MIDI file"
        case .dataByteOutOfRange(let byte): return "data byte 0x\(hex(byte)) out of range in a channel message"
        }
    }
}

func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
}
