import Foundation

/// Adds Vorbis comments to a finished FLAC, Ogg Vorbis or Ogg Opus file (libsndfile, which
/// writes them, takes only its fixed set of tags). The file is rewritten beside itself and
/// renamed over the original; the audio is copied untouched.
enum VorbisCommentPatch {
    /// FLAC: the comments join the file's `VORBIS_COMMENT` metadata block (made when there is
    /// none), which is written right after `STREAMINFO`.
    static func addToFLAC(_ comments: [String], path: String) throws {
        try rewrite(path: path) { input, output in
            guard try input.read(upToCount: 4) == Data("fLaC".utf8) else {
                throw AudioFileError.malformed(path: path, chunk: "fLaC", offset: 0, reason: "not a FLAC file")
            }
            var blocks: [(type: UInt8, body: Data)] = []
            var offset = 4
            var last = false
            while !last {
                guard let header = try input.read(upToCount: 4), header.count == 4 else {
                    throw AudioFileError.malformed(path: path, chunk: "METADATA_BLOCK", offset: offset, reason: "file ends in the metadata")
                }
                let bytes = [UInt8](header)
                last = bytes[0] & 0x80 != 0
                let length = Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
                let body = try input.read(upToCount: length) ?? Data()
                guard body.count == length else {
                    throw AudioFileError.malformed(path: path, chunk: "METADATA_BLOCK", offset: offset, reason: "block runs past the end of the file")
                }
                blocks.append((bytes[0] & 0x7F, body))
                offset += 4 + length
            }
            guard blocks.first?.type == 0 else {
                throw AudioFileError.malformed(path: path, chunk: "STREAMINFO", offset: 4, reason: "the first metadata block is not STREAMINFO")
            }
            let existing = blocks.firstIndex { $0.type == 4 }
            let block = try VorbisComment(parsing: existing.map { [UInt8](blocks[$0].body) }, path: path, chunk: "VORBIS_COMMENT")
                .adding(comments).bytes(framingBit: false)
            if let existing { blocks.remove(at: existing) }
            blocks.insert((4, Data(block)), at: 1)
            var out = Data("fLaC".utf8)
            for (index, block) in blocks.enumerated() {
                guard block.body.count < 1 << 24 else {
                    throw AudioFileError.invalidArgument(path: path, reason: "metadata block too large")
                }
                let length = block.body.count
                out.append(contentsOf: [(index == blocks.count - 1 ? 0x80 : 0) | block.type,
                                        UInt8(length >> 16), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)])
                out.append(block.body)
            }
            try output.write(contentsOf: out)
            try copyRest(input, output)
        }
    }

    /// Ogg Vorbis or Opus: the comment header (the stream's second packet) gets the comments;
    /// the header pages are laid out again and every later page renumbered (and its checksum
    /// recomputed) when their count changed.
    static func addToOgg(_ comments: [String], path: String) throws {
        try rewrite(path: path) { input, output in
            var reader = OggPageReader(handle: input, path: path)
            guard let first = try reader.next() else {
                throw AudioFileError.malformed(path: path, chunk: "OggS", offset: 0, reason: "no Ogg page")
            }
            let isOpus = first.body.starts(with: Array("OpusHead".utf8))
            let isVorbis = first.body.starts(with: [0x01] + Array("vorbis".utf8))
            guard isOpus || isVorbis, first.isFirstPage else {
                throw AudioFileError.unsupported(path: path, reason: "the Ogg stream is neither Vorbis nor Opus")
            }
            // The header packets after the identification header: Vorbis has the comments and
            // the setup, Opus the tags alone. They end on a page boundary.
            let needed = isVorbis ? 2 : 1
            var packets: [[UInt8]] = []
            var partial: [UInt8] = []
            var headerPages = 0
            while packets.count < needed {
                guard let page = try reader.next(), page.serial == first.serial else {
                    throw AudioFileError.malformed(path: path, chunk: "OggS", offset: reader.offset, reason: "the stream ends in its headers")
                }
                headerPages += 1
                var position = 0
                for lacing in page.segments {
                    partial += page.body[position..<position + Int(lacing)]
                    position += Int(lacing)
                    if lacing < 255 {
                        packets.append(partial)
                        partial = []
                    }
                }
            }
            guard partial.isEmpty, packets.count == needed else {
                throw AudioFileError.unsupported(path: path, reason: "audio shares a page with the headers")
            }
            let magic = isVorbis ? [0x03] + Array("vorbis".utf8) : Array("OpusTags".utf8)
            guard packets[0].starts(with: magic) else {
                throw AudioFileError.malformed(path: path, chunk: "OggS", offset: 0, reason: "the second packet is not the comment header")
            }
            let comment = try VorbisComment(parsing: Array(packets[0].dropFirst(magic.count)), path: path, chunk: "comment header")
                .adding(comments)
            packets[0] = magic + comment.bytes(framingBit: isVorbis)

            try output.write(contentsOf: first.bytes)
            var sequence = first.sequence + 1
            for packet in packets {
                // Each header packet on pages of its own (allowed by both specifications), granule 0.
                for page in OggPage.pages(carrying: packet, serial: first.serial, firstSequence: sequence) {
                    try output.write(contentsOf: page.bytes)
                    sequence += 1
                }
            }
            let shift = Int64(sequence) - Int64(first.sequence + 1 + UInt32(headerPages))
            while var page = try reader.next() {
                if shift != 0 && page.serial == first.serial {
                    page.sequence = UInt32(truncatingIfNeeded: Int64(page.sequence) + shift)
                }
                try output.write(contentsOf: page.bytes)
            }
        }
    }

    /// Writes a new file beside `path` with `body`, then renames it over `path`.
    private static func rewrite(path: String, _ body: (FileHandle, FileHandle) throws -> Void) throws {
        let temporary = path + ".loop-\(getpid())"
        guard let input = FileHandle(forReadingAtPath: path) else {
            throw AudioFileError.cannotOpen(path: path, reason: "cannot open to add loop points")
        }
        defer { try? input.close() }
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
              let output = FileHandle(forWritingAtPath: temporary) else {
            throw AudioFileError.cannotOpen(path: temporary, reason: "cannot create")
        }
        do {
            try body(input, output)
            try output.close()
            guard rename(temporary, path) == 0 else {
                throw AudioFileError.ioFailure(path: path, reason: String(cString: strerror(errno)))
            }
        } catch {
            try? output.close()
            try? FileManager.default.removeItem(atPath: temporary)
            if let error = error as? AudioFileError { throw error }
            throw AudioFileError.ioFailure(path: path, reason: error.localizedDescription)
        }
    }

    private static func copyRest(_ input: FileHandle, _ output: FileHandle) throws {
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
            try output.write(contentsOf: chunk)
        }
    }
}

