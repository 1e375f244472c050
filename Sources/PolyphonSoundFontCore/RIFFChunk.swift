/// One RIFF chunk located in a byte buffer: its four-character id and where its data lies.
package struct RIFFChunk {
    /// The four-character id (`LIST`, `smpl`, `phdr`, ...).
    package var id: String
    /// Offset of the chunk header (the id) from the start of the file.
    package var offset: Int
    /// Offset of the data, just past the 8-byte header.
    package var dataOffset: Int { offset + 8 }
    /// The size the header declares.
    package var size: Int
    package var dataRange: Range<Int> { dataOffset..<(dataOffset + size) }
}

/// Walks the chunks of one RIFF container (the file's `RIFF` body or a `LIST` body).
package struct RIFFChunkWalker {
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
    package static func chunks(in bytes: UnsafeRawBufferPointer, range: Range<Int>, container: String,
                       file: String, format: SoundFontError.Format = .soundFont,
                       warnings: inout [SoundFontWarning]) throws(SoundFontError) -> [RIFFChunk] {
        var result: [RIFFChunk] = []
        var offset = range.lowerBound
        let end = range.upperBound
        while end - offset >= 8 {
            let id = bytes.fourCC(offset)
            let size = Int(bytes.u32(offset + 4))
            let dataEnd = offset + 8 + size
            guard dataEnd <= end else {
                throw SoundFontError(file: file, format: format, chunk: id, offset: offset,
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
