import Foundation
import Testing

@testable import PolyphonAudio

/// Headers written by Polyphon, read back by independent readers (sox, Python's `wave`) and
/// checked byte by byte against the format specifications.
@Suite struct WriterHeaderTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var format: AudioFileFormat
        var sampleFormat: SampleFormat
        var channels: Int
        var rate: Double
        var testDescription: String { "\(format) \(sampleFormat) \(channels)ch \(Int(rate)) Hz" }
    }

    static let cases: [Case] = [
        Case(format: .wav, sampleFormat: .int16, channels: 2, rate: 44_100),
        Case(format: .wav, sampleFormat: .int16, channels: 1, rate: 8_000),
        Case(format: .wav, sampleFormat: .int24, channels: 2, rate: 48_000),
        Case(format: .wav, sampleFormat: .float32, channels: 2, rate: 96_000),
        Case(format: .wav, sampleFormat: .int16, channels: 6, rate: 48_000),
        Case(format: .wav, sampleFormat: .float32, channels: 3, rate: 192_000),
        Case(format: .aiff, sampleFormat: .int16, channels: 2, rate: 44_100),
        Case(format: .aiff, sampleFormat: .int24, channels: 1, rate: 22_050),
        Case(format: .aiff, sampleFormat: .int16, channels: 4, rate: 192_000),
        Case(format: .caf, sampleFormat: .int16, channels: 1, rate: 32_000),
        Case(format: .caf, sampleFormat: .int24, channels: 2, rate: 44_100),
        Case(format: .caf, sampleFormat: .float32, channels: 2, rate: 48_000),
    ]

    @Test(.enabled(if: RealFiles.available(RealFiles.sox)), arguments: cases)
    func soxReadsTheHeader(_ c: Case) throws {
        try #require(FileManager.default.fileExists(atPath: RealFiles.sox), "sox is required under CI")
        let directory = try TemporaryDirectory()
        let path = directory.file("t.\(c.format.fileExtension)")
        let frames = 12_345  // odd, so mono 24-bit data needs a pad byte
        let channels = (0..<c.channels).map { sine(frequency: 440 * Double($0 + 1), amplitude: 0.5, sampleRate: c.rate, frameCount: frames) }
        try writeFile(path, sampleFormat: c.sampleFormat, channels: channels, sampleRate: c.rate)
        let info = try SoxInfo(path)
        #expect(info.channels == c.channels)
        #expect(info.sampleRate == c.rate)
        #expect(info.bitsPerSample == c.sampleFormat.bitsPerSample)
        #expect(info.sampleCount == frames)
        #expect(info.encoding.contains(c.sampleFormat == .float32 ? "Floating Point" : "Signed Integer"))
    }

    @Test(.enabled(if: RealFiles.available(RealFiles.python)), arguments: [1, 2])
    func pythonWaveReadsPlainPCM(channels: Int) throws {
        try #require(FileManager.default.fileExists(atPath: RealFiles.python), "python3 is required under CI")
        let directory = try TemporaryDirectory()
        let path = directory.file("t.wav")
        let frames = 4410
        var noise = TestNoise(state: 7)
        let data = (0..<channels).map { _ in noise.samples(frames).map { $0 * 0.9 } }
        try writeFile(path, sampleFormat: .int16, channels: data, sampleRate: 22_050)
        // Python's wave module checks the RIFF structure and returns the raw frames, which we
        // compare with our own reader's codes.
        let script = """
            import wave, sys, struct
            w = wave.open(sys.argv[1], 'rb')
            raw = w.readframes(w.getnframes())
            codes = struct.unpack('<%dh' % (len(raw) // 2), raw)
            print(w.getnchannels(), w.getframerate(), w.getsampwidth() * 8, w.getnframes(), sum(codes), codes[0], codes[-1])
            """
        let fields = try run(RealFiles.python, ["-c", script, path]).split(separator: " ").map { Int($0)! }
        #expect(Array(fields[0..<4]) == [channels, 22_050, 16, frames])
        let read = try AudioFile(contentsOf: path)
        let codes = (0..<frames).flatMap { f in (0..<channels).map { Int((read.channels[$0][f] * 32768).rounded()) } }
        #expect(fields[4] == codes.reduce(0, +))
        #expect(fields[5] == codes.first)
        #expect(fields[6] == codes.last)
    }

    /// WAVE_FORMAT_EXTENSIBLE only where required, `fact` for float, IEEE float plain otherwise.
    @Test func wavFormatTagsFollowTheRules() throws {
        let directory = try TemporaryDirectory()
        func header(_ sampleFormat: SampleFormat, _ channels: Int) throws -> (tag: UInt16, fmtSize: UInt32, hasFact: Bool, bytes: [UInt8]) {
            let path = directory.file("h.wav")
            try writeFile(path, sampleFormat: sampleFormat, channels: Array(repeating: [0.25, -0.25, 0.5], count: channels))
            let bytes = try fileBytes(path)
            let fmtSize = UInt32(bytes[16]) | UInt32(bytes[17]) << 8 | UInt32(bytes[18]) << 16 | UInt32(bytes[19]) << 24
            let tag = UInt16(bytes[20]) | UInt16(bytes[21]) << 8
            let hasFact = String(decoding: bytes[(20 + Int(fmtSize))..<(24 + Int(fmtSize))], as: UTF8.self) == "fact"
            return (tag, fmtSize, hasFact, bytes)
        }
        let pcm16 = try header(.int16, 2)
        #expect(pcm16.tag == 1 && pcm16.fmtSize == 16 && !pcm16.hasFact)
        #expect(pcm16.bytes.count == 44 + 3 * 4)
        let float2 = try header(.float32, 2)
        #expect(float2.tag == 3 && float2.fmtSize == 18 && float2.hasFact)
        let int24 = try header(.int24, 2)
        #expect(int24.tag == 0xFFFE && int24.fmtSize == 40 && !int24.hasFact)
        #expect(int24.bytes[44] == 1 && int24.bytes[45] == 0)  // KSDATAFORMAT_SUBTYPE_PCM
        let wide16 = try header(.int16, 3)
        #expect(wide16.tag == 0xFFFE)
        let wideFloat = try header(.float32, 4)
        #expect(wideFloat.tag == 0xFFFE && wideFloat.hasFact)
        #expect(wideFloat.bytes[44] == 3)  // KSDATAFORMAT_SUBTYPE_IEEE_FLOAT
        // fact holds the frame count: fmt (8 + 40) then fact header (8) at 12 + 48.
        let factCount = wideFloat.bytes[68...71].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        #expect(factCount == 3)
    }

    /// Every chunk size agrees with the file length, including the pad byte after odd data.
    @Test func oddSizedDataIsPaddedAndSizesAreConsistent() throws {
        let directory = try TemporaryDirectory()
        for format in [AudioFileFormat.wav, .aiff] {
            let path = directory.file("odd.\(format.fileExtension)")
            try writeFile(path, sampleFormat: .int24, channels: [[0.1, 0.2, 0.3]])  // 9 data bytes
            let bytes = try fileBytes(path)
            #expect(bytes.count % 2 == 0)
            let formSize = format == .wav
                ? Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
                : Int(bytes[4]) << 24 | Int(bytes[5]) << 16 | Int(bytes[6]) << 8 | Int(bytes[7])
            #expect(formSize == bytes.count - 8)
            #expect(bytes.last == 0)
            let read = try AudioFile(contentsOf: path)
            #expect(read.frameCount == 3)
        }
    }

    @Test func aiffSampleRateIsExtended80() throws {
        #expect(ExtendedFloat80.bytes(44_100) == [0x40, 0x0E, 0xAC, 0x44, 0, 0, 0, 0, 0, 0])
        #expect(ExtendedFloat80.bytes(48_000) == [0x40, 0x0E, 0xBB, 0x80, 0, 0, 0, 0, 0, 0])
        for rate in [8_000.0, 11_025, 22_050, 32_000, 44_100, 48_000, 88_200, 96_000, 176_400, 192_000, 44_100.5] {
            #expect(ExtendedFloat80.value(ExtendedFloat80.bytes(rate)[...]) == rate)
        }
    }

    @Test func cafDataSizeIsRealAfterClose() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("s.caf")
        try writeFile(path, sampleFormat: .int16, channels: [[0.5, -0.5, 0.25]])
        let bytes = try fileBytes(path)
        let size = bytes[56...63].reduce(0) { $0 << 8 | Int($1) }
        #expect(size == 4 + 3 * 2)
        #expect(Array(bytes[20...27]) == Array(HeaderBytes.uint64BE(44_100.0.bitPattern)))
        // Little-endian integer flags, 2 bytes per packet, 1 frame per packet, 1 channel, 16 bits.
        #expect(Array(bytes[32...51]) == [0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 16])
    }

    @Test func badArgumentsAreRejectedWithThePath() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("x.wav")
        #expect(throws: AudioFileError.invalidArgument(path: path, reason: "sample rate 4000.0 Hz is outside 8000–192000 Hz")) {
            try makeAudioFileWriter(path: path, channelCount: 2, sampleRate: 4000)
        }
        #expect(throws: AudioFileError.self) { try makeAudioFileWriter(path: path, channelCount: 0, sampleRate: 44_100) }
        #expect(throws: AudioFileError.invalidArgument(path: path, reason: "16000 channels at 192000 Hz exceed WAV's 32-bit byte rate")) {
            try makeAudioFileWriter(path: path, sampleFormat: .float32, channelCount: 16_000, sampleRate: 192_000)
        }
        #expect(throws: AudioFileError.self) {
            try makeAudioFileWriter(path: path, sampleFormat: .float32, channelCount: 20_000, sampleRate: 44_100)
        }
        #expect(throws: AudioFileError.self) { try makeAudioFileWriter(path: directory.file("x.xyz"), channelCount: 2, sampleRate: 44_100) }
        #expect(throws: AudioFileError.self) {
            try makeAudioFileWriter(path: directory.file("f.aiff"), sampleFormat: .float32, channelCount: 2, sampleRate: 44_100)
        }
        do {
            _ = try makeAudioFileWriter(path: directory.file("missing/dir/x.wav"), channelCount: 2, sampleRate: 44_100)
            Issue.record("creating a file in a missing directory succeeded")
        } catch let error as AudioFileError {
            #expect(error.description.hasPrefix(directory.file("missing/dir/x.wav") + ": cannot open"))
        }
        let writer = try makeAudioFileWriter(path: path, channelCount: 2, sampleRate: 44_100)
        #expect(throws: AudioFileError.self) { try writer.write(planar: [[0.1]]) }
        #expect(throws: AudioFileError.self) { try writer.write(planar: [[0.1], [0.1, 0.2]]) }
        #expect(throws: AudioFileError.self) { try writer.write(interleaved: [0.1, 0.2, 0.3]) }
        try writer.close()
        #expect(throws: AudioFileError.closed(path: path)) { try writer.write(planar: [[0.1], [0.1]]) }
        try writer.close()  // a second close is harmless
    }

    @Test func formatFromExtension() {
        #expect(AudioFileFormat(fileExtension: "WAV") == .wav)
        #expect(AudioFileFormat(fileExtension: ".aif") == .aiff)
        #expect(AudioFileFormat(fileExtension: "oga") == .ogg)
        #expect(AudioFileFormat(fileExtension: "mid") == nil)
        #expect(AudioFileFormat(path: "/a.b/song.final.flac") == .flac)
        #expect(AudioFileFormat(path: "/tmp/noextension") == nil)
        #expect(AudioFileFormat(path: "/tmp/.hidden") == nil)
    }
}
