import Foundation

/// One page of an Ogg stream (RFC 3533): header fields, lacing values and body.
struct OggPage {
    var headerType: UInt8
    var granulePosition: UInt64
    var serial: UInt32
    var sequence: UInt32
    var segments: [UInt8]
    var body: [UInt8]

    var isFirstPage: Bool { headerType & 0x02 != 0 }

    /// The page as written: header, lacing values and body, with its checksum.
    var bytes: [UInt8] {
        var header = HeaderBytes()
        header.fourCC("OggS")
        header.raw([0, headerType])
        header.raw(withUnsafeBytes(of: granulePosition.littleEndian) { Array($0) })
        header.uint32LE(serial)
        header.uint32LE(sequence)
        header.uint32LE(0)
        header.raw([UInt8(segments.count)])
        header.raw(segments)
        var page = header.bytes + body
        let crc = OggPage.checksum(page)
        page[22] = UInt8(crc & 0xFF)
        page[23] = UInt8(crc >> 8 & 0xFF)
        page[24] = UInt8(crc >> 16 & 0xFF)
        page[25] = UInt8(crc >> 24)
        return page
    }

    /// Pages carrying one whole packet from a page boundary: at most 255 lacing values a page,
    /// continuation flags on the pages after the first, granule position 0 (header packets).
    static func pages(carrying packet: [UInt8], serial: UInt32, firstSequence: UInt32) -> [OggPage] {
        var lacing = [UInt8](repeating: 255, count: packet.count / 255)
        lacing.append(UInt8(packet.count % 255))
        var pages: [OggPage] = []
        var segmentIndex = 0, byteIndex = 0
        while segmentIndex < lacing.count {
            let segments = Array(lacing[segmentIndex..<min(lacing.count, segmentIndex + 255)])
            let length = segments.reduce(0) { $0 + Int($1) }
            pages.append(OggPage(headerType: pages.isEmpty ? 0 : 0x01, granulePosition: 0, serial: serial,
                                 sequence: firstSequence + UInt32(pages.count), segments: segments,
                                 body: Array(packet[byteIndex..<byteIndex + length])))
            segmentIndex += segments.count
            byteIndex += length
        }
        return pages
    }

    /// The Ogg CRC-32: polynomial 0x04C11DB7, no reflection, initial value and final XOR 0,
    /// over the whole page with the checksum field zero.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0
        for byte in bytes {
            crc = (crc << 8) ^ table[Int((crc >> 24) ^ UInt32(byte))]
        }
        return crc
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var r = UInt32(index) << 24
        for _ in 0..<8 { r = r & 0x8000_0000 != 0 ? (r << 1) ^ 0x04C1_1DB7 : r << 1 }
        return r
    }
}

/// Reads an Ogg file page by page.
struct OggPageReader {
    let handle: FileHandle
    let path: String
    /// Bytes read so far.
    private(set) var offset = 0

    init(handle: FileHandle, path: String) {
        self.handle = handle
        self.path = path
    }

    /// The next page, or `nil` at the end of the file.
    mutating func next() throws -> OggPage? {
        guard let header = try handle.read(upToCount: 27), !header.isEmpty else { return nil }
        let h = [UInt8](header)
        guard h.count == 27, h[0..<4] == [0x4F, 0x67, 0x67, 0x53] else {
            throw AudioFileError.malformed(path: path, chunk: "OggS", offset: offset, reason: "not an Ogg page")
        }
        func uint32(_ at: Int) -> UInt32 { UInt32(h[at]) | UInt32(h[at + 1]) << 8 | UInt32(h[at + 2]) << 16 | UInt32(h[at + 3]) << 24 }
        let granule = UInt64(uint32(6)) | UInt64(uint32(10)) << 32
        let segments = [UInt8](try handle.read(upToCount: Int(h[26])) ?? Data())
        let length = segments.reduce(0) { $0 + Int($1) }
        let body = [UInt8](try handle.read(upToCount: length) ?? Data())
        guard segments.count == Int(h[26]), body.count == length else {
            throw AudioFileError.malformed(path: path, chunk: "OggS", offset: offset, reason: "page runs past the end of the file")
        }
        offset += 27 + segments.count + length
        return OggPage(headerType: h[5], granulePosition: granule, serial: uint32(14), sequence: uint32(18),
                       segments: segments, body: body)
    }
}
