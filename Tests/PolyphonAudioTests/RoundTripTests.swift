import Foundation
import Testing

@testable import PolyphonAudio

/// Samples written by our writers and read by our readers: exact where the format allows,
/// within the promised rounding everywhere else.
@Suite struct RoundTripTests {
    static let formats: [AudioFileFormat] = [.wav, .aiff, .caf]

    func noise(_ channels: Int, _ frames: Int, scale: Float = 0.99) -> [[Float]] {
        var noise = TestNoise(state: 42)
        return (0..<channels).map { _ in noise.samples(frames).map { $0 * scale } }
    }

    @Test(arguments: [AudioFileFormat.wav, .caf])
    func float32IsExact(format: AudioFileFormat) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("f.\(format.fileExtension)")
        var data = noise(3, 5000, scale: 1)
        data[0][10] = 1.75  // floats are not clipped
        data[1][11] = -3
        try writeFile(path, sampleFormat: .float32, channels: data, block: 333)
        let read = try AudioFile(contentsOf: path)
        #expect(read.channels == data)
        #expect(read.sourceEncoding == .float(bits: 32))
        #expect(read.sourceFormat == format)
        #expect(read.sampleRate == 44_100)
    }

    @Test(arguments: formats)
    func int24IsWithinHalfAnLSB(format: AudioFileFormat) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("i.\(format.fileExtension)")
        let data = noise(2, 4000)
        try writeFile(path, sampleFormat: .int24, channels: data)
        let read = try AudioFile(contentsOf: path)
        #expect(read.sourceEncoding == .signedInteger(bits: 24))
        let lsb = 1.0 / 8_388_608
        var worst = 0.0
        for c in 0..<2 {
            for f in 0..<4000 { worst = max(worst, abs(Double(read.channels[c][f]) - Double(data[c][f]))) }
        }
        #expect(worst <= 0.5 * lsb + 1e-12)
        #expect(worst > 0)  // the test data really needed rounding
    }

    @Test(arguments: formats)
    func int16WithoutDitherRoundsExactly(format: AudioFileFormat) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("r.\(format.fileExtension)")
        let data = noise(2, 3000)
        try writeFile(path, sampleFormat: .int16, channels: data, dither: .none)
        let read = try AudioFile(contentsOf: path)
        for c in 0..<2 {
            for f in 0..<3000 {
                let expected = Float((Double(data[c][f]) * 32768).rounded()) / 32768
                if read.channels[c][f] != expected {
                    Issue.record("channel \(c) frame \(f): \(read.channels[c][f]) != \(expected)")
                    return
                }
            }
        }
    }

    @Test(arguments: formats)
    func int16WithDitherStaysWithinOneLSB(format: AudioFileFormat) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("d.\(format.fileExtension)")
        let data = noise(2, 20_000, scale: 0.9)
        try writeFile(path, sampleFormat: .int16, channels: data, dither: .automatic)
        let read = try AudioFile(contentsOf: path)
        var worst = 0.0
        var errorSum = 0.0
        var changed = 0
        for c in 0..<2 {
            for f in 0..<20_000 {
                let error = (Double(read.channels[c][f]) - Double(data[c][f])) * 32768
                worst = max(worst, abs(error))
                errorSum += error
                if Float((Double(data[c][f]) * 32768).rounded()) / 32768 != read.channels[c][f] { changed += 1 }
            }
        }
        // TPDF of ±1 LSB plus rounding of ±0.5 LSB: never more than 1.5 LSB, zero on average.
        #expect(worst <= 1.5)
        #expect(abs(errorSum / 40_000) < 0.02)
        // Dither really changed codes compared to plain rounding (about a quarter of them).
        #expect(changed > 40_000 / 8)
    }

    @Test func ditherIsReproducibleAndSeeded() throws {
        let directory = try TemporaryDirectory()
        let data = noise(2, 2000, scale: 0.01)
        try writeFile(directory.file("a.wav"), sampleFormat: .int16, channels: data, dither: .automatic, block: 100)
        try writeFile(directory.file("b.wav"), sampleFormat: .int16, channels: data, dither: .automatic, block: 777)
        try writeFile(directory.file("c.wav"), sampleFormat: .int16, channels: data, dither: .triangular(seed: 1))
        try writeFile(directory.file("d.wav"), sampleFormat: .int16, channels: data, dither: .none)
        let a = try fileBytes(directory.file("a.wav"))
        #expect(a == (try fileBytes(directory.file("b.wav"))))
        #expect(a != (try fileBytes(directory.file("c.wav"))))
        #expect(a != (try fileBytes(directory.file("d.wav"))))
    }

    @Test(arguments: formats)
    func integersClipToFullScale(format: AudioFileFormat) throws {
        let directory = try TemporaryDirectory()
        for sampleFormat in [SampleFormat.int16, .int24] {
            let path = directory.file("c.\(format.fileExtension)")
            let input: [Float] = [1.0, 1.5, 100, .infinity, -1.0, -1.5, -.infinity, .nan, 0.5]
            try writeFile(path, sampleFormat: sampleFormat, channels: [input], dither: .none)
            let read = try AudioFile(contentsOf: path).channels[0]
            let top = sampleFormat == .int16 ? Float(32767) / 32768 : Float(8_388_607) / 8_388_608
            #expect(read == [top, top, top, top, -1, -1, -1, 0, 0.5])
        }
    }

    @Test func interleavedAndPlanarWriteTheSameBytes() throws {
        let directory = try TemporaryDirectory()
        let data = noise(3, 1001)
        try writeFile(directory.file("p.caf"), sampleFormat: .int16, channels: data, dither: .automatic)
        let writer = try makeAudioFileWriter(
            path: directory.file("i.caf"), sampleFormat: .int16, channelCount: 3, sampleRate: 44_100)
        let interleaved = (0..<1001).flatMap { f in (0..<3).map { data[$0][f] } }
        try writer.write(interleaved: Array(interleaved[0..<300]))
        try writer.write(interleaved: Array(interleaved[300...]))
        #expect(writer.framesWritten == 1001)
        try writer.close()
        #expect(try fileBytes(directory.file("p.caf")) == (try fileBytes(directory.file("i.caf"))))
    }

    /// Blocks larger than the writer's 64 KiB buffer are split correctly.
    @Test func blocksLargerThanTheBufferAreSplit() throws {
        let directory = try TemporaryDirectory()
        let data = noise(2, 50_000, scale: 1)
        try writeFile(directory.file("big.wav"), sampleFormat: .float32, channels: data, block: 50_000)
        #expect(try AudioFile(contentsOf: directory.file("big.wav")).channels == data)
    }

    /// A writer dropped without close() (a render that threw) still finalises its header.
    @Test func droppedWriterFinalisesTheFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("dropped.wav")
        do {
            let writer = try makeAudioFileWriter(path: path, sampleFormat: .int16, channelCount: 1, sampleRate: 8000)
            try writer.write(planar: [[0.5, 0.5, 0.5, 0.5]])
        }
        let read = try AudioFile(contentsOf: path)
        #expect(read.frameCount == 4)
    }

    /// An empty file is valid in every format.
    @Test(arguments: formats)
    func emptyFileReadsBack(format: AudioFileFormat) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("e.\(format.fileExtension)")
        try writeFile(path, sampleFormat: .int16, channels: [[], []])
        let read = try AudioFile(contentsOf: path)
        #expect(read.channelCount == 2)
        #expect(read.frameCount == 0)
    }
}

