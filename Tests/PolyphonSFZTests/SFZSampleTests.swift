import Foundation
import PolyphonAudio
import PolyphonTestSupport
import Testing
@testable import PolyphonSFZ

/// Sample files on disk: read through PolyphonAudio in every width the issue names, their
/// `smpl`/`INST` loops and root keys, header-only descriptions, lazy shared decoding, and the
/// paths of libraries made on Windows.
@Suite struct SFZSampleTests {
    /// An instrument `text` in a fresh directory holding `files`.
    static func load(_ text: String, files: [String: [UInt8]]) throws -> (SFZInstrument, TemporaryDirectory) {
        let directory = try TemporaryDirectory(prefix: "polyphon-sfz")
        let writer = TestFiles(root: directory.path)
        for (name, bytes) in files { try writer.write(bytes, to: name) }
        try writer.write(text, to: "instrument.sfz")
        return (try SFZInstrument(contentsOf: directory.file("instrument.sfz")), directory)
    }

    @Test func sixteenBitMonoDecodesToItsOwnWords() throws {
        let sine = TestAudio.sine(frequency: 441, frames: 1000)
        let (instrument, directory) = try Self.load("<region> sample=sine.wav", files: ["sine.wav": TestAudio.wav([sine])])
        defer { withExtendedLifetime(directory) {} }
        let sample = try #require(instrument.sampleStore).sample(at: 0)
        #expect(sample.metadata == SFZSampleMetadata(frameCount: 1000, sampleRate: 44_100, channelCount: 1))
        #expect(sample.lowBytes == nil)
        for i in stride(from: 0, to: 1000, by: 37) {
            #expect(abs(sample.value(channel: 0, frame: i) - sine[i]) <= 1.0 / 32_768 + 1e-6)
        }
        // Zero points after the end, for interpolation.
        #expect((1000..<(1000 + SFZDecodedSample.padding)).allSatisfy { sample.words[0][$0] == 0 })
    }

    @Test(arguments: [TestAudio.Encoding.int24, .int32, .float32])
    func widerSamplesKeepTwentyFourBits(encoding: TestAudio.Encoding) throws {
        let left = TestAudio.sine(frequency: 100, frames: 500, amplitude: 0.9)
        let right = TestAudio.saw(frequency: 300, frames: 500, amplitude: 0.25)
        let (instrument, directory) = try Self.load("<region> sample=s.wav", files: ["s.wav": TestAudio.wav([left, right], encoding: encoding)])
        defer { withExtendedLifetime(directory) {} }
        let sample = try #require(instrument.sampleStore).sample(at: 0)
        #expect(sample.metadata.channelCount == 2 && sample.metadata.frameCount == 500)
        #expect(sample.lowBytes != nil)
        for i in 0..<500 {
            #expect(abs(sample.value(channel: 0, frame: i) - left[i]) < 2.5e-7)
            #expect(abs(sample.value(channel: 1, frame: i) - right[i]) < 2.5e-7)
        }
    }

    @Test func theSamplerChunkGivesLoopAndRootKeyWhenTheSFZGivesNone() throws {
        let sine = TestAudio.sine(frequency: 441, frames: 4000)
        let wav = TestAudio.wav([sine], smpl: (root: 57, loops: [(first: 1000, last: 2999)]))
        let (instrument, directory) = try Self.load("""
            <region> sample=l.wav key=1 pitch_keycenter=sample
            <region> sample=l.wav key=2 loop_start=100 loop_end=199
            <region> sample=l.wav key=3 loop_mode=no_loop
            <region> sample=l.wav key=4 loop_mode=one_shot end=3500
            """, files: ["l.wav": wav])
        defer { withExtendedLifetime(directory) {} }
        let store = try #require(instrument.sampleStore)
        let sample = try store.sample(at: 0)
        #expect(sample.metadata.loop == SFZRange(1000, 2999))
        #expect(sample.metadata.rootKey == 57)
        let played = instrument.regions.map { $0.resolvedPlayback(sample: sample.metadata) }
        #expect(played[0].loopMode == .continuous && played[0].loop == SFZRange(1000, 2999) && played[0].keycenter == 57)
        #expect(played[0].end == 3999)
        #expect(played[1].loopMode == .continuous && played[1].loop == SFZRange(100, 199) && played[1].keycenter == 2)
        #expect(played[2].loopMode == .noLoop)
        #expect(played[3].loopMode == .oneShot && played[3].end == 3500)
    }

    @Test func aiffLoopsComeFromInstAndMark() throws {
        let aiff = TestAudio.aiff([TestAudio.sine(frequency: 441, frames: 2000)], root: 62, loop: (start: 500, end: 1500))
        let (instrument, directory) = try Self.load("<region> sample=a.aif", files: ["a.aif": aiff])
        defer { withExtendedLifetime(directory) {} }
        let store = try #require(instrument.sampleStore)
        let metadata = try store.metadata(at: 0)  // from the header only
        #expect(metadata == SFZSampleMetadata(frameCount: 2000, sampleRate: 44_100, channelCount: 1, loop: SFZRange(500, 1499), rootKey: 62))
        #expect(try store.sample(at: 0).metadata == metadata)
    }

