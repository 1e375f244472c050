/// Writes FLAC, Ogg Vorbis, Opus and MP3 through libsndfile.
///
/// Blocks are interleaved into a fixed buffer of ``blockFrames`` frames and handed to
/// `sf_writef_float`. For 16-bit FLAC the same TPDF dither as the native writers is added in the
/// float domain (libsndfile itself only rounds), and clipping is switched on so that overs clip
/// instead of wrapping around.
final class SndfileAudioFileWriter: AudioFileWriter {
    let path: String
    let format: AudioFileFormat
    let channelCount: Int
    let sampleRate: Double
    private(set) var framesWritten: Int64 = 0

    private let library: Libsndfile
    private var file: OpaquePointer?
    private let interleaved: UnsafeMutableBufferPointer<Float>
    private var dither: [TriangularDitherGenerator] = []

    /// The only sample rates the Opus encoder takes.
    static let opusSampleRates: Set<Double> = [8_000, 12_000, 16_000, 24_000, 48_000]

    /// Frames converted per `sf_writef_float` call.
    static let blockFrames = 4096

    init(path: String, format: AudioFileFormat, stream: StreamDescription, dither: Dither,
         library: Libsndfile) throws {
        guard let code = SndfileFormat.code(for: format, sampleFormat: stream.sampleFormat) else {
            throw AudioFileError.unsupported(
                path: path, reason: "\(format.rawValue.uppercased()) stores integers only; choose int16 or int24")
        }
        var info = SFInfo(sampleRate: Int32(stream.sampleRate), channels: Int32(stream.channelCount), format: code)
        guard stream.sampleRate == stream.sampleRate.rounded() else {
            throw AudioFileError.invalidArgument(
                path: path, reason: "libsndfile takes whole-number sample rates only, not \(stream.sampleRate) Hz")
        }
        // libsndfile's format check passes Opus at any rate but sf_open then fails with a vague
        // message, so the encoder's fixed rates are checked here.
        guard format != .opus || Self.opusSampleRates.contains(stream.sampleRate) else {
            throw AudioFileError.unsupported(
                path: path, reason: "Opus cannot be written at \(Int(stream.sampleRate)) Hz (Opus takes 8, 12, 16, 24 or 48 kHz)")
        }
        guard library.sfFormatCheck(&info) != 0 else {
            throw AudioFileError.unsupported(path: path, reason: Self.formatRefusal(format, stream: stream, library: library))
        }
        guard let file = library.sfOpen(path, SndfileFormat.modeWrite, &info) else {
            throw AudioFileError.libraryFailure(path: path, reason: library.lastError(nil))
        }
        self.path = path
        self.format = format
        self.library = library
        self.file = file
        channelCount = stream.channelCount
        sampleRate = stream.sampleRate
        interleaved = .allocate(capacity: Self.blockFrames * stream.channelCount)
        if stream.sampleFormat == .int16, format == .flac, case .triangular(let seed) = dither {
            self.dither = (0..<stream.channelCount).map {
                TriangularDitherGenerator(seed: seed &+ UInt64($0) &* 0xD1B5_4A32_D192_ED03)
            }
        }
        if stream.sampleFormat.isInteger {
            _ = library.sfCommand(file, SndfileFormat.commandSetClipping, nil, 1)
        }
    }

    /// Why libsndfile refused a format, in words a user can act on.
    private static func formatRefusal(_ format: AudioFileFormat, stream: StreamDescription, library: Libsndfile) -> String {
        switch format {
        case .mp3:
            "\(library.version) cannot write MP3; MP3 needs libsndfile 1.1 or later built with LAME and mpg123"
        case .opus:
            "\(library.version) cannot write Opus at \(Int(stream.sampleRate)) Hz with \(stream.channelCount) channels (Opus takes 8, 12, 16, 24 or 48 kHz)"
        default:
            "\(library.version) cannot write \(format.rawValue.uppercased()) with \(stream.channelCount) channels at \(Int(stream.sampleRate)) Hz"
        }
    }

    deinit {
        try? close()
        interleaved.deallocate()
    }

    func write(planar channels: [UnsafeBufferPointer<Float>], frameCount: Int) throws {
        try validatePlanar(channels, frameCount: frameCount)
        try writeBlocks(frameCount) { start, count, destination in
            var index = 0
            for frame in start..<(start + count) {
                for channel in channels {
                    destination[index] = channel[frame]
                    index += 1
                }
            }
        }
    }

    func write(interleaved samples: UnsafeBufferPointer<Float>, frameCount: Int) throws {
        try validateInterleaved(samples, frameCount: frameCount)
        let channels = channelCount
        try writeBlocks(frameCount) { start, count, destination in
            for index in 0..<(count * channels) { destination[index] = samples[start * channels + index] }
        }
    }

    private func writeBlocks(
        _ frameCount: Int, fill: (_ start: Int, _ count: Int, UnsafeMutableBufferPointer<Float>) -> Void
    ) throws {
        guard let file else { throw AudioFileError.closed(path: path) }
        var done = 0
        while done < frameCount {
            let count = min(Self.blockFrames, frameCount - done)
            fill(done, count, interleaved)
            if !dither.isEmpty {
                for index in 0..<(count * channelCount) {
                    interleaved[index] += dither[index % channelCount].next() * (1.0 / 32768)
                }
            }
            let written = library.sfWritefFloat(file, interleaved.baseAddress!, Int64(count))
            guard written == Int64(count) else {
                throw AudioFileError.ioFailure(path: path, reason: library.lastError(file))
            }
            done += count
            framesWritten += Int64(count)
        }
    }

    func close() throws {
        guard let file else { return }
        self.file = nil
        let result = library.sfClose(file)
        guard result == 0 else {
            throw AudioFileError.libraryFailure(path: path, reason: "closing failed with error \(result)")
        }
    }
}
