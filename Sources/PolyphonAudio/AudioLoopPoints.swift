import Foundation

/// Where a game engine loops an audio file: it plays the file up to ``end`` and then jumps back
/// to ``start``, again and again. In sample frames.
public struct AudioLoopPoints: Sendable, Hashable {
    /// The first frame of the loop.
    public var start: Int64
    /// The frame after the loop's last.
    public var end: Int64

    public init(start: Int64, end: Int64) {
        self.start = start
        self.end = end
    }

    /// Frames in one pass of the loop.
    public var length: Int64 { end - start }

    /// Writes the loop points into a finished audio file, in the form its format's readers
    /// look for:
    ///
    /// - WAV: a `smpl` chunk with one forward loop (its end is the loop's last frame, inclusive,
    ///   as the chunk counts it) and a `cue ` chunk with points at the start and the end.
    /// - AIFF: `MARK` markers at the start and the end and an `INST` chunk whose sustain loop
    ///   runs between them.
    /// - FLAC, Ogg Vorbis and Opus: the Vorbis comments `LOOPSTART` and `LOOPLENGTH` (in
    ///   samples, the convention of RPG Maker and the engines that follow it), added to the
    ///   comments the file has.
    /// - CAF and MP3: nothing (``writesInto(_:)`` is false); the loop lives beside the file.
    ///
    /// - Throws: ``AudioFileError`` when the file cannot be read or rewritten, or is not the
    ///   format named.
    public func write(intoFileAt path: String, format: AudioFileFormat) throws {
        switch format {
        case .wav: try RIFFLoopChunks.appendToWAV(self, path: path)
        case .aiff: try RIFFLoopChunks.appendToAIFF(self, path: path)
        case .flac: try VorbisCommentPatch.addToFLAC(comments, path: path)
        case .ogg, .opus: try VorbisCommentPatch.addToOgg(comments, path: path)
        case .caf, .mp3: break
        }
    }

    /// Whether ``write(intoFileAt:format:)`` puts loop points inside files of `format`.
    public static func writesInto(_ format: AudioFileFormat) -> Bool {
        switch format {
        case .wav, .aiff, .flac, .ogg, .opus: return true
        case .caf, .mp3: return false
        }
    }

    /// `LOOPSTART=…`, `LOOPLENGTH=…`.
    var comments: [String] { ["LOOPSTART=\(start)", "LOOPLENGTH=\(length)"] }
}
