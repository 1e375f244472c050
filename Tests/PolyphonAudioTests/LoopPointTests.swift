import Foundation
import Testing

@testable import PolyphonAudio

/// Loop points written into WAV, AIFF, FLAC, Ogg Vorbis and Opus files, read back by readers
/// that share no code with the writers: a Python standard-library parser of the chunks and
/// pages (its own Ogg checksum), `metaflac`, `vorbiscomment` and `sox`.
@Suite struct LoopPointTests {
    static let loop = AudioLoopPoints(start: 1_000, end: 30_000)

    /// Writes one second of a stereo sine (44 100 frames; Opus at 48 kHz) and adds the loop points.
    static func file(_ format: AudioFileFormat, in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("loop.\(format.fileExtension)")
        let rate = format == .opus ? 48_000.0 : 44_100
        let writer = try makeAudioFileWriter(path: path, format: format, sampleFormat: .int16, channelCount: 2, sampleRate: rate)
        let tone = sine(frequency: 440, amplitude: 0.5, sampleRate: rate, frameCount: 44_100)
        try tone.withUnsafeBufferPointer { try writer.write(planar: [$0, $0], frameCount: 44_100) }
        try writer.close()
        try loop.write(intoFileAt: path, format: format)
        return path
    }

    static func python(_ path: String, _ kind: String) throws -> [String] {
        let result = try LoopPointReader.read(path, kind)
        #expect(result.status == 0, "python: \(result.stderr)")
        return result.lines
    }

    @Test(.enabled(if: RealFiles.toolAvailable("python3"))) func wavCarriesASamplerLoopAndCuePoints() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file(.wav, in: directory)
        let lines = try Self.python(path, "wav")
        // The smpl chunk counts the loop's last frame, inclusive.
        #expect(lines.contains("smpl=0,1000,29999"))
        #expect(lines.contains("cue=1000"))
        #expect(lines.contains("cue=30000"))
        #expect(lines.contains("frames=44100"))
        #expect(try AudioFile(contentsOf: path).frameCount == 44_100)
        if RealFiles.toolAvailable("sox") { #expect(try SoxInfo(path).sampleCount == 44_100) }
    }

    @Test(.enabled(if: RealFiles.toolAvailable("python3"))) func aiffCarriesMarkersAndASustainLoop() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file(.aiff, in: directory)
        let lines = try Self.python(path, "aiff")
        #expect(lines.contains("mark1=1000"))
        #expect(lines.contains("mark2=30000"))
        #expect(lines.contains("sustain=1,1,2"))
        #expect(try AudioFile(contentsOf: path).frameCount == 44_100)
        if RealFiles.toolAvailable("sox") { #expect(try SoxInfo(path).sampleCount == 44_100) }
    }

    @Test(.enabled(if: RealFiles.libsndfileAvailable && RealFiles.toolAvailable("metaflac")))
    func flacCarriesLoopComments() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file(.flac, in: directory)
        let tags = try run(RealFiles.tool("metaflac") ?? "metaflac", ["--export-tags-to=-", path])
        #expect(tags.contains("LOOPSTART=1000"))
        #expect(tags.contains("LOOPLENGTH=29000"))
        // The audio is untouched: flac's own test decodes it, MD5 checked.
        if let flac = RealFiles.tool("flac") {
            #expect(try runProcess(flac, ["-t", "-s", path]).status == 0)
        }
        #expect(try AudioFile(contentsOf: path).frameCount == 44_100)
        // Written twice: the comments are replaced, not repeated.
        try Self.loop.write(intoFileAt: path, format: .flac)
        let again = try run(RealFiles.tool("metaflac") ?? "metaflac", ["--export-tags-to=-", path])
        #expect(again.components(separatedBy: "LOOPSTART=").count == 2)
    }

    @Test(.enabled(if: RealFiles.libsndfileAvailable && RealFiles.toolAvailable("vorbiscomment")))
    func oggVorbisCarriesLoopComments() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file(.ogg, in: directory)
        let tags = try run(RealFiles.tool("vorbiscomment") ?? "vorbiscomment", ["-l", path])
        #expect(tags.contains("LOOPSTART=1000"))
        #expect(tags.contains("LOOPLENGTH=29000"))
        let lines = try Self.python(path, "ogg")
        #expect(lines.contains("LOOPSTART=1000"))
        #expect(try AudioFile(contentsOf: path).frameCount == 44_100)
        if RealFiles.toolAvailable("sox") { #expect(try SoxInfo(path).sampleCount == 44_100) }
    }

    @Test(.enabled(if: RealFiles.libsndfileAvailable && RealFiles.toolAvailable("python3")))
    func opusCarriesLoopComments() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file(.opus, in: directory)
        let lines = try Self.python(path, "ogg")
        #expect(lines.contains("LOOPSTART=1000"))
        #expect(lines.contains("LOOPLENGTH=29000"))
        #expect(abs(try AudioFile(contentsOf: path).frameCount - 44_100) < 1_000)
    }

    @Test func aFileOfAnotherFormatIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file(.wav, in: directory)
        #expect(throws: AudioFileError.self) { try Self.loop.write(intoFileAt: path, format: .flac) }
        #expect(throws: AudioFileError.self) { try Self.loop.write(intoFileAt: path, format: .ogg) }
        #expect(throws: AudioFileError.self) { try Self.loop.write(intoFileAt: path, format: .aiff) }
    }
}