/// A Vorbis comment block: vendor string and `KEY=value` comments (the body shared by Vorbis,
/// Opus and FLAC; each frames it its own way).
struct VorbisComment {
    var vendor: [UInt8]
    var comments: [[UInt8]]

    /// Parses a block, or makes an empty one from `nil`.
    init(parsing bytes: [UInt8]?, path: String, chunk: String) throws {
        guard let bytes else {
            vendor = Array("Polyphon".utf8)
            comments = []
            return
        }
        var position = 0
        func uint32() throws -> Int {
            guard position + 4 <= bytes.count else {
                throw AudioFileError.malformed(path: path, chunk: chunk, offset: position, reason: "truncated")
            }
            defer { position += 4 }
            return Int(bytes[position]) | Int(bytes[position + 1]) << 8 | Int(bytes[position + 2]) << 16 | Int(bytes[position + 3]) << 24
        }
        func string() throws -> [UInt8] {
            let length = try uint32()
            guard length <= bytes.count - position else {
                throw AudioFileError.malformed(path: path, chunk: chunk, offset: position, reason: "string runs past the block")
            }
            defer { position += length }
            return Array(bytes[position..<position + length])
        }
        vendor = try string()
        let count = try uint32()
        // Each comment takes at least its 4-byte length: a count beyond that is a lie.
        guard count <= (bytes.count - position) / 4 else {
            throw AudioFileError.malformed(path: path, chunk: chunk, offset: position, reason: "comment count past the block")
        }
        comments = try (0..<count).map { _ in try string() }
    }

    /// The block with `new` comments, replacing any with the same keys.
    func adding(_ new: [String]) -> VorbisComment {
        var copy = self
        let keys = Set(new.map { $0.split(separator: "=", maxSplits: 1)[0].uppercased() })
        copy.comments.removeAll { comment in
            let key = String(decoding: comment.prefix { $0 != 0x3D }, as: UTF8.self).uppercased()
            return keys.contains(key)
        }
        copy.comments += new.map { Array($0.utf8) }
        return copy
    }

    func bytes(framingBit: Bool) -> [UInt8] {
        var out = HeaderBytes()
        out.uint32LE(UInt32(vendor.count))
        out.raw(vendor)
        out.uint32LE(UInt32(comments.count))
        for comment in comments {
            out.uint32LE(UInt32(comment.count))
            out.raw(comment)
        }
        if framingBit { out.raw([1]) }
        return out.bytes
    }
}
