import Foundation
import Testing
@testable import PolyphonSoundFont
@testable import PolyphonSoundFontCore

/// SF3 decoding measured against an independent decoder (sox) on real banks, plus laziness,
/// caching, thread safety, the PCM fast path and errors.
@Suite struct SF3DecodingTests {
    static let sox = "/usr/bin/sox"
    static let fluidR3Mono = "/usr/share/sounds/sf3/FluidR3Mono_GM.sf3"

    /// Decodes `ogg` with sox into 16-bit little-endian points (no dither).
    static func soxDecode(_ ogg: UnsafeRawBufferPointer) throws -> [Int16] {
        let dir = FileManager.default.temporaryDirectory
        let input = dir.appendingPathComponent("polyphon-\(UUID().uuidString).ogg")
        let output = dir.appendingPathComponent("polyphon-\(UUID().uuidString).raw")
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: output)
        }
        try Data(ogg).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sox)
        process.arguments = ["-V1", "-D", input.path, "-t", "raw", "-e", "signed-integer", "-b", "16",
                             "-L", "-c", "1", output.path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "sox failed on the extracted stream")
        let data = try Data(contentsOf: output)
        return data.withUnsafeBytes { raw in
            (0..<(raw.count / 2)).map { Int16(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self)) }
        }
    }

    /// Decodes a few compressed samples of `path` and compares them point by point with sox.
    func expectMatchesSox(_ path: String, sampleCount: Int) throws {
        try #require(FileManager.default.fileExists(atPath: path), "\(path) is missing")
        try #require(FileManager.default.fileExists(atPath: Self.sox), "sox is missing")
        let font = try SoundFont(contentsOf: path)
        print("SF3 \(path): \(font.samples.count) samples, \(font.warnings.count) warnings: "
              + font.warnings.prefix(5).map(\.description).joined(separator: "; "))
        let compressed = font.samples.indices.filter { font.samples[$0].sampleType.isCompressed }
        try #require(compressed.count > 100)
        // Spread the picks over the pool: first, last and evenly between.
        let picks = (0..<sampleCount).map { compressed[$0 * (compressed.count - 1) / max(sampleCount - 1, 1)] }
        for index in picks {
            let header = font.samples[index]
            let ours = try font.playableSample(at: index)
            let stream = UnsafeRawBufferPointer(rebasing: font.sampleData.bytes[Int(header.start)..<Int(header.end)])
            let reference = try Self.soxDecode(stream)
            #expect(ours.isDecoded)
            #expect(ours.start == 0)
            #expect(ours.end == reference.count, "sample \(index) '\(header.name)': length")
            let points = Array(ours.points)
            var maxDifference = 0, differing = 0
            for (a, b) in zip(points, reference) {
                let d = abs(Int(a) - Int(b))
                maxDifference = max(maxDifference, d)
                if d != 0 { differing += 1 }
            }
            #expect(maxDifference <= 1, "sample \(index) '\(header.name)': max difference \(maxDifference)")
            #expect(differing * 100 <= max(points.count, 1), "sample \(index): \(differing) of \(points.count) differ")
            // The padding after the decoded points is silent.
            #expect(ours.words[ours.end..<(ours.end + DecodedPCM.padding)].allSatisfy { $0 == 0 })
            // Loops lie inside the decoded sample (loop points are relative to it).
            #expect(ours.loopStart <= ours.loopEnd && ours.loopEnd <= ours.end,
                    "sample \(index) loop \(ours.loopStart)..<\(ours.loopEnd) of \(ours.end)")
            print("SF3 \(path) sample \(index): \(points.count) points, max difference \(maxDifference), \(differing) differ")
            // Not silence: a real instrument sample.
            #expect(points.contains { abs(Int($0)) > 100 })
        }
    }

    @Test(.enabled(if: RealFiles.available(RealFiles.museScore) && RealFiles.available(sox)))
    func museScoreSamplesMatchSox() throws {
        try expectMatchesSox(RealFiles.museScore, sampleCount: 6)
    }

    // Not one of the banks CI is promised (package fluidr3mono-gm-soundfont): skipped when absent.
    @Test(.enabled(if: RealFiles.available(fluidR3Mono) && RealFiles.available(sox)))
    func fluidR3MonoSamplesMatchSox() throws {
        try expectMatchesSox(Self.fluidR3Mono, sampleCount: 6)
    }

    @Test(.enabled(if: RealFiles.available(RealFiles.museScore)))
    func decodingIsLazyAndCached() throws {
        try #require(FileManager.default.fileExists(atPath: RealFiles.museScore))
        let font = try SoundFont(contentsOf: RealFiles.museScore)
        #expect(font.decodedSampleStatistics.streams == 0)

        let piano = try #require(font.presetIndex(bank: 0, program: 0))
        let used = font.sampleIndexes(forPresetAt: piano)
        try #require(!used.isEmpty)
        let first = try font.playableSample(at: used[0])
        #expect(font.decodedSampleStatistics.streams == 1)
        let again = try font.playableSample(at: used[0])
        #expect(again.words.baseAddress == first.words.baseAddress, "second call decoded again")
        #expect(font.decodedSampleStatistics.streams == 1)

        // Preloading one preset decodes its samples and nothing else.
        let distinctStreams = Set(used.map { "\(font.samples[$0].start)-\(font.samples[$0].end)" }).count
        let decoded = try font.preloadSamples(forPresetsAt: [piano])
        #expect(decoded == distinctStreams - 1)
        #expect(font.decodedSampleStatistics.streams == distinctStreams)
        #expect(distinctStreams < font.samples.count / 5, "the piano should use a small part of the bank")
        #expect(try font.preloadSamples(forPresetsAt: [piano]) == 0)

        // A copy of the bank value shares the cache (it shares the sample data).
        let copy = font
        #expect(try copy.playableSample(at: used[0]).words.baseAddress == first.words.baseAddress)
    }

    @Test(.enabled(if: RealFiles.available(RealFiles.museScore)))
    func wholeBankPreloadsWithLoopsInside() throws {
        try #require(FileManager.default.fileExists(atPath: RealFiles.museScore))
        let font = try SoundFont(contentsOf: RealFiles.museScore)
        let started = ContinuousClock.now
        let decoded = try font.preloadSamples()
        let elapsed = ContinuousClock.now - started
        let stats = font.decodedSampleStatistics
        print("SF3 preload of \(RealFiles.museScore): \(decoded) streams, \(stats.points) points in \(elapsed)")
        #expect(decoded == Set(font.samples.filter(\.sampleType.isCompressed).map { "\($0.start)-\($0.end)" }).count)
        var outside = 0
        for index in font.samples.indices where font.samples[index].sampleType.isCompressed {
            let sample = try font.playableSample(at: index)
            if !(sample.loopStart <= sample.loopEnd && sample.loopEnd <= sample.end) { outside += 1 }
        }
        #expect(outside == 0, "\(outside) samples loop outside their decoded points")
    }

    @Test(.enabled(if: RealFiles.available(RealFiles.museScore)))
    func parallelFirstUseYieldsOneBuffer() throws {
        try #require(FileManager.default.fileExists(atPath: RealFiles.museScore))
        let font = try SoundFont(contentsOf: RealFiles.museScore)
        let index = try #require(font.samples.indices.first { font.samples[$0].sampleType.isCompressed })
        let addresses = AddressList()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let sample = try? font.playableSample(at: index)
            addresses.append(sample?.words.baseAddress.map { UInt(bitPattern: $0) })
        }
        let all = addresses.values
        #expect(all.count == 8)
        #expect(all.allSatisfy { $0 != nil })
        #expect(Set(all).count == 1, "threads got different buffers")
        #expect(font.decodedSampleStatistics.streams == 1)
    }

    @Test func pcmSamplesPointIntoThePool() throws {
        let bank = TestBanks.rich(twentyFourBit: true)
        for index in bank.samples.indices {
            let sample = try bank.playableSample(at: index)
            let header = bank.samples[index]
            #expect(!sample.isDecoded)
            #expect(sample.words.baseAddress == bank.sampleData.words.baseAddress)
            #expect(sample.lowBytes?.baseAddress == bank.sampleData.lowBytes?.baseAddress)
            #expect(sample.start == Int(header.start) && sample.end == Int(header.end))
            #expect(sample.loopStart == Int(header.loopStart) && sample.loopEnd == Int(header.loopEnd))
        }
        #expect(bank.decodedSampleStatistics.streams == 0)
        #expect(try bank.preloadSamples() == 0)
    }

    @Test func garbageStreamIsATypedError() throws {
        // A compressed sample whose bytes are not Ogg: decoding fails with the sample named,
        // or (without the library) says how to install it. Either way nothing traps.
        var builder = SoundFont.Builder(name: "Broken SF3")
        builder.info.versionMajor = 3
        let index = builder.addSample((0..<200).map { Int16(truncatingIfNeeded: $0 &* 977) }, name: "junk",
                                      sampleType: SampleType(rawValue: SampleType.mono.rawValue | SampleType.vorbisFlag))
        var bank = builder.build().withSampleDecoder(VorbisSampleDecoder())
        bank.samples[index].start = 0
        bank.samples[index].end = 400
        do {
            _ = try bank.playableSample(at: index)
            Issue.record("garbage decoded")
        } catch {
            #expect(error.sampleIndex == index && error.sampleName == "junk")
            switch error.kind {
            case .invalidStream: break
            case .libraryUnavailable(let text): #expect(text.contains("libvorbisfile3"))
            default: Issue.record("unexpected \(error)")
            }
        }
        // A byte range past the pool.
        bank.samples[index].end = 1_000_000
        #expect(throws: SampleDecodingError.self) { try bank.playableSample(at: index) }
        #expect(throws: SampleDecodingError.self) { try bank.playableSample(at: 99) }
        #expect(throws: SampleDecodingError.self) { try bank.preloadSamples() }
    }

    @Test func missingLibraryNamesThePackages() {
        do {
            _ = try Libvorbisfile.load(path: "/nonexistent/libvorbisfile.so.3")
            Issue.record("loaded a library that does not exist")
        } catch let error as SampleDecodingError {
            let text = error.description
            #expect(text.contains("libvorbisfile3") && text.contains("brew install libvorbis"))
            #expect(!text.contains("\n"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}

/// Collects results from concurrent closures.
final class AddressList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [UInt?] = []
    func append(_ value: UInt?) { lock.lock(); items.append(value); lock.unlock() }
    var values: [UInt?] { lock.lock(); defer { lock.unlock() }; return items }
}
