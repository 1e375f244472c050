import Foundation
import PolyphonAudio
import PolyphonMIDI

/// Target level for peak normalisation.
public struct PeakNormalization: Sendable, Hashable {
    /// Peak level to reach, in dBFS (≤ 0).
    public var targetDecibels: Double

    public init(targetDecibels: Double = -1) { self.targetDecibels = targetDecibels }

    /// Parses `peak` or `peak=-1`, `peak=-1dBFS`, `peak=-0.3dB`.
    public init?(argument: String) {
        let a = argument.lowercased()
        guard a.hasPrefix("peak") else { return nil }
        var rest = a.dropFirst(4)
        if rest.isEmpty { self.init(); return }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst()
        for suffix in ["dbfs", "db"] where rest.hasSuffix(suffix) { rest = rest.dropLast(suffix.count) }
        guard let v = Double(rest), v <= 0, v > -200 else { return nil }
        self.init(targetDecibels: v)
    }
}

/// Where and how a render is written.
public struct AudioFileTarget: Sendable {
    public var path: String
    public var format: AudioFileFormat
    public var sampleFormat: SampleFormat
    public var normalization: PeakNormalization?

    public init(path: String, format: AudioFileFormat, sampleFormat: SampleFormat,
                normalization: PeakNormalization? = nil) {
        self.path = path
        self.format = format
        self.sampleFormat = sampleFormat
        self.normalization = normalization
    }
}

/// The figures of a file render: the render summary plus integrated loudness of what was written.
public struct FileRenderSummary: Sendable {
    public var render: RenderSummary
    /// Integrated loudness (ITU-R BS.1770) of the written audio, LUFS.
    public var loudness: Double
    /// Peak of the written audio (after normalisation), dBFS.
    public var peakDecibels: Double
    /// Gain applied by normalisation, dB (0 without).
    public var normalizationGain: Double
    /// What a picture needs of the written audio, when the render was asked to analyse it.
    public var analysis: RenderAnalysis?
}

extension OfflineRenderer {
    /// Renders a MIDI file into an audio file. Memory stays flat with song length: blocks stream
    /// to the writer. Peak normalisation renders once into a temporary float file, then streams
    /// it scaled into the target — never rendering twice. With `analyzing`, the audio written
    /// is also analysed for a ``RenderPicture`` as it goes (``FileRenderSummary/analysis``).
    public func render(_ file: MIDIFile, to target: AudioFileTarget, analyzing: Bool = false,
                       progress: ((RenderProgress) -> Void)? = nil) throws -> FileRenderSummary {
        try options.maxDuration.check(file, leadIn: options.leadIn)
        let timeline = Timeline(file: file, sampleRate: options.sampleRate, leadIn: options.leadIn)
        return try render(timeline, to: target, analyzing: analyzing, progress: progress)
    }

