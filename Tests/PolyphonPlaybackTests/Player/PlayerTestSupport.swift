import Foundation
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth

/// Tiny banks and helpers for the player tests.
enum PlayerTestBank {
    /// A looped sine (100 points a period at 44.1 kHz: 441 Hz at key 69) with a 0.1 s release, so
    /// a note that never gets its note-off sounds until the player's maximum tail.
    static let sine: SoundFont = {
        let pcm = (0..<2000).map { Int16((12000 * sin(2 * Double.pi * Double($0) / 100)).rounded()) }
        return SoundFont.singleSample(pcm, originalPitch: 69, loop: 100..<2000,
                                      instrumentGenerators: [Generator(.releaseVolEnv, -4000)])
    }()

    /// The engine without effects: what a voice renders is all there is.
    static var dry: SynthesizerConfiguration {
        var configuration = SynthesizerConfiguration()
        configuration.reverbEnabled = false
        configuration.chorusEnabled = false
        return configuration
    }
}

/// The seed's song (SEEDS.md §4): program 48, 240 BPM, one-beat notes, then a three-beat dyad.
func seedSong() -> Song {
    var song = Song()
    song.replaceTempo(240)
    song.addTrack(program: 48) { track in
        track.notes([64, 63, 64, 63, 64, 59, 62, 60], beats: 1)
        track.chord([57, 45], beats: 3)
    }
    return song
}

/// Stereo audio collected from render calls.
struct Capture {
    var left: [Float] = []
    var right: [Float] = []
    var count: Int { left.count }

    mutating func append(_ l: UnsafePointer<Float>, _ r: UnsafePointer<Float>, _ n: Int) {
        left.append(contentsOf: UnsafeBufferPointer(start: l, count: n))
        right.append(contentsOf: UnsafeBufferPointer(start: r, count: n))
    }

    /// The largest difference between this capture from `offset` on and `other` from 0.
    func maximumDifference(from offset: Int, to other: Capture) -> Float {
        var worst: Float = 0
        for i in 0..<other.count where offset + i < count {
            worst = max(worst, abs(left[offset + i] - other.left[i]), abs(right[offset + i] - other.right[i]))
        }
        return worst
    }

    var peak: Float { max(left.map(abs).max() ?? 0, right.map(abs).max() ?? 0) }
}

extension MIDIPlayer {
    /// Renders `frames` frames in blocks of `block`, delivering callbacks after each block.
    func capture(frames: Int, block: Int = 512, into capture: inout Capture) {
        let l = UnsafeMutablePointer<Float>.allocate(capacity: block)
        let r = UnsafeMutablePointer<Float>.allocate(capacity: block)
        defer { l.deallocate(); r.deallocate() }
        var done = 0
        while done < frames {
            let n = min(block, frames - done)
            render(left: l, right: r, frameCount: n)
            capture.append(l, r, n)
            deliverCallbacks()
            done += n
        }
    }

    /// Plays to completion and returns the audio.
    @discardableResult
    func bounce(block: Int = 1000, maximumDuration: Double? = nil) throws -> Capture {
        var capture = Capture()
        try renderToCompletion(blockSize: block, maximumDuration: maximumDuration) { l, r, n in capture.append(l, r, n) }
        return capture
    }
}

/// A song frame at 44.1 kHz, rounded as the player and the offline renderer round.
func frame(atBeat beat: Double, of song: Song) -> Int64 {
    Int64((song.seconds(atBeat: beat) * 44100).rounded())
}
