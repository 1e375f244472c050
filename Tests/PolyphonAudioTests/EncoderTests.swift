import Foundation
import Testing

@testable import PolyphonAudio

/// The SIMD sample encoder against its scalar reference, and the promise that the blocks a
/// caller writes in never show in the file.
@Suite struct EncoderTests {
    /// Samples that probe every branch of the conversions: NaN, infinities, zeros of both
    /// signs, subnormals, full scale and beyond, the exact half-LSB points of 16 and 24 bits
    /// and their Float neighbours, plus random values of every magnitude.
    static func awkwardSamples(_ count: Int, seed: UInt64) -> [Float] {
        var special: [Float] = [
            .nan, -.nan, .infinity, -.infinity, 0, -0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
            .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            1, -1, 1.5, -1.5, 100, -100, 32767.0 / 32768, -32767.0 / 32768, 0.49999997, -0.49999997,
        ]
        for lsb in [Float(32768), 8_388_608] {
            for k in [0, 1, 2, 3, 1000, 32766, 32767, 32768, 4_194_303, 8_388_606, 8_388_607] {
                for base in [Float(k) + 0.5, Float(k) - 0.5, Float(k)] {
                    let x = base / lsb
                    special += [x, -x, x.nextUp, x.nextDown, -x.nextUp, -x.nextDown]
                }
            }
        }
        var noise = TestNoise(state: seed)
        var samples: [Float] = []
        while samples.count < count {
            let word = noise.next()
            switch word % 4 {
            case 0: samples.append(special[Int(word >> 8) % special.count])
            case 1: samples.append(Float(bitPattern: UInt32(truncatingIfNeeded: word >> 16)))  // any Float at all
            case 2: samples.append(noise.sample() * 1.01)  // audio, a little past full scale
            default: samples.append(noise.sample() * 0.001)  // quiet audio, where dither matters
            }
        }
        return samples
    }

