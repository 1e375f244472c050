/// One RIFF chunk located in a byte buffer: its four-character id and where its data lies.
struct RIFFChunk {
    /// The four-character id (`LIST`, `smpl`, `phdr`, ...).
    var id: String
    /// Offset of the chunk header (the id) from the start of the file.
    var offset: Int
    /// Offset of the data, just past the 8-byte header.
    var dataOffset: Int { offset + 8 }
    /// The size the header declares.
    var size: Int
    var dataRange: Range<Int> { dataOffset..<(dataOffset + size) }
}

/// Little-endian reads from a file's bytes. Every caller checks bounds first, so these never
/// read outside the buffer.
extension UnsafeRawBufferPointer {
    @inline(__always)
    func u8(_ offset: Int) -> UInt8 { self[offset] }

    @inline(__always)
    func u16(_ offset: Int) -> UInt16 {
        UInt16(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    @inline(__always)
    func i16(_ offset: Int) -> Int16 { Int16(bitPattern: u16(offset)) }

    @inline(__always)
    func u32(_ offset: Int) -> UInt32 {
        UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// Four bytes as a chunk id, each byte taken as a Latin-1 character.
    func fourCC(_ offset: Int) -> String {
        var s = ""
        s.reserveCapacity(4)
        for i in 0..<4 { s.unicodeScalars.append(Unicode.Scalar(self[offset + i])) }
        return s
    }

    /// A zero-terminated string of at most `count` bytes (fixed-size name fields, INFO strings).
    func string(_ offset: Int, maxCount count: Int) -> String {
        var end = offset
        let limit = offset + count
        while end < limit, self[end] != 0 { end += 1 }
        return SoundFontText.decode(UnsafeRawBufferPointer(rebasing: self[offset..<end]))
    }
}

/// How SoundFont text fields are decoded and encoded.
enum SoundFontText {
    /// UTF-8 when the bytes are valid UTF-8 (plain ASCII is), else Latin-1, which is what older
    /// banks written on Windows use and which never fails.
    static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        if isValidUTF8(bytes) { return String(decoding: bytes, as: UTF8.self) }
        var s = ""
        s.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return s
    }

    /// Whether `bytes` are well-formed UTF-8. (`String(validating:as:)` would do, but it needs
    /// macOS 15 / iOS 18 and the package supports older systems.)
    static func isValidUTF8<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// UTF-8 bytes of `text`, cut at a character boundary so they fit `limit` bytes.
    static func encode(_ text: String, limit: Int) -> [UInt8] {
        var out: [UInt8] = []
        for scalar in text.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            if out.count + encoded.count > limit { break }
            out += encoded
        }
        return out
    }
}

/// Walks the chunks of one RIFF container (the file's `RIFF` body or a `LIST` body).
struct RIFFChunkWalker {
    /// The ids a SoundFont contains; used to tell whether a missing pad byte shifted the next chunk.
    static let knownIDs: Set<String> = [
        "RIFF", "LIST", "INFO", "sdta", "pdta", "ifil", "isng", "INAM", "irom", "iver", "ICRD",
        "IENG", "IPRD", "ICOP", "ICMT", "ISFT", "smpl", "sm24", "phdr", "pbag", "pmod", "pgen",
        "inst", "ibag", "imod", "igen", "shdr",
    ]

    /// The chunks in `range` of `bytes`, in order.
    ///
    /// A chunk with an odd size is followed by a pad byte (RIFF rule). Some writers omit it;
    /// when the next id is plausible only without the pad, the chunk list continues there and a
    /// warning says so.
    static func chunks(in bytes: UnsafeRawBufferPointer, range: Range<Int>, container: String,
                       file: String, warnings: inout [SoundFontWarning]) throws -> [RIFFChunk] {
        var result: [RIFFChunk] = []
        var offset = range.lowerBound
        let end = range.upperBound
        while end - offset >= 8 {
            let id = bytes.fourCC(offset)
            let size = Int(bytes.u32(offset + 4))
            let dataEnd = offset + 8 + size
            guard dataEnd <= end else {
                throw SoundFontError(file: file, chunk: id, offset: offset,
                                     kind: .chunkPastEnd(declared: size, available: end - offset - 8))
            }
            result.append(RIFFChunk(id: id, offset: offset, size: size))
            offset = dataEnd
            if size & 1 == 1 {
                if let next = nextOffsetAfterOddChunk(bytes, dataEnd: dataEnd, end: end), next == dataEnd {
                    warnings.append(SoundFontWarning(
                        chunk: id, offset: result[result.count - 1].offset,
                        message: "odd size \(size) without the RIFF pad byte"))
                    offset = dataEnd
                } else {
                    offset = dataEnd + 1
                }
            }
        }
        if offset < end && end - offset > 1 {
            warnings.append(SoundFontWarning(chunk: container, offset: offset,
                                             message: "\(end - offset) trailing bytes ignored"))
        }
        return result
    }

    /// Where the chunk after an odd-sized one starts: after the pad byte (the rule) or right at
    /// `dataEnd` (a writer that forgot the pad). Nil when there is no next chunk to judge by.
    private static func nextOffsetAfterOddChunk(_ bytes: UnsafeRawBufferPointer, dataEnd: Int, end: Int) -> Int? {
        let padded = dataEnd + 1
        let paddedFits = padded + 8 <= end
        let unpaddedFits = dataEnd + 8 <= end
        if paddedFits, knownIDs.contains(bytes.fourCC(padded)) { return padded }
        if unpaddedFits, knownIDs.contains(bytes.fourCC(dataEnd)) { return dataEnd }
        if paddedFits, isPrintableID(bytes, padded) { return padded }
        if unpaddedFits, isPrintableID(bytes, dataEnd) { return dataEnd }
        return nil
    }

    private static func isPrintableID(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> Bool {
        for i in 0..<4 where !(0x20...0x7E).contains(bytes[offset + i]) { return false }
        return bytes[offset] != 0x20
    }
}
