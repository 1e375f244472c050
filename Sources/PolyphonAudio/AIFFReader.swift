/// Parses AIFF (8/16/24/32-bit big-endian integers) and the uncompressed kinds of AIFF-C
/// (`NONE`, `twos`, `sowt` little-endian, `fl32`, `fl64`).
enum AIFFReader {
    static func read(_ reader: BinaryReader) throws -> AudioFile {
        let path = reader.path
        try reader.require(12, at: 0, in: "FORM")
        let form = try reader.fourCC(at: 8, in: "FORM")
        guard form == "AIFF" || form == "AIFC" else {
            throw AudioFileError.malformed(path: path, chunk: "FORM", offset: 8, reason: "form type is '\(form)', not 'AIFF'")
        }
        let chunks = try ChunkWalker.chunks(in: reader, from: 12, dialect: .iff, container: "FORM")
        guard let comm = chunks.first(where: { $0.id == "COMM" }) else {
            throw AudioFileError.malformed(path: path, chunk: "COMM", offset: 12, reason: "no 'COMM' chunk")
        }
        try ChunkWalker.require(comm, atLeast: 18, in: reader)
        let base = comm.bodyOffset
        let channelCount = Int(Int16(bitPattern: try reader.uint16(at: base, bigEndian: true, in: "COMM")))
        let declaredFrames = Int(try reader.uint32(at: base + 2, bigEndian: true, in: "COMM"))
        let bits = Int(Int16(bitPattern: try reader.uint16(at: base + 6, bigEndian: true, in: "COMM")))
        guard let sampleRate = ExtendedFloat80.value(reader.bytes[(base + 8)..<(base + 18)]),
              AudioFile.plausibleSampleRates.contains(sampleRate)
        else {
            throw AudioFileError.malformed(path: path, chunk: "COMM", offset: base + 8, reason: "sample rate is not a plausible number of hertz")
        }
        guard channelCount >= 1 else {
            throw AudioFileError.malformed(path: path, chunk: "COMM", offset: base, reason: "\(channelCount) channels")
        }
        guard (1...64).contains(bits) else {
            throw AudioFileError.malformed(path: path, chunk: "COMM", offset: base + 6, reason: "\(bits) bits per sample")
        }

        var layout = SampleLayout(kind: .signedInteger, bytesPerSample: (bits + 7) / 8, bigEndian: true)
        var encoding = SampleEncoding.signedInteger(bits: bits)
        if form == "AIFC" {
            try ChunkWalker.require(comm, atLeast: 22, in: reader)
            let compression = try reader.fourCC(at: base + 18, in: "COMM")
            switch compression {
            case "NONE", "twos": break
            case "sowt": layout.bigEndian = false
            case "fl32", "FL32":
                layout = SampleLayout(kind: .float, bytesPerSample: 4, bigEndian: true)
                encoding = .float(bits: 32)
            case "fl64", "FL64":
                layout = SampleLayout(kind: .float, bytesPerSample: 8, bigEndian: true)
                encoding = .float(bits: 64)
            default:
                throw AudioFileError.unsupported(path: path, reason: "AIFF-C compression '\(compression)'")
            }
        }
        guard layout.isDecodable else {
            throw AudioFileError.unsupported(path: path, reason: "\(bits)-bit AIFF samples")
        }

        let frameBytes = layout.bytesPerSample * channelCount
        guard let sound = chunks.first(where: { $0.id == "SSND" }) else {
            // A file with no frames may omit the sound chunk.
            guard declaredFrames == 0 else {
                throw AudioFileError.malformed(path: path, chunk: "SSND", offset: 12, reason: "no 'SSND' chunk for \(declaredFrames) frames")
            }
            return AudioFile(
                sampleRate: sampleRate, channels: Array(repeating: [], count: channelCount),
                sourceFormat: .aiff, sourceEncoding: encoding)
        }
        try ChunkWalker.require(sound, atLeast: 8, in: reader)
        let dataOffset = Int(try reader.uint32(at: sound.bodyOffset, bigEndian: true, in: "SSND"))
        guard dataOffset <= sound.availableSize - 8 else {
            throw AudioFileError.malformed(
                path: path, chunk: "SSND", offset: sound.bodyOffset, reason: "data offset \(dataOffset) is past the chunk's end")
        }
        // COMM's frame count rules; a cut-off file yields the whole frames present.
        let presentFrames = (sound.availableSize - 8 - dataOffset) / frameBytes
        let frameCount = min(declaredFrames, presentFrames)
        let channels = SampleDecoder.decode(
            reader.bytes, offset: sound.bodyOffset + 8 + dataOffset, frameCount: frameCount,
            channelCount: channelCount, layout: layout)
        return AudioFile(sampleRate: sampleRate, channels: channels, sourceFormat: .aiff, sourceEncoding: encoding,
                         instrument: instrument(chunks, reader))
    }

    /// `INST` with the positions of `MARK`, when the file has an `INST` chunk.
    private static func instrument(_ chunks: [ChunkHeader], _ reader: BinaryReader) -> AudioFileInstrument? {
        func body(_ chunk: ChunkHeader) -> ArraySlice<UInt8> {
            reader.bytes[chunk.bodyOffset..<(chunk.bodyOffset + chunk.availableSize)]
        }
        guard let inst = chunks.first(where: { $0.id == "INST" }) else { return nil }
        let markers = chunks.first { $0.id == "MARK" }.map { AudioFileInstrument.aiffMarkers(body($0)) } ?? [:]
        return AudioFileInstrument.aiff(instrument: body(inst), markers: markers)
    }
}
