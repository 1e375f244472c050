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
            sampleRate: Double(info.sampleRate), channels: channels, sourceFormat: format, sourceEncoding: encoding,
            instrument: instrument(of: file, library: library))
    }

    /// `SFC_GET_INSTRUMENT`: libsndfile's `SF_INSTRUMENT` is `int gain`, six `char`s (base note,
    /// detune, velocity and key ranges), `int loop_count`, then 16 loops of `int mode` and
    /// `uint32` start, end (one past the last frame) and count — 272 bytes.
    static func instrument(of file: OpaquePointer, library: Libsndfile) -> AudioFileInstrument? {
        var raw = [UInt8](repeating: 0, count: 272)
        let found = raw.withUnsafeMutableBytes {
            library.sfCommand(file, SndfileFormat.commandGetInstrument, $0.baseAddress, Int32($0.count))
        }
        guard found == 1 else { return nil }
        func i32(_ offset: Int) -> Int32 {
            raw.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Int32.self) }
        }
        var loops: [AudioFileLoop] = []
        for index in 0..<Int(min(max(i32(12), 0), Int32(AudioFileInstrument.maximumLoops))) {
            let base = 16 + index * 16
            let mode: AudioFileLoop.Mode
            switch i32(base) {
            case 801: mode = .forward      // SF_LOOP_FORWARD
            case 803: mode = .alternating  // SF_LOOP_ALTERNATING
            case 802: mode = .backward     // SF_LOOP_BACKWARD
            default: continue
            }
            loops.append(AudioFileLoop(start: Int(UInt32(bitPattern: i32(base + 4))), end: Int(UInt32(bitPattern: i32(base + 8))),
                                       mode: mode))
        }
        let baseNote = Int8(bitPattern: raw[4])
        return AudioFileInstrument(rootKey: baseNote >= 0 ? UInt8(baseNote) : nil, fineTune: Double(Int8(bitPattern: raw[5])),
                                   loops: loops)
    }
}
