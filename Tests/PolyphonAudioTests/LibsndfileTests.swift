import Foundation
import Testing

@testable import PolyphonAudio

/// libsndfile loaded at run time: the struct layout, the formats it adds, and the message when
/// it is missing. Tests needing the library skip locally without it and fail under CI.
@Suite struct LibsndfileTests {
    /// SF_INFO is `{ sf_count_t frames; int samplerate, channels, format, sections, seekable; }`
    /// with a 64-bit sf_count_t: 32 bytes including tail padding, libsndfile clears all of it.
    @Test func sfInfoMatchesTheCLayout() {
        #expect(MemoryLayout<SFInfo>.size == 32)
        #expect(MemoryLayout<SFInfo>.alignment == 8)
        #expect(MemoryLayout<SFInfo>.offset(of: \.frames) == 0)
        #expect(MemoryLayout<SFInfo>.offset(of: \.sampleRate) == 8)
        #expect(MemoryLayout<SFInfo>.offset(of: \.channels) == 12)
        #expect(MemoryLayout<SFInfo>.offset(of: \.format) == 16)
        #expect(MemoryLayout<SFInfo>.offset(of: \.sections) == 20)
        #expect(MemoryLayout<SFInfo>.offset(of: \.seekable) == 24)
    }

    @Test func missingLibraryGivesOneLineInstallAdvice() throws {
        do {
            _ = try Libsndfile.load(path: "/nonexistent/libsndfile.so.1")
            Issue.record("loading a missing library succeeded")
        } catch let error as AudioFileError {
            guard case .libraryUnavailable(let path, let reason) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(path == "/nonexistent/libsndfile.so.1")
            #expect(reason.contains("Debian/Ubuntu: apt install libsndfile1"))
            #expect(reason.contains("macOS: brew install libsndfile"))
            #expect(!error.description.contains("\n"))
        }
        // A library that exists but is not libsndfile is refused by its missing symbols.
        #expect(throws: AudioFileError.self) { try Libsndfile.load(path: "libm.so.6") }
    }

    /// The environment variable chooses the library unless a path is given; an empty one is
    /// ignored. (Tested on the pure choice, since setting the variable would reach tests running
    /// in parallel.)
    @Test func environmentOverrideChoosesTheLibrary() {
        #expect(Libsndfile.candidates(path: nil, environmentOverride: "/opt/x.so") == ["/opt/x.so"])
        #expect(Libsndfile.candidates(path: "/a.so", environmentOverride: "/opt/x.so") == ["/a.so"])
        #expect(Libsndfile.candidates(path: nil, environmentOverride: "") == Libsndfile.defaultCandidates)
        #expect(Libsndfile.candidates(path: nil, environmentOverride: nil) == Libsndfile.defaultCandidates)
    }

    /// A writer that needs the missing library reports it against the audio file.
    @Test func missingLibraryIsReportedAgainstTheAudioFile() {
        do {
            _ = try Libsndfile.load(forFile: "song.flac", path: "/nonexistent/override.so")
            Issue.record("loading a missing library succeeded")
        } catch let error as AudioFileError {
            #expect(error.path == "song.flac")
            #expect(error.description.hasPrefix("song.flac: libsndfile could not be loaded (/nonexistent/override.so"))
            #expect(error.description.hasSuffix("(Debian/Ubuntu: apt install libsndfile1, macOS: brew install libsndfile)"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test(.enabled(if: RealFiles.libsndfileAvailable)) func versionIsReported() throws {
        let library = try Libsndfile.load()
        #expect(library.version.hasPrefix("libsndfile-1."))
    }

    /// libsndfile reads our own WAV/AIFF/CAF files identically to our reader: an independent
    /// check of both our headers and the SF_INFO layout (frames, rate and channels land in the
    /// right fields).
    @Test(.enabled(if: RealFiles.libsndfileAvailable), arguments: [
        (AudioFileFormat.wav, SampleFormat.int16), (.wav, .int24), (.wav, .float32),
        (.aiff, .int16), (.aiff, .int24), (.caf, .int16), (.caf, .int24), (.caf, .float32),
    ])
    func libsndfileReadsOurNativeFiles(format: AudioFileFormat, sampleFormat: SampleFormat) throws {
        let library = try Libsndfile.load()
        let directory = try TemporaryDirectory()
        let path = directory.file("n.\(format.fileExtension)")
        var noise = TestNoise(state: 3)
        let data = (0..<3).map { _ in noise.samples(7_777).map { $0 * 0.5 } }
        try writeFile(path, sampleFormat: sampleFormat, channels: data, sampleRate: 96_000, dither: .automatic)
        let ours = try AudioFile(contentsOf: path, decoder: .native)
        let theirs = try AudioFile(contentsOf: path, decoder: .libsndfile(library))
        #expect(theirs.sampleRate == 96_000)
        #expect(theirs.channelCount == 3)
        #expect(theirs.frameCount == 7_777)
        #expect(theirs.sourceFormat == format)
        let encoding: SampleEncoding = sampleFormat == .float32 ? .float(bits: 32) : .signedInteger(bits: sampleFormat.bitsPerSample)
        #expect(theirs.sourceEncoding == encoding)
        #expect(theirs.channels == ours.channels)
    }

    @Test(.enabled(if: RealFiles.libsndfileAvailable), arguments: [SampleFormat.int16, .int24])
    func flacRoundTrip(sampleFormat: SampleFormat) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("t.flac")
        let frames = 30_000
        let data = [sine(frequency: 440, amplitude: 0.5, sampleRate: 48_000, frameCount: frames),
                    sine(frequency: 660, amplitude: 0.25, sampleRate: 48_000, frameCount: frames)]
        #expect(try writeFile(path, sampleFormat: sampleFormat, channels: data, sampleRate: 48_000, dither: .none, block: 1000) == Int64(frames))
        let read = try AudioFile(contentsOf: path)  // automatic: not native, so libsndfile
        #expect(read.sourceFormat == .flac)
        #expect(read.sourceEncoding == .signedInteger(bits: sampleFormat.bitsPerSample))
        #expect(read.sampleRate == 48_000)
        #expect(read.channelCount == 2)
        #expect(read.frameCount == frames)
        // Lossless: only quantisation to the integer grid (libsndfile's own scaling may differ
        // from ours by one code).
        let lsb = Float(1) / Float(1 << (sampleFormat.bitsPerSample - 1))
        var worst: Float = 0
        for c in 0..<2 { for f in 0..<frames { worst = max(worst, abs(read.channels[c][f] - data[c][f])) } }
        #expect(worst <= 1.5 * lsb)
        if RealFiles.available(RealFiles.sox) {
            let info = try SoxInfo(path)
            #expect(info.channels == 2 && info.sampleRate == 48_000 && info.sampleCount == frames)
            #expect(info.bitsPerSample == sampleFormat.bitsPerSample)
        }
    }

