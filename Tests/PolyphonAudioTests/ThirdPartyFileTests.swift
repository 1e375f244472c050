import Foundation
import Testing

@testable import PolyphonAudio

/// Files written by other software, read by our native readers.
@Suite struct ThirdPartyFileTests {
    struct SoxCase: CustomTestStringConvertible, Sendable {
        var file: String
        var options: [String]
        var encoding: SampleEncoding
        /// sox decodes float CAF through libsndfile's float-to-int path, which rescales by the
        /// file's peak (checked against the raw bytes, which our reader returns exactly); for
        /// that case the reference is libsndfile's own float decoding.
        var referenceIsLibsndfile = false
        var testDescription: String { "\(file) \(options.joined(separator: " "))" }
    }

    static let soxCases: [SoxCase] = [
        SoxCase(file: "s16.wav", options: ["-b", "16"], encoding: .signedInteger(bits: 16)),
        SoxCase(file: "s24.wav", options: ["-b", "24"], encoding: .signedInteger(bits: 24)),  // extensible
        SoxCase(file: "u8.wav", options: ["-b", "8"], encoding: .unsignedInteger(bits: 8)),
        SoxCase(file: "s32.wav", options: ["-b", "32"], encoding: .signedInteger(bits: 32)),
        SoxCase(file: "f32.wav", options: ["-e", "floating-point", "-b", "32"], encoding: .float(bits: 32)),
        SoxCase(file: "f64.wav", options: ["-e", "floating-point", "-b", "64"], encoding: .float(bits: 64)),
        SoxCase(file: "s8.aiff", options: ["-b", "8"], encoding: .signedInteger(bits: 8)),
        SoxCase(file: "s16.aiff", options: ["-b", "16"], encoding: .signedInteger(bits: 16)),
        SoxCase(file: "s24.aiff", options: ["-b", "24"], encoding: .signedInteger(bits: 24)),
        SoxCase(file: "s32.aiff", options: ["-b", "32"], encoding: .signedInteger(bits: 32)),
        SoxCase(file: "s16.aifc", options: ["-b", "16"], encoding: .signedInteger(bits: 16)),
        SoxCase(file: "s16.caf", options: ["-b", "16"], encoding: .signedInteger(bits: 16)),  // big-endian, 'free' chunk
        SoxCase(file: "s24.caf", options: ["-b", "24"], encoding: .signedInteger(bits: 24)),
        SoxCase(file: "f32.caf", options: ["-e", "floating-point", "-b", "32"], encoding: .float(bits: 32),
                referenceIsLibsndfile: true),
    ]

    /// sox writes a three-channel file; our reader must give the samples sox itself decodes to
    /// raw 32-bit floats.
    @Test(.enabled(if: RealFiles.available(RealFiles.sox)), arguments: soxCases)
    func readsWhatSoxWrites(_ c: SoxCase) throws {
        try #require(FileManager.default.fileExists(atPath: RealFiles.sox), "sox is required under CI")
        let directory = try TemporaryDirectory()
        let path = directory.file(c.file)
        _ = try run(RealFiles.sox, ["-D", "-n", "-r", "22050", "-c", "3"] + c.options + [path,
            "synth", "0.05", "sine", "440", "sine", "660", "whitenoise", "vol", "0.5"])
        let expected: [Float]
        if c.referenceIsLibsndfile {
            guard RealFiles.libsndfileAvailable else { return }
            let reference = try AudioFile(contentsOf: path, decoder: .libsndfile(nil))
            expected = (0..<reference.frameCount).flatMap { f in reference.channels.map { $0[f] } }
        } else {
            let raw = try runForData(RealFiles.sox, ["-D", path, "-t", "f32", "-"])
            expected = raw.withUnsafeBytes { bytes in
                (0..<(bytes.count / 4)).map {
                    Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self)))
                }
            }
        }
        let file = try AudioFile(contentsOf: path, decoder: .native)
        #expect(file.sampleRate == 22_050)
        #expect(file.channelCount == 3)
        #expect(file.frameCount == 1103)
        #expect(file.sourceEncoding == c.encoding)
        #expect(expected.count == file.frameCount * 3)
        var worst: Float = 0
        for (index, value) in expected.enumerated() where index < file.frameCount * 3 {
            worst = max(worst, abs(file.channels[index % 3][index / 3] - value))
        }
        #expect(worst <= 1e-6, "largest difference from sox: \(worst)")
    }

    /// A SoundFont is a RIFF file too, but not a WAVE: the reader says so instead of guessing.
    @Test(.enabled(if: RealFiles.available("/usr/share/sounds/sf2/TimGM6mb.sf2")))
    func soundFontIsNotMistakenForWAV() throws {
        let path = "/usr/share/sounds/sf2/TimGM6mb.sf2"
        try #require(FileManager.default.fileExists(atPath: path))
        #expect(throws: AudioFileError.malformed(path: path, chunk: "RIFF", offset: 8, reason: "form type is 'sfbk', not 'WAVE'")) {
            try AudioFile(contentsOf: path)
        }
    }
}
