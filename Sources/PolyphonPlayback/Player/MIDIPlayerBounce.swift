import Foundation
import PolyphonAudio
import PolyphonMIDI

extension MIDIPlayer {
    /// Plays the song from ``currentPosition`` to its completion as fast as the CPU allows,
    /// handing every block to `sink`; the last block ends exactly on the completion frame.
    /// Callbacks are delivered after every block, on the calling thread.
    ///
    /// - Parameters:
    ///   - blockSize: frames per ``render(left:right:frameCount:)`` call.
    ///   - maximumDuration: a cap in seconds of output, for songs that loop forever or span
    ///     years; ``DurationLimit/defaultSeconds`` (4 h) by default, `nil` for none.
    ///   - sink: receives (left, right, frameCount); the buffers are reused after it returns.
    /// - Returns: the number of frames produced.
    @discardableResult
    public func renderToCompletion(blockSize: Int = 1024, maximumDuration: Double? = DurationLimit.defaultSeconds,
                                   into sink: (UnsafePointer<Float>, UnsafePointer<Float>, Int) throws -> Void) throws -> Int64 {
        let block = max(1, blockSize)
        let left = UnsafeMutablePointer<Float>.allocate(capacity: block)
        let right = UnsafeMutablePointer<Float>.allocate(capacity: block)
        defer { left.deallocate(); right.deallocate() }
        let cap = maximumDuration.map { Int64($0 * sampleRate) } ?? .max
        var produced: Int64 = 0
        if !isPlaying { playKeepingCompletionHandler() }
        while produced < cap {
            let blockStart = engine.outputFrame  // both sides are this thread during a bounce
            let count = Int(min(Int64(block), cap - produced))
            render(left: left, right: right, frameCount: count)
            let completion = mailbox.completionFrame.load(ordering: .acquiring)
            let usable = completion >= blockStart ? Int(completion - blockStart) : count
            if usable > 0 { try sink(left, right, usable) }
            produced += Int64(usable)
            deliverCallbacks()
            if completion >= blockStart { break }
        }
        return produced
    }

    /// Plays the song to its completion into an audio file (see
    /// ``renderToCompletion(blockSize:maximumDuration:into:)``).
    ///
    /// - Returns: the number of frames written.
    @discardableResult
    public func render(to target: AudioFileTarget, blockSize: Int = 1024, maximumDuration: Double? = DurationLimit.defaultSeconds) throws -> Int64 {
        let writer = try makeAudioFileWriter(path: target.path, format: target.format, sampleFormat: target.sampleFormat,
                                             channelCount: 2, sampleRate: sampleRate)
        // One pointer array for the whole song, updated in place, so no block allocates.
        var channels = [UnsafeBufferPointer<Float>](repeating: UnsafeBufferPointer(start: nil, count: 0), count: 2)
        let frames = try renderToCompletion(blockSize: blockSize, maximumDuration: maximumDuration) { left, right, count in
            channels[0] = UnsafeBufferPointer(start: left, count: count)
            channels[1] = UnsafeBufferPointer(start: right, count: count)
            try writer.write(planar: channels, frameCount: count)
        }
        try writer.close()
        return frames
    }
}

extension OfflineRenderer {
    /// Renders a song into an audio file, through its Standard MIDI File form at the song's own
    /// resolution (so no position is rounded).
    public func render(_ song: Song, to target: AudioFileTarget,
                       progress: ((RenderProgress) -> Void)? = nil) throws -> FileRenderSummary {
        try render(song.midiFile(ticksPerQuarterNote: song.ticksPerQuarterNote), to: target, progress: progress)
    }

    /// Renders a song into a sink (see ``render(_:into:progress:)-(MIDIFile,_,_)``).
    @discardableResult
    public func render(_ song: Song, into sink: Sink, progress: ((RenderProgress) -> Void)? = nil) throws -> RenderSummary {
        try render(song.midiFile(ticksPerQuarterNote: song.ticksPerQuarterNote), into: sink, progress: progress)
    }
}
