/// Writes WAV, AIFF and CAF files itself: a header from a ``ContainerLayout``, then samples
/// encoded straight into a fixed buffer that is flushed to the file, then the header's sizes
/// patched at close.
final class NativeAudioFileWriter: AudioFileWriter {
    let path: String
    let format: AudioFileFormat
    let channelCount: Int
    let sampleRate: Double
    private(set) var framesWritten: Int64 = 0

    private let layout: any ContainerLayout
    private let output: FileOutput
    private var encoder: SampleEncoder
    private let bytesPerFrame: Int
    private var dataByteCount: Int64 = 0
    private var isClosed = false

    /// The write buffer: 64 KiB, or 16 frames for very wide files.
    private static let bufferBytes = 64 * 1024

    init(path: String, format: AudioFileFormat, layout: any ContainerLayout,
         stream: StreamDescription, dither: Dither) throws {
        self.path = path
        self.format = format
        self.layout = layout
        channelCount = stream.channelCount
        sampleRate = stream.sampleRate
        bytesPerFrame = stream.bytesPerFrame
        encoder = SampleEncoder(
            sampleFormat: stream.sampleFormat, bigEndian: layout.samplesAreBigEndian,
            channelCount: stream.channelCount, dither: dither)
        output = try FileOutput(path: path, bufferCapacity: max(Self.bufferBytes, bytesPerFrame * 16))
        try output.append(layout.header)
    }

    deinit {
        // A writer dropped without close() still leaves a file with correct sizes.
        try? close()
    }

    func write(planar channels: [UnsafeBufferPointer<Float>], frameCount: Int) throws {
        try validatePlanar(channels, frameCount: frameCount)
        try writeFrames(frameCount) { encoder, start, count, destination in
            encoder.encode(planar: channels, start: start, frameCount: count, to: destination)
        }
    }

    func write(interleaved samples: UnsafeBufferPointer<Float>, frameCount: Int) throws {
        try validateInterleaved(samples, frameCount: frameCount)
        let channels = channelCount
        try writeFrames(frameCount) { encoder, start, count, destination in
            encoder.encode(
                interleaved: samples, channelCount: channels, start: start, frameCount: count, to: destination)
        }
    }

    /// Encodes `frameCount` frames in pieces that fit the output buffer.
    private func writeFrames(
        _ frameCount: Int,
        encode: (inout SampleEncoder, _ start: Int, _ count: Int, UnsafeMutableRawPointer) -> Void
    ) throws {
        guard !isClosed else { throw AudioFileError.closed(path: path) }
        let newBytes = Int64(frameCount) * Int64(bytesPerFrame)
        guard dataByteCount + newBytes <= layout.maximumDataByteCount else {
            throw AudioFileError.invalidArgument(
                path: path,
                reason: "\(format.rawValue.uppercased()) cannot hold more than \(layout.maximumDataByteCount) bytes of samples; write CAF for longer files")
        }
        var done = 0
        while done < frameCount {
            try output.appendInPlace(minimum: bytesPerFrame) { destination, capacity in
                let count = min(capacity / bytesPerFrame, frameCount - done)
                encode(&encoder, done, count, destination)
                done += count
                return count * bytesPerFrame
            }
        }
        dataByteCount += newBytes
        framesWritten += Int64(frameCount)
    }

    func close() throws {
        guard !isClosed else { return }
        isClosed = true
        do {
            if layout.padsOddDataChunk && dataByteCount % 2 == 1 { try output.append([0]) }
            for patch in layout.sizePatches(
                dataByteCount: dataByteCount, frameCount: framesWritten, fileLength: output.length)
            {
                try output.patch(patch.bytes, at: patch.offset)
            }
            try output.close()
        } catch {
            try? output.close()
            throw error
        }
    }
}