    @Test func headerDescriptionsMatchDecodingWithoutReadingTheAudio() throws {
        let directory = try TemporaryDirectory(prefix: "polyphon-sfz")
        let writer = TestFiles(root: directory.path)
        let cases: [(String, [UInt8])] = [
            ("a.wav", TestAudio.wav([TestAudio.sine(frequency: 1, frames: 777)], smpl: (root: 40, loops: [(first: 7, last: 700)]))),
            ("b.wav", TestAudio.wav([[0.1, 0.2, 0.3], [0.3, 0.2, 0.1]], sampleRate: 48_000, encoding: .int24)),
            ("c.wav", TestAudio.wav([[0.5, -0.5]], sampleRate: 96_000, encoding: .float32)),
            ("d.aif", TestAudio.aiff([TestAudio.sine(frequency: 1, frames: 101), TestAudio.sine(frequency: 2, frames: 101)], loop: (10, 90))),
        ]
        for (name, bytes) in cases {
            try writer.write(bytes, to: name)
            let path = directory.file(name)
            #expect(try AudioFileDescription(contentsOf: path) == AudioFileDescription(AudioFile(contentsOf: path)))
        }
    }

    @Test func samplesAreDecodedOnceAndSharedByEveryCopy() throws {
        let (instrument, directory) = try Self.load("<region> sample=s.wav key=1\n<region> sample=S.WAV key=2",
                                                    files: ["s.wav": TestAudio.wav([TestAudio.sine(frequency: 441, frames: 100)])])
        defer { withExtendedLifetime(directory) {} }
        #expect(instrument.samples.count == 1)
        let copy = instrument
        let store = try #require(instrument.sampleStore)
        #expect(store.decodedSample(at: 0) == nil)  // lazily: nothing decoded by loading
        let first = try store.sample(at: 0)
        let second = try #require(copy.sampleStore).sample(at: 0)
        #expect(first === second)
        #expect(store.statistics.samples == 1)
        #expect(try instrument.preloadSamples() == 0)
    }

    @Test func preloadDecodesEverySampleInParallel() throws {
        var files: [String: [UInt8]] = [:]
        var text = ""
        for i in 0..<8 {
            files["s\(i).wav"] = TestAudio.wav([TestAudio.sine(frequency: Double(100 * (i + 1)), frames: 2000)])
            text += "<region> sample=s\(i).wav key=\(i)\n"
        }
        let (instrument, directory) = try Self.load(text, files: files)
        defer { withExtendedLifetime(directory) {} }
        #expect(try instrument.preloadSamples() == 8)
        #expect(instrument.sampleStore?.statistics.samples == 8)
        #expect(instrument.sampleStore?.statistics.frames == 16_000)
    }

    @Test func reversedSamplesPlayBackwardsWithoutTheFileLoop() throws {
        let ramp: [Float] = (0..<64).map { Float($0) / 64 }
        let (instrument, directory) = try Self.load("<region> sample=r.wav direction=reverse",
                                                    files: ["r.wav": TestAudio.wav([ramp], encoding: .float32, smpl: (60, [(8, 40)]))])
        defer { withExtendedLifetime(directory) {} }
        let sample = try #require(instrument.sampleStore).sample(at: 0)
        #expect(sample.value(channel: 0, frame: 0) == ramp[63])
        #expect(sample.value(channel: 0, frame: 63) == ramp[0])
        #expect(sample.metadata.loop == nil)
    }

    @Test func librariesMadeOnWindowsResolveOnACaseSensitiveDisk() throws {
        let (instrument, directory) = try Self.load("""
            <control> default_path=Samples\\Strings\\
            #include "Parts\\Violin.SFZH"
            """, files: [
                "samples/strings/violin_c4.wav": TestAudio.wav([TestAudio.sine(frequency: 262, frames: 64)]),
                "parts/violin.sfzh": Array("<region> sample=VIOLIN_C4.wav key=60".utf8),
            ])
        #expect(instrument.warnings.isEmpty, "\(instrument.warnings)")
        #expect(instrument.samples.first?.path == directory.path + "/samples/strings/violin_c4.wav")
        #expect(try instrument.sampleStore?.sample(at: 0).metadata.frameCount == 64)
    }

    @Test func flacSamplesAreReadThroughLibsndfile() throws {
        guard (try? Libsndfile.load()) != nil else { return }  // libsndfile is optional at run time
        let directory = try TemporaryDirectory(prefix: "polyphon-sfz")
        let sine = TestAudio.sine(frequency: 441, frames: 3000)
        let writer = try makeAudioFileWriter(path: directory.file("s.flac"), sampleFormat: .int24, channelCount: 1, sampleRate: 44_100)
        try writer.write(planar: [sine])
        try writer.close()
        try TestFiles(root: directory.path).write("<region> sample=s.flac", to: "i.sfz")
        let instrument = try SFZInstrument(contentsOf: directory.file("i.sfz"))
        let store = try #require(instrument.sampleStore)
        #expect(try store.metadata(at: 0).frameCount == 3000)
        let sample = try store.sample(at: 0)
        #expect(sample.lowBytes != nil)
        #expect(abs(sample.value(channel: 0, frame: 123) - sine[123]) < 1e-6)
    }

    @Test func anUndecodableSampleIsAnErrorNamingTheFile() throws {
        let (instrument, directory) = try Self.load("<region> sample=bad.wav", files: ["bad.wav": Array("RIFF\u{4}\0\0\0WAVE".utf8)])
        defer { withExtendedLifetime(directory) {} }
        let store = try #require(instrument.sampleStore)
        #expect(throws: SFZSampleError.self) { try store.sample(at: 0) }
        #expect(throws: SFZSampleError.self) { try store.metadata(at: 0) }
    }
}