    /// The eight-lane kernels give exactly the scalar codes, sample for sample.
    @Test func int16KernelMatchesScalarCode() {
        let samples = Self.awkwardSamples(400_000, seed: 7)
        var plainScalar = NoDither(), plainVector = NoDither()
        var ditherScalar = TriangularDitherGenerator(seed: 99), ditherVector = TriangularDitherGenerator(seed: 99)
        var mismatches = 0
        for start in stride(from: 0, to: samples.count - 7, by: 8) {
            let vector = SIMD8(samples[start..<start + 8])
            let plain = Int16Kernel.codes(vector, dither: &plainVector)
            let dithered = Int16Kernel.codes(vector, dither: &ditherVector)
            for lane in 0..<8 {
                let sample = samples[start + lane]
                let expectedPlain = Int16Kernel.code(sample, dither: &plainScalar)
                let expectedDithered = Int16Kernel.code(sample, dither: &ditherScalar)
                if plain[lane] != expectedPlain || dithered[lane] != expectedDithered {
                    mismatches += 1
                    if mismatches < 5 {
                        Issue.record("\(sample) (bits \(String(sample.bitPattern, radix: 16))): plain \(plain[lane]) vs \(expectedPlain), dithered \(dithered[lane]) vs \(expectedDithered)")
                    }
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func int24KernelMatchesScalarCode() {
        let samples = Self.awkwardSamples(400_000, seed: 8)
        var mismatches = 0
        for start in stride(from: 0, to: samples.count - 7, by: 8) {
            let codes = Int24Kernel.codes(SIMD8(samples[start..<start + 8]))
            for lane in 0..<8 where codes[lane] != Int24Kernel.code(samples[start + lane]) {
                mismatches += 1
                if mismatches < 5 {
                    let sample = samples[start + lane]
                    Issue.record("\(sample): \(codes[lane]) vs \(Int24Kernel.code(sample))")
                }
            }
        }
        #expect(mismatches == 0)
    }

    /// `next()` and `nextGroup()` walk the same stream.
    @Test func ditherGroupsAndSingleValuesAreOneStream() {
        var single = TriangularDitherGenerator(seed: 5)
        var grouped = TriangularDitherGenerator(seed: 5)
        var mixed = TriangularDitherGenerator(seed: 5)
        var fromSingles: [Float] = []
        var fromGroups: [Float] = []
        var fromMix: [Float] = []
        for _ in 0..<64 { fromSingles.append(single.next()) }
        for _ in 0..<8 {
            let group = grouped.nextGroup()
            for lane in 0..<8 { fromGroups.append(group[lane]) }
        }
        while fromMix.count < 64 {
            if mixed.isAtGroupStart && fromMix.count % 24 != 0 {
                let group = mixed.nextGroup()
                for lane in 0..<8 { fromMix.append(group[lane]) }
            } else {
                fromMix.append(mixed.next())
            }
        }
        #expect(fromSingles == fromGroups)
        #expect(fromSingles == fromMix)
        #expect(Set(fromSingles).count > 60)
    }

    /// Writing in blocks of 1, 7, 17 or 4096 frames, planar or interleaved, gives the same
    /// bytes, for every sample format and a mono, stereo and three-channel file (so both the
    /// stereo path and the channel-by-channel path, each with its SIMD body and scalar ends).
    @Test(arguments: [SampleFormat.int16, .int24, .float32])
    func blockSizeDoesNotChangeTheBytes(sampleFormat: SampleFormat) throws {
        let directory = try TemporaryDirectory()
        let frames = 10_000
        for channelCount in [1, 2, 3] {
            for format in [AudioFileFormat.wav, .caf] {  // little- and big-endian samples
                let data = (0..<channelCount).map { Self.awkwardSamples(frames, seed: UInt64(10 + $0)) }
                let dithers: [Dither] = sampleFormat == .int16 ? [.automatic, .none] : [.none]
                for dither in dithers {
                    var reference: [UInt8]?
                    for block in [4096, 1, 7, 17] {
                        for interleaved in [false, true] {
                            let path = directory.file("b\(block)\(interleaved).\(format.fileExtension)")
                            try write(data, to: path, format: format, sampleFormat: sampleFormat,
                                      dither: dither, block: block, interleaved: interleaved)
                            let bytes = try fileBytes(path)
                            if let reference {
                                let same = bytes == reference  // (not in the #expect: it would print both files)
                                #expect(same, "\(channelCount) ch \(format) \(dither) block \(block) interleaved \(interleaved)")
                            } else {
                                reference = bytes
                            }
                        }
                    }
                }
            }
        }
    }

    func write(_ channels: [[Float]], to path: String, format: AudioFileFormat, sampleFormat: SampleFormat,
               dither: Dither, block: Int, interleaved: Bool) throws {
        let writer = try makeAudioFileWriter(
            path: path, format: format, sampleFormat: sampleFormat, channelCount: channels.count,
            sampleRate: 44_100, dither: dither)
        let frames = channels[0].count
        var start = 0
        while start < frames {
            let end = min(frames, start + block)
            if interleaved {
                try writer.write(interleaved: (start..<end).flatMap { f in channels.map { $0[f] } })
            } else {
                try writer.write(planar: channels.map { Array($0[start..<end]) })
            }
            start = end
        }
        try writer.close()
    }

    /// The dither stream is fixed by the seed, on every platform: these are the first values of
    /// channels 0 and 1 under the default seed (in 1/65536 LSB), worked out independently from
    /// the definition of the generator. A change of generator shows here, not silently in
    /// every file.
    @Test func ditherStreamIsPinned() {
        func first(_ count: Int, seed: UInt64) -> [Int] {
            var generator = TriangularDitherGenerator(seed: seed)
            return (0..<count).map { _ in Int(generator.next() * 65536) }
        }
        #expect(first(10, seed: Dither.defaultSeed)
                == [8430, -3948, -4151, -25019, 12909, 572, -37066, 18328, 33700, -25629])
        #expect(first(10, seed: Dither.defaultSeed &+ 0xD1B5_4A32_D192_ED03)
                == [-21657, -3409, 12747, -22460, 29786, -10150, -19040, -25613, 7325, -8927])
    }
}