    @Test(.enabled(if: RealFiles.libsndfileAvailable)) func flacRejectsFloat() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: AudioFileError.self) {
            try makeAudioFileWriter(path: directory.file("f.flac"), sampleFormat: .float32, channelCount: 2, sampleRate: 44_100)
        }
    }

    @Test(.enabled(if: RealFiles.libsndfileAvailable)) func oggVorbisRoundTrip() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("t.ogg")
        let frames = 44_100
        let tone = sine(frequency: 1000, amplitude: 0.5, sampleRate: 44_100, frameCount: frames)
        try writeFile(path, sampleFormat: .int16, channels: [tone, tone], block: 4096)
        let read = try AudioFile(contentsOf: path)
        #expect(read.sourceFormat == .ogg)
        #expect(read.sourceEncoding == .compressed("Vorbis"))
        #expect(read.channelCount == 2 && read.sampleRate == 44_100)
        #expect(abs(read.frameCount - frames) < 2048)
        // Lossy but close: the level of a 1 kHz tone survives within 0.5 dB.
        let middle = read.channels[0][10_000..<30_000]
        let rms = sqrt(middle.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(middle.count))
        #expect(abs(20 * log10(rms / (0.5 / sqrt(2.0)))) < 0.5)
        if RealFiles.available(RealFiles.sox) {
            let info = try SoxInfo(path)
            #expect(info.channels == 2 && info.sampleRate == 44_100)
            #expect(info.encoding.contains("Vorbis"))
        }
    }

    @Test(.enabled(if: RealFiles.libsndfileAvailable)) func opusAcceptsOnlyItsRates() throws {
        let library = try Libsndfile.load()
        let directory = try TemporaryDirectory()
        guard library.canWrite(.opus, channelCount: 2, sampleRate: 48_000) else {
            // An old libsndfile without Opus must say so, with its version.
            #expect(throws: AudioFileError.self) {
                try makeAudioFileWriter(path: directory.file("t.opus"), channelCount: 2, sampleRate: 48_000)
            }
            return
        }
        let tone = sine(frequency: 1000, amplitude: 0.5, sampleRate: 48_000, frameCount: 48_000)
        try writeFile(directory.file("t.opus"), sampleFormat: .int16, channels: [tone], sampleRate: 48_000)
        let read = try AudioFile(contentsOf: directory.file("t.opus"))
        #expect(read.sourceFormat == .opus)
        #expect(read.sampleRate == 48_000)
        #expect(abs(read.frameCount - 48_000) < 4000)
        do {
            _ = try makeAudioFileWriter(path: directory.file("u.opus"), channelCount: 2, sampleRate: 44_100)
            Issue.record("libsndfile accepted Opus at 44.1 kHz")
        } catch let error as AudioFileError {
            #expect(error == .unsupported(
                path: directory.file("u.opus"), reason: "Opus cannot be written at 44100 Hz (Opus takes 8, 12, 16, 24 or 48 kHz)"))
        }
    }

    /// MP3 works with libsndfile ≥ 1.1 built with LAME; otherwise the error says exactly that.
    @Test(.enabled(if: RealFiles.libsndfileAvailable)) func mp3IsWrittenOrClearlyRefused() throws {
        let library = try Libsndfile.load()
        let directory = try TemporaryDirectory()
        let path = directory.file("t.mp3")
        let tone = sine(frequency: 1000, amplitude: 0.5, sampleRate: 44_100, frameCount: 44_100)
        if library.canWrite(.mp3, channelCount: 2, sampleRate: 44_100) {
            try writeFile(path, sampleFormat: .int16, channels: [tone, tone])
            let read = try AudioFile(contentsOf: path)
            #expect(read.sourceFormat == .mp3)
            #expect(read.channelCount == 2)
            #expect(read.frameCount > 40_000)
        } else {
            do {
                _ = try makeAudioFileWriter(path: path, channelCount: 2, sampleRate: 44_100)
                Issue.record("MP3 writer created although sf_format_check refused MP3")
            } catch let error as AudioFileError {
                #expect(error.description.contains("MP3 needs libsndfile 1.1 or later"))
            }
        }
    }
}
