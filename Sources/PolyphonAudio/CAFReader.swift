/// Parses Core Audio Format files of linear PCM: 8/16/24/32-bit integers and 32/64-bit floats
/// in either byte order. A data chunk of size −1 runs to the end of the file.
enum CAFReader {
    static func read(_ reader: BinaryReader) throws -> AudioFile {
        let path = reader.path
        try reader.require(8, at: 0, in: "caff")
        let version = try reader.uint16(at: 4, bigEndian: true, in: "caff")
        guard version == 1 else {
            throw AudioFileError.unsupported(path: path, reason: "CAF version \(version)")
        }
        let chunks = try ChunkWalker.chunks(in: reader, from: 8, dialect: .caf, container: "caff")
        guard let desc = chunks.first(where: { $0.id == "desc" }) else {
            throw AudioFileError.malformed(path: path, chunk: "desc", offset: 8, reason: "no 'desc' chunk")
        }
        try ChunkWalker.require(desc, atLeast: 32, in: reader)
        let base = desc.bodyOffset
        let sampleRate = Double(bitPattern: try reader.uint64(at: base, bigEndian: true, in: "desc"))
        let formatID = try reader.fourCC(at: base + 8, in: "desc")
        let flags = try reader.uint32(at: base + 12, bigEndian: true, in: "desc")
        let bytesPerPacket = Int(try reader.uint32(at: base + 16, bigEndian: true, in: "desc"))
        let framesPerPacket = Int(try reader.uint32(at: base + 20, bigEndian: true, in: "desc"))
        let channelCount = Int(try reader.uint32(at: base + 24, bigEndian: true, in: "desc"))
        let bits = Int(try reader.uint32(at: base + 28, bigEndian: true, in: "desc"))

        guard AudioFile.plausibleSampleRates.contains(sampleRate) else {
            throw AudioFileError.malformed(path: path, chunk: "desc", offset: base, reason: "sample rate \(sampleRate) Hz")
        }
        guard formatID == "lpcm" else {
            throw AudioFileError.unsupported(path: path, reason: "CAF format '\(formatID)' (only linear PCM is read natively)")
        }
        guard (1...65535).contains(channelCount) else {
            throw AudioFileError.malformed(path: path, chunk: "desc", offset: base + 24, reason: "\(channelCount) channels")
        }
        guard framesPerPacket == 1, bytesPerPacket > 0, bytesPerPacket % channelCount == 0,
              bits == bytesPerPacket / channelCount * 8
        else {
            throw AudioFileError.malformed(
                path: path, chunk: "desc", offset: base + 16,
                reason: "\(bytesPerPacket) bytes and \(framesPerPacket) frames per packet do not fit \(channelCount) channels of \(bits) bits")
        }
        let isFloat = flags & CAFLayout.formatFlagIsFloat != 0
        let layout = SampleLayout(
            kind: isFloat ? .float : .signedInteger, bytesPerSample: bits / 8,
            bigEndian: flags & CAFLayout.formatFlagIsLittleEndian == 0)
        guard layout.isDecodable else {
            throw AudioFileError.unsupported(path: path, reason: "\(bits)-bit \(isFloat ? "float" : "integer") CAF samples")
        }
        let encoding: SampleEncoding = isFloat ? .float(bits: bits) : .signedInteger(bits: bits)

        guard let data = chunks.first(where: { $0.id == "data" }) else {
            throw AudioFileError.malformed(path: path, chunk: "data", offset: 8, reason: "no 'data' chunk")
        }
        try ChunkWalker.require(data, atLeast: 4, in: reader)  // the edit count
        let frameCount = (data.availableSize - 4) / bytesPerPacket
        let channels = SampleDecoder.decode(
            reader.bytes, offset: data.bodyOffset + 4, frameCount: frameCount, channelCount: channelCount, layout: layout)
        return AudioFile(sampleRate: sampleRate, channels: channels, sourceFormat: .caf, sourceEncoding: encoding)
    }
}