    /// Renders a prepared timeline (events already on their frames) into an audio file, as
    /// ``render(_:to:analyzing:progress:)-(MIDIFile,_,_,_)`` does a MIDI file.
    public func render(_ schedule: Timeline, to target: AudioFileTarget, analyzing: Bool = false,
                       progress: ((RenderProgress) -> Void)? = nil) throws -> FileRenderSummary {
        // A loop render that cannot be made leaves no file behind.
        _ = try loopPlan(schedule)
        let rate = options.sampleRate
        var meter = LoudnessMeter(sampleRate: rate, channelCount: 2)
        // The analysis has a meter of its own; with one, the file's loudness is its.
        var analysis = analyzing ? RenderAnalysis(sampleRate: rate, expectedFrames: schedule.lastEventFrame
                                                      + Int64(options.maxTail * rate)) : nil
        if let normalization = target.normalization {
            let tempPath = NSTemporaryDirectory() + "polyphon-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).raw"
            guard let temp = fopen(tempPath, "w+b") else {
                throw AudioFileError.cannotOpen(path: tempPath, reason: String(cString: strerror(errno)))
            }
            defer { fclose(temp); unlink(tempPath) }
            let interleaved = UnsafeMutablePointer<Float>.allocate(capacity: 2 * max(64, options.blockSize))
            defer { interleaved.deallocate() }
            let summary = try render(schedule, into: { l, r, n in
                for i in 0..<n { interleaved[2 * i] = l[i]; interleaved[2 * i + 1] = r[i] }
                if fwrite(interleaved, MemoryLayout<Float>.size * 2, n, temp) != n {
                    throw AudioFileError.ioFailure(path: tempPath, reason: String(cString: strerror(errno)))
                }
            }, progress: progress)
            let gainDB = summary.peak > 0 ? normalization.targetDecibels - summary.peakDecibels : 0
            let gain = Float(pow(10, gainDB / 20))
            let writer = try makeAudioFileWriter(path: target.path, format: target.format,
                                                 sampleFormat: target.sampleFormat, channelCount: 2, sampleRate: rate)
            rewind(temp)
            let block = 4096
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 2 * block)
            defer { buffer.deallocate() }
            var peak: Float = 0
            while true {
                let n = fread(buffer, MemoryLayout<Float>.size * 2, block, temp)
                if n == 0 { break }
                for i in 0..<(2 * n) { buffer[i] *= gain }
                let chunk = UnsafeBufferPointer(start: buffer, count: 2 * n)
                peak = LoudnessMeter.largestMagnitude(in: chunk, floor: peak)
                if analysis != nil {
                    analysis!.process(interleaved: buffer, count: n)
                } else {
                    meter.process(interleaved: chunk, frameCount: n)
                }
                try writer.write(interleaved: chunk, frameCount: n)
            }
            try writer.close()
            try writeLoop(summary.loop, beside: target)
            return FileRenderSummary(render: summary, loudness: analysis?.integratedLoudness ?? meter.integratedLoudness,
                                     peakDecibels: peak > 0 ? 20 * log10(Double(peak)) : -.infinity,
                                     normalizationGain: gainDB, analysis: analysis)
        }
        let writer = try makeAudioFileWriter(path: target.path, format: target.format,
                                             sampleFormat: target.sampleFormat, channelCount: 2, sampleRate: rate)
        // One array of channel pointers for the whole render, updated in place: building a new
        // one per block would allocate on every block.
        var channels = [UnsafeBufferPointer<Float>](repeating: UnsafeBufferPointer(start: nil, count: 0), count: 2)
        let consume: BlockPipeline.Consumer = { l, r, n in
            channels[0] = UnsafeBufferPointer(start: l, count: n)
            channels[1] = UnsafeBufferPointer(start: r, count: n)
            if analysis != nil {
                analysis!.process(left: l, right: r, count: n)
            } else {
                meter.process(planar: channels, frameCount: n)
            }
            try writer.write(planar: channels, frameCount: n)
        }
        var summary: RenderSummary
        if ProcessInfo.processInfo.activeProcessorCount > 1 {
            // Metering, encoding and writing run on a second core while the synthesizer renders
            // the next blocks. The summary's time then covers the whole job, writing included.
            let started = DispatchTime.now().uptimeNanoseconds
            let pipeline = BlockPipeline(blockCapacity: max(64, options.blockSize), consumer: consume)
            do {
                summary = try render(schedule, into: { l, r, n in try pipeline.push(l, r, n) }, progress: progress)
            } catch {
                try? pipeline.finish()
                throw error
            }
            try pipeline.finish()
            summary.elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        } else {
            summary = try render(schedule, into: consume, progress: progress)
        }
        try writer.close()
        try writeLoop(summary.loop, beside: target)
        return FileRenderSummary(render: summary, loudness: analysis?.integratedLoudness ?? meter.integratedLoudness,
                                 peakDecibels: summary.peakDecibels, normalizationGain: 0, analysis: analysis)
    }

    /// A loop-ready render's loop points: in the file (where its format has a place for them)
    /// and in `OUT.loop.json` beside it.
    private func writeLoop(_ loop: RenderedLoop?, beside target: AudioFileTarget) throws {
        guard let loop else { return }
        try loop.audioLoopPoints.write(intoFileAt: target.path, format: target.format)
        let path = RenderedLoop.jsonPath(besideAudioFileAt: target.path)
        do {
            try loop.json(sampleRate: options.sampleRate).write(to: URL(fileURLWithPath: path))
        } catch {
            throw AudioFileError.ioFailure(path: path, reason: error.localizedDescription)
        }
    }
}
