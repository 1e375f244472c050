/// Parses RIFF WAVE files: `WAVE_FORMAT_PCM` (8-bit unsigned, 16/24/32-bit signed),
/// `WAVE_FORMAT_IEEE_FLOAT` (32/64-bit) and `WAVE_FORMAT_EXTENSIBLE` with either subformat.
enum WAVReader {
    static func read(_ reader: BinaryReader) throws -> AudioFile {
        let path = reader.path
        try reader.require(12, at: 0, in: "RIFF")
        let magic = try reader.fourCC(at: 0, in: "RIFF")
        guard magic == "RIFF" else {
            throw AudioFileError.unsupported(path: path, reason: "\(magic) files (only little-endian RIFF WAVE is read)")
        }
        let form = try reader.fourCC(at: 8, in: "RIFF")
        guard form == "WAVE" else {
            throw AudioFileError.malformed(path: path, chunk: "RIFF", offset: 8, reason: "form type is '\(form)', not 'WAVE'")
        }
        let chunks = try ChunkWalker.chunks(in: reader, from: 12, dialect: .riff, container: "RIFF")
        guard let fmt = chunks.first(where: { $0.id == "fmt " }) else {
            throw AudioFileError.malformed(path: path, chunk: "fmt ", offset: 12, reason: "no 'fmt ' chunk")
        }
        guard let data = chunks.first(where: { $0.id == "data" }) else {
            throw AudioFileError.malformed(path: path, chunk: "data", offset: 12, reason: "no 'data' chunk")
        }
        try ChunkWalker.require(fmt, atLeast: 16, in: reader)
        let base = fmt.bodyOffset
        var tag = try reader.uint16(at: base, bigEndian: false, in: "fmt ")
        let channelCount = Int(try reader.uint16(at: base + 2, bigEndian: false, in: "fmt "))
        let sampleRate = Double(try reader.uint32(at: base + 4, bigEndian: false, in: "fmt "))
        let blockAlign = Int(try reader.uint16(at: base + 12, bigEndian: false, in: "fmt "))
        let bits = Int(try reader.uint16(at: base + 14, bigEndian: false, in: "fmt "))
        if tag == WAVLayout.formatExtensible {
            try ChunkWalker.require(fmt, atLeast: 40, in: reader)
            // The subformat GUID starts with the real format tag.
            tag = try reader.uint16(at: base + 24, bigEndian: false, in: "fmt ")
            let tail = Array(reader.bytes[(base + 26)..<(base + 40)])
            guard tail == WAVLayout.subformatGUIDTail else {
                throw AudioFileError.unsupported(path: path, reason: "WAVE_FORMAT_EXTENSIBLE with a non-standard subformat GUID")
            }
        }
        guard channelCount >= 1 else {
            throw AudioFileError.malformed(path: path, chunk: "fmt ", offset: base + 2, reason: "zero channels")
        }
        guard AudioFile.plausibleSampleRates.contains(sampleRate) else {
            throw AudioFileError.malformed(path: path, chunk: "fmt ", offset: base + 4, reason: "sample rate \(sampleRate) Hz")
        }
        guard blockAlign > 0, blockAlign % channelCount == 0 else {
            throw AudioFileError.malformed(
                path: path, chunk: "fmt ", offset: base + 12,
                reason: "block align \(blockAlign) is not a whole number of bytes per channel for \(channelCount) channels")
        }
        let width = blockAlign / channelCount
        guard bits >= 1, bits <= width * 8 else {
            throw AudioFileError.malformed(
                path: path, chunk: "fmt ", offset: base + 14, reason: "\(bits) bits do not fit \(width)-byte samples")
        }
        let layout: SampleLayout
        let encoding: SampleEncoding
        switch tag {
        case WAVLayout.formatPCM:
            // 8-bit WAV is offset binary; wider samples are two's complement.
            layout = SampleLayout(kind: width == 1 ? .unsignedInteger : .signedInteger, bytesPerSample: width, bigEndian: false)
            encoding = width == 1 ? .unsignedInteger(bits: bits) : .signedInteger(bits: bits)
        case WAVLayout.formatIEEEFloat:
            layout = SampleLayout(kind: .float, bytesPerSample: width, bigEndian: false)
            encoding = .float(bits: width * 8)
        default:
            throw AudioFileError.unsupported(path: path, reason: "WAV format tag 0x\(String(tag, radix: 16)) (only PCM and IEEE float are read)")
        }
        guard layout.isDecodable else {
            throw AudioFileError.unsupported(path: path, reason: "\(width)-byte \(encoding) samples")
        }
        let frameCount = data.availableSize / blockAlign
        let channels = SampleDecoder.decode(
            reader.bytes, offset: data.bodyOffset, frameCount: frameCount, channelCount: channelCount, layout: layout)
        let instrument = chunks.first { $0.id == "smpl" }.flatMap {
            AudioFileInstrument.samplerChunk(reader.bytes[$0.bodyOffset..<($0.bodyOffset + $0.availableSize)])
        }
        return AudioFile(sampleRate: sampleRate, channels: channels, sourceFormat: .wav, sourceEncoding: encoding,
                         instrument: instrument)
    }
}
