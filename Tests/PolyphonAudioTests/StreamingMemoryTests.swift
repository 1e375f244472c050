import Foundation
import Testing

@testable import PolyphonAudio

/// The resident memory of this process now, in bytes (Linux: /proc/self/statm; elsewhere the
/// peak from getrusage, which can only under-report growth, never invent it).
func residentBytes() -> Int {
    #if os(Linux)
    if let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) {
        let fields = text.split(separator: " ")
        if fields.count > 1, let pages = Int(fields[1]) { return pages * Int(sysconf(Int32(_SC_PAGESIZE))) }
    }
    #endif
    var usage = rusage()
    #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)  // bytes on Darwin
    #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
    #endif
}

/// Writes `totalFrames` frames of the same stereo block through `writer`, returning how much
/// resident memory grew between the first 2 % of the song and its end. A writer that kept its
/// input would grow by the size of the other 98 %.
func streamStereo(
    _ writer: any AudioFileWriter, totalFrames: Int, block: [Float]
) throws -> (growth: Int, seconds: Double) {
    let started = Date()
    var baseline = 0
    try block.withUnsafeBufferPointer { buffer in
        let channels = [buffer, buffer]
        var written = 0
        while written < totalFrames {
            let count = min(block.count, totalFrames - written)
            try writer.write(planar: channels, frameCount: count)
            if baseline == 0 && written >= totalFrames / 50 { baseline = residentBytes() }
            written += count
        }
    }
    try writer.close()
    return (residentBytes() - baseline, Date().timeIntervalSince(started))
}

/// Writing a long song must not grow memory. Other suites run in parallel and allocate too, so
/// the bounds leave room for them, but stay far below what keeping the samples would cost.
@Suite struct StreamingMemoryTests {
    /// 30 minutes of stereo 44.1 kHz float: 635 MB of samples.
    @Test func thirtyMinutesOfStereoFloatKeepsMemoryFlat() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("long.caf")
        let totalFrames = 44_100 * 60 * 30
        let writer = try makeAudioFileWriter(path: path, sampleFormat: .float32, channelCount: 2, sampleRate: 44_100)
        let (growth, seconds) = try streamStereo(
            writer, totalFrames: totalFrames, block: sine(frequency: 440, amplitude: 0.5, sampleRate: 44_100, frameCount: 8192))
        #expect(writer.framesWritten == Int64(totalFrames))
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(size == 68 + totalFrames * 8)
        #expect(growth < 128 << 20, "resident memory grew by \(growth) bytes")
        print("CAF float: \(totalFrames) stereo frames in \(seconds) s; resident growth \(growth / 1024) KiB")
        // The data chunk's size was patched to the real length.
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        try handle.seek(toOffset: 56)
        let sizeBytes = try handle.read(upToCount: 8) ?? Data()
        try handle.close()
        #expect(sizeBytes.reduce(0) { $0 << 8 | Int($1) } == 4 + totalFrames * 8)
    }

    /// libsndfile's FLAC encoder behind our fixed interleave buffer: four minutes of stereo
    /// (85 MB as float input).
    @Test(.enabled(if: RealFiles.libsndfileAvailable)) func fourMinutesOfFLACKeepsMemoryFlat() throws {
        let directory = try TemporaryDirectory()
        let totalFrames = 44_100 * 60 * 4
        let writer = try makeAudioFileWriter(path: directory.file("long.flac"), channelCount: 2, sampleRate: 44_100)
        let (growth, seconds) = try streamStereo(
            writer, totalFrames: totalFrames, block: sine(frequency: 440, amplitude: 0.3, sampleRate: 44_100, frameCount: 4096))
        #expect(writer.framesWritten == Int64(totalFrames))
        // A writer that kept the input would grow by its 85 MB; the process-wide figure also holds
        // what the suites running beside this one allocate meanwhile (50 MB seen in a full run).
        #expect(growth < 64 << 20, "resident memory grew by \(growth) bytes")
        print("FLAC: \(totalFrames) stereo frames in \(seconds) s; resident growth \(growth / 1024) KiB")
    }
}
