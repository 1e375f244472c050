import Foundation
import Testing

@testable import PolyphonAudio

/// The peak resident memory of this process, in bytes.
func peakResidentBytes() -> Int {
    var usage = rusage()
    #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)  // bytes on Darwin
    #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
    #endif
}

/// Writing a long song must not grow memory: 30 minutes of stereo 44.1 kHz float is 635 MB of
/// samples, so a writer that kept them would raise the peak by at least that much.
@Suite struct StreamingMemoryTests {
    @Test func thirtyMinutesOfStereoFloatKeepsMemoryFlat() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("long.caf")
        let sampleRate = 44_100.0
        let totalFrames = Int(sampleRate) * 60 * 30
        let block = 8192
        var left = [Float](repeating: 0, count: block)
        var right = [Float](repeating: 0, count: block)
        for index in 0..<block {
            left[index] = Float(sin(Double(index) * 0.05)) * 0.5
            right[index] = -left[index]
        }
        let writer = try makeAudioFileWriter(
            path: path, sampleFormat: .float32, channelCount: 2, sampleRate: sampleRate)
        let before = peakResidentBytes()
        let started = Date()
        try left.withUnsafeBufferPointer { l in
            try right.withUnsafeBufferPointer { r in
                let channels = [l, r]
                var written = 0
                while written < totalFrames {
                    let count = min(block, totalFrames - written)
                    try writer.write(planar: channels, frameCount: count)
                    written += count
                }
            }
        }
        try writer.close()
        let seconds = Date().timeIntervalSince(started)
        let growth = peakResidentBytes() - before
        #expect(writer.framesWritten == Int64(totalFrames))
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(size == 68 + totalFrames * 8)
        // Other suites run in parallel and may allocate too; 64 MB is still a tenth of the data.
        #expect(growth < 64 << 20, "peak RSS grew by \(growth) bytes")
        print("wrote \(totalFrames) stereo float frames in \(seconds) s; peak RSS growth \(growth / 1024) KiB")
        // The data chunk's size was patched to the real length.
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        try handle.seek(toOffset: 56)
        let sizeBytes = try handle.read(upToCount: 8) ?? Data()
        try handle.close()
        #expect(sizeBytes.reduce(0) { $0 << 8 | Int($1) } == 4 + totalFrames * 8)
    }
}