/// The statistics of the TPDF dither generator.
@Suite struct DitherTests {
    @Test func triangularZeroMeanWithinOneLSB() {
        var generator = TriangularDitherGenerator(seed: Dither.defaultSeed)
        let count = 400_000
        var sum = 0.0, sumSquares = 0.0
        var lowest: Float = 0, highest: Float = 0
        var histogram = [Int](repeating: 0, count: 20)  // 0.1 LSB bins over (−1, 1)
        for _ in 0..<count {
            let value = generator.next()
            sum += Double(value)
            sumSquares += Double(value) * Double(value)
            lowest = min(lowest, value)
            highest = max(highest, value)
            histogram[min(19, Int((value + 1) * 10))] += 1
        }
        let mean = sum / Double(count)
        let variance = sumSquares / Double(count) - mean * mean
        #expect(abs(mean) < 0.005)
        #expect(abs(variance - 1.0 / 6.0) < 0.003)  // the variance of the sum of two U(−½, ½)
        #expect(lowest > -1 && highest < 1)
        #expect(lowest < -0.95 && highest > 0.95)
        // Triangular: bin i of 20 holds (probability) (2i+1)/200 on the rising half.
        for bin in 0..<20 {
            let rising = bin < 10 ? bin : 19 - bin
            let expected = Double(2 * rising + 1) / 200 * Double(count)
            #expect(abs(Double(histogram[bin]) - expected) < 0.05 * expected + 150, "bin \(bin)")
        }
    }

