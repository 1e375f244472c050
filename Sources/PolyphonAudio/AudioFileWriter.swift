/// A file being written block by block, whatever its format.
///
/// Create one with ``makeAudioFileWriter(path:format:sampleFormat:channelCount:sampleRate:dither:library:)``,
/// call a `write` method for each rendered block, and ``close()`` at the end; until then the
/// header's sizes are provisional. Writers keep a fixed-size buffer, so memory does not grow with
/// the length of the song. A writer is used from one thread at a time.
public protocol AudioFileWriter: AnyObject {
    /// The path of the file being written.
    var path: String { get }
    /// The container or codec.
    var format: AudioFileFormat { get }
    /// The number of interleaved channels in the file.
    var channelCount: Int { get }
    /// Frames per second.
    var sampleRate: Double { get }
    /// The number of frames accepted so far.
    var framesWritten: Int64 { get }

    /// Appends `frameCount` frames given as one buffer per channel (``channelCount`` buffers,
    /// each holding at least `frameCount` samples in −1…1).
    func write(planar channels: [UnsafeBufferPointer<Float>], frameCount: Int) throws

    /// Appends `frameCount` frames given interleaved (`frameCount × channelCount` samples).
    func write(interleaved samples: UnsafeBufferPointer<Float>, frameCount: Int) throws

    /// Writes what is buffered, completes the header and closes the file. Calling it again does
    /// nothing; writing afterwards throws ``AudioFileError/closed(path:)``.
    func close() throws
}

extension AudioFileWriter {
    /// Appends frames from one array per channel, all of the same length.
    public func write(planar channels: [[Float]]) throws {
        let frameCount = channels.first?.count ?? 0
        guard channels.allSatisfy({ $0.count == frameCount }) else {
            throw AudioFileError.invalidArgument(path: path, reason: "channel arrays differ in length")
        }
        try withBufferPointers(channels) { try write(planar: $0, frameCount: frameCount) }
    }

    /// Appends frames from one interleaved array whose length is a multiple of the channel count.
    public func write(interleaved samples: [Float]) throws {
        guard samples.count % channelCount == 0 else {
            throw AudioFileError.invalidArgument(
                path: path, reason: "\(samples.count) samples is not a whole number of \(channelCount)-channel frames")
        }
        try samples.withUnsafeBufferPointer {
            try write(interleaved: $0, frameCount: samples.count / channelCount)
        }
    }

    /// Checks the arguments shared by every `write(planar:)`.
    func validatePlanar(_ channels: [UnsafeBufferPointer<Float>], frameCount: Int) throws {
        guard channels.count == channelCount else {
            throw AudioFileError.invalidArgument(
                path: path, reason: "\(channels.count) channel buffers given for a \(channelCount)-channel file")
        }
        guard frameCount >= 0, channels.allSatisfy({ $0.count >= frameCount }) else {
            throw AudioFileError.invalidArgument(
                path: path, reason: "a channel buffer holds fewer than \(frameCount) frames")
        }
    }

    /// Checks the arguments shared by every `write(interleaved:)`.
    func validateInterleaved(_ samples: UnsafeBufferPointer<Float>, frameCount: Int) throws {
        guard frameCount >= 0, samples.count >= frameCount * channelCount else {
            throw AudioFileError.invalidArgument(
                path: path, reason: "the buffer holds fewer than \(frameCount) interleaved frames")
        }
    }
}

/// Calls `body` with a buffer pointer into each array (nested, so they all stay valid).
private func withBufferPointers<R>(
    _ arrays: [[Float]], _ body: ([UnsafeBufferPointer<Float>]) throws -> R
) rethrows -> R {
    func recurse(_ index: Int, _ pointers: inout [UnsafeBufferPointer<Float>]) throws -> R {
        if index == arrays.count { return try body(pointers) }
        return try arrays[index].withUnsafeBufferPointer { buffer in
            pointers.append(buffer)
            return try recurse(index + 1, &pointers)
        }
    }
    var pointers: [UnsafeBufferPointer<Float>] = []
    pointers.reserveCapacity(arrays.count)
    return try recurse(0, &pointers)
}

/// Creates a file at `path` and returns a writer for it.
///
/// - Parameters:
///   - path: Where to write; an existing file is replaced.
///   - format: The container or codec; `nil` chooses it from the path's extension.
///   - sampleFormat: How samples are stored. WAV and CAF take all three; AIFF and FLAC take the
///     integer formats; Ogg Vorbis, Opus and MP3 are lossy and ignore it.
///   - channelCount: One or more channels.
///   - sampleRate: 8 000 to 192 000 frames per second (whole numbers for WAV; libsndfile's Opus
///     encoder accepts only 8, 12, 16, 24 and 48 kHz).
///   - dither: The dither for 16-bit integers; TPDF with a fixed seed by default.
///   - library: The libsndfile to use for the non-native formats; `nil` loads the system's
///     (see ``Libsndfile/load(path:)``).
/// - Throws: ``AudioFileError`` naming `path` and the reason.
public func makeAudioFileWriter(
    path: String,
    format: AudioFileFormat? = nil,
    sampleFormat: SampleFormat = .int16,
    channelCount: Int,
    sampleRate: Double,
    dither: Dither = .automatic,
    library: Libsndfile? = nil
) throws -> any AudioFileWriter {
    guard let format = format ?? AudioFileFormat(path: path) else {
        throw AudioFileError.invalidArgument(
            path: path, reason: "cannot tell the audio format from the file name; use .wav, .aiff, .caf, .flac, .ogg, .opus or .mp3")
    }
    guard channelCount >= 1, channelCount * sampleFormat.bytesPerSample <= Int(UInt16.max) else {
        throw AudioFileError.invalidArgument(path: path, reason: "channel count \(channelCount) is out of range")
    }
    guard sampleRate.isFinite, (8_000...192_000).contains(sampleRate) else {
        throw AudioFileError.invalidArgument(
            path: path, reason: "sample rate \(sampleRate) Hz is outside 8000–192000 Hz")
    }
    let stream = StreamDescription(sampleFormat: sampleFormat, channelCount: channelCount, sampleRate: sampleRate)
    switch format {
    case .wav:
        guard sampleRate == sampleRate.rounded() else {
            throw AudioFileError.invalidArgument(
                path: path, reason: "WAV stores whole-number sample rates only, not \(sampleRate) Hz")
        }
        // The byte rate field is 32 bits: enough for 1 000+ channels even at 192 kHz float.
        guard Int64(sampleRate) * Int64(stream.bytesPerFrame) <= Int64(UInt32.max) else {
            throw AudioFileError.invalidArgument(
                path: path, reason: "\(channelCount) channels at \(Int(sampleRate)) Hz exceed WAV's 32-bit byte rate")
        }
        return try NativeAudioFileWriter(
            path: path, format: format, layout: WAVLayout(stream: stream), stream: stream, dither: dither)
    case .aiff:
        guard sampleFormat.isInteger else {
            throw AudioFileError.unsupported(
                path: path, reason: "AIFF stores integers only; write float samples to WAV or CAF")
        }
        return try NativeAudioFileWriter(
            path: path, format: format, layout: AIFFLayout(stream: stream), stream: stream, dither: dither)
    case .caf:
        return try NativeAudioFileWriter(
            path: path, format: format, layout: CAFLayout(stream: stream), stream: stream, dither: dither)
    case .flac, .ogg, .opus, .mp3:
        let library = try library ?? Libsndfile.load(forFile: path)
        return try SndfileAudioFileWriter(
            path: path, format: format, stream: stream, dither: dither, library: library)
    }
}
