import Foundation
import Testing

@testable import PolyphonAudio
@_exported import PolyphonTestSupport

extension RealFiles {
    static var libsndfileAvailable: Bool { isCI || (try? Libsndfile.load()) != nil }
}




/// What `sox --i` reports about a file: an independent reader of the header.
struct SoxInfo {
    var channels: Int
    var sampleRate: Double
    var bitsPerSample: Int
    var sampleCount: Int
    var encoding: String

    init(_ path: String) throws {
        func field(_ flag: String) throws -> String { try run(RealFiles.sox, ["--i", flag, path]) }
        channels = Int(try field("-c")) ?? -1
        sampleRate = Double(try field("-r")) ?? -1
        bitsPerSample = Int(try field("-b")) ?? -1
        sampleCount = Int(try field("-s")) ?? -1
        encoding = try field("-e")
    }
}

/// A sine of `frequency` Hz and peak `amplitude`, `frameCount` frames at `sampleRate`.
func sine(frequency: Double, amplitude: Double, sampleRate: Double, frameCount: Int, phase: Double = 0) -> [Float] {
    (0..<frameCount).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / sampleRate + phase)) }
}

/// Deterministic noise in −1…1 for tests.
struct TestNoise {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state
    }
    mutating func sample() -> Float { Float(Int32(truncatingIfNeeded: next() >> 32)) / 2_147_483_648 }
    mutating func samples(_ count: Int) -> [Float] { (0..<count).map { _ in sample() } }
}

/// Writes `channels` to `path` with a native writer, in blocks of `block` frames.
@discardableResult
func writeFile(
    _ path: String, format: AudioFileFormat? = nil, sampleFormat: SampleFormat, channels: [[Float]],
    sampleRate: Double = 44_100, dither: Dither = .none, block: Int = 1000
) throws -> Int64 {
    let writer = try makeAudioFileWriter(
        path: path, format: format, sampleFormat: sampleFormat, channelCount: channels.count,
        sampleRate: sampleRate, dither: dither)
    let frameCount = channels.first?.count ?? 0
    var start = 0
    while start < frameCount {
        let end = min(frameCount, start + block)
        try writer.write(planar: channels.map { Array($0[start..<end]) })
        start = end
    }
    try writer.close()
    return writer.framesWritten
}

func fileBytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}
