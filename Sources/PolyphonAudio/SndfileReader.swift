/// Decodes any file libsndfile can read, in blocks of ``blockFrames`` frames.
enum SndfileReader {
    static let blockFrames = 4096

    static func read(path: String, library: Libsndfile) throws -> AudioFile {
        var info = SFInfo()
        guard let file = library.sfOpen(path, SndfileFormat.modeRead, &info) else {
            throw AudioFileError.libraryFailure(path: path, reason: library.lastError(nil))
        }
        defer { _ = library.sfClose(file) }
        let channelCount = Int(info.channels)
        guard channelCount >= 1, info.sampleRate > 0 else {
            throw AudioFileError.libraryFailure(
                path: path, reason: "reported \(channelCount) channels at \(info.sampleRate) Hz")
        }
        var channels = [[Float]](repeating: [], count: channelCount)
        // The frame count is a hint only (some codecs estimate it, a damaged header can claim
        // anything), so reserve at most 16 M samples in all; the arrays grow past that if needed.
        let hint = Int(max(0, min(info.frames, Int64((1 << 24) / channelCount))))
        for index in 0..<channelCount { channels[index].reserveCapacity(hint) }
        var block = [Float](repeating: 0, count: blockFrames * channelCount)
        while true {
            let got = block.withUnsafeMutableBufferPointer {
                library.sfReadfFloat(file, $0.baseAddress!, Int64(blockFrames))
            }
            if got < 0 { throw AudioFileError.ioFailure(path: path, reason: library.lastError(file)) }
            if got == 0 { break }
            for frame in 0..<Int(got) {
                for channel in 0..<channelCount {
                    channels[channel].append(block[frame * channelCount + channel])
                }
            }
        }
        let (format, encoding) = SndfileFormat.describe(info.format)
        return AudioFile(
            sampleRate: Double(info.sampleRate), channels: channels, sourceFormat: format, sourceEncoding: encoding)
    }
}