    @Test func differentSeedsGiveDifferentNoise() {
        var a = TriangularDitherGenerator(seed: 1)
        var b = TriangularDitherGenerator(seed: 2)
        var c = TriangularDitherGenerator(seed: 1)
        let sa = (0..<100).map { _ in a.next() }
        #expect(sa != (0..<100).map { _ in b.next() })
        #expect(sa == (0..<100).map { _ in c.next() })
    }

    /// Dither turns the rounding of a very quiet sine into noise that keeps the sine's
    /// average shape; plain rounding turns a ±0.4 LSB sine into digital silence.
    @Test func ditherPreservesSignalBelowOneLSB() throws {
        let directory = try TemporaryDirectory()
        let frames = 44_100
        let quiet = sine(frequency: 441, amplitude: 0.4 / 32768, sampleRate: 44_100, frameCount: frames)
        try writeFile(directory.file("n.wav"), sampleFormat: .int16, channels: [quiet], dither: .none)
        try writeFile(directory.file("d.wav"), sampleFormat: .int16, channels: [quiet], dither: .automatic)
        let plain = try AudioFile(contentsOf: directory.file("n.wav")).channels[0]
        let dithered = try AudioFile(contentsOf: directory.file("d.wav")).channels[0]
        #expect(plain.allSatisfy { $0 == 0 })
        // Correlate with the sine: the dithered file still carries it at the right amplitude.
        var dot = 0.0, norm = 0.0
        for f in 0..<frames {
            dot += Double(dithered[f]) * Double(quiet[f])
            norm += Double(quiet[f]) * Double(quiet[f])
        }
        #expect(abs(dot / norm - 1) < 0.1)
    }
}

/// The size limits of the containers, checked with a layout whose limit is tiny (writing 4 GiB
/// in a test would take too long).
@Suite struct ContainerLimitTests {
    struct TinyLayout: ContainerLayout {
        var inner: WAVLayout
        var samplesAreBigEndian: Bool { inner.samplesAreBigEndian }
        var header: [UInt8] { inner.header }
        var maximumDataByteCount: Int64 { 100 }
        var padsOddDataChunk: Bool { true }
        func sizePatches(dataByteCount: Int64, frameCount: Int64, fileLength: Int64) -> [(offset: Int64, bytes: [UInt8])] {
            inner.sizePatches(dataByteCount: dataByteCount, frameCount: frameCount, fileLength: fileLength)
        }
    }

    @Test func writingPastTheLimitThrowsAndKeepsTheFileValid() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("limit.wav")
        let stream = StreamDescription(sampleFormat: .int16, channelCount: 2, sampleRate: 8000)
        let writer = try NativeAudioFileWriter(
            path: path, format: .wav, layout: TinyLayout(inner: WAVLayout(stream: stream)), stream: stream, dither: .none)
        try writer.write(planar: [[Float]](repeating: [Float](repeating: 0.5, count: 25), count: 2))  // 100 bytes
        #expect(throws: AudioFileError.self) { try writer.write(planar: [[0.5], [0.5]]) }
        #expect(writer.framesWritten == 25)
        try writer.close()
        #expect(try AudioFile(contentsOf: path).frameCount == 25)
    }

    @Test func realLimitsFitTheSizeFields() {
        let stream = StreamDescription(sampleFormat: .int16, channelCount: 2, sampleRate: 44_100)
        let wav = WAVLayout(stream: stream)
        // RIFF size = header − 8 + data + pad must fit in 32 bits.
        #expect(Int64(wav.header.count) - 8 + wav.maximumDataByteCount + 1 == Int64(UInt32.max))
        let aiff = AIFFLayout(stream: stream)
        #expect(Int64(aiff.header.count) - 8 + aiff.maximumDataByteCount + 1 == Int64(Int32.max))
    }
}
