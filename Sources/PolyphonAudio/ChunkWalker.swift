/// One chunk found while walking a RIFF, IFF or CAF file.
struct ChunkHeader {
    /// The four-character type, such as `"fmt "` or `"SSND"`.
    var id: String
    /// The byte offset of the chunk's header.
    var offset: Int
    /// The byte offset of the chunk's body.
    var bodyOffset: Int
    /// The size the header declares (−1 for a CAF data chunk that runs to the end of the file).
    var declaredSize: Int64
    /// The body bytes actually present: the declared size, cut short where the file ends.
    var availableSize: Int

    var isTruncated: Bool { Int64(availableSize) != declaredSize }
}

/// Lists the chunks of a container from `start` to the end of the file, in file order.
///
/// Chunks may come in any order and unknown ones are simply listed; the caller picks what it
/// needs. RIFF and IFF bodies of odd size are followed by a pad byte. A final chunk whose body
/// runs past the end of the file is listed with its available size (a render that was cut off
/// still yields its samples), and trailing bytes too few for a chunk header are ignored.
enum ChunkWalker {
    enum Dialect {
        /// `fourCC`, 32-bit little-endian size, odd bodies padded.
        case riff
        /// `fourCC`, 32-bit big-endian size, odd bodies padded.
        case iff
        /// `fourCC`, 64-bit big-endian signed size, no padding; −1 means "to the end".
        case caf
    }

    static func chunks(in reader: BinaryReader, from start: Int, dialect: Dialect, container: String) throws
        -> [ChunkHeader]
    {
        let headerSize = dialect == .caf ? 12 : 8
        var chunks: [ChunkHeader] = []
        var offset = start
        while offset <= reader.count - headerSize {
            let id = try reader.fourCC(at: offset, in: container)
            let declared: Int64
            switch dialect {
            case .riff: declared = Int64(try reader.uint32(at: offset + 4, bigEndian: false, in: id))
            case .iff: declared = Int64(try reader.uint32(at: offset + 4, bigEndian: true, in: id))
            case .caf: declared = Int64(bitPattern: try reader.uint64(at: offset + 4, bigEndian: true, in: id))
            }
            let bodyOffset = offset + headerSize
            let remaining = reader.count - bodyOffset
            if declared < 0 {
                guard dialect == .caf, declared == -1, id == "data" else {
                    throw AudioFileError.malformed(
                        path: reader.path, chunk: id, offset: offset, reason: "negative chunk size \(declared)")
                }
                chunks.append(ChunkHeader(
                    id: id, offset: offset, bodyOffset: bodyOffset, declaredSize: -1, availableSize: remaining))
                break  // it runs to the end of the file, so nothing can follow it
            }
            let available = Int(min(declared, Int64(remaining)))
            chunks.append(ChunkHeader(
                id: id, offset: offset, bodyOffset: bodyOffset, declaredSize: declared, availableSize: available))
            if Int64(available) < declared { break }
            let padding = dialect != .caf && declared % 2 == 1 ? 1 : 0
            offset = bodyOffset + available + padding
        }
        return chunks
    }

    /// Throws unless `chunk` holds at least `size` bytes.
    static func require(_ chunk: ChunkHeader, atLeast size: Int, in reader: BinaryReader) throws {
        guard chunk.availableSize >= size else {
            throw AudioFileError.malformed(
                path: reader.path, chunk: chunk.id, offset: chunk.offset,
                reason: chunk.isTruncated
                    ? "the file ends inside the chunk, \(chunk.availableSize) of \(size) bytes present"
                    : "\(chunk.declaredSize) bytes is too small, at least \(size) expected")
        }
    }
}
