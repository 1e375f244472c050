import Foundation
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth
@_exported import PolyphonTestSupport

enum Fixtures {
    /// A looped 441 Hz sine (100 points per period at 44.1 kHz) recorded at key 69.
    static func sineBank(generators: [Generator] = []) -> SoundFont {
        let pcm = (0..<4400).map { Int16((16000 * sin(2 * Double.pi * Double($0) / 100)).rounded()) }
        return SoundFont.singleSample(pcm, sampleRate: 44_100, originalPitch: 69, loop: 100..<4400,
                                      instrumentGenerators: generators)
    }

    /// A format-1 file at 480 PPQN, 120 BPM (960 ticks per second): notes as
    /// (channel, key, start tick, length in ticks), each on its own track per channel.
    static func song(_ notes: [(channel: UInt8, key: UInt8, start: Int, length: Int)],
                     extra: [MIDIEvent] = []) -> MIDIFile {
        var byChannel: [UInt8: [MIDIEvent]] = [:]
        for n in notes {
            byChannel[n.channel, default: []] += [
                MIDIEvent(tick: n.start, message: .noteOn(channel: n.channel, note: n.key, velocity: 100)),
                MIDIEvent(tick: n.start + n.length, message: .noteOff(channel: n.channel, note: n.key, velocity: 0)),
            ]
        }
        var tracks = [MIDITrack(events: extra.sorted { $0.tick < $1.tick } + [MIDIEvent(tick: extra.map(\.tick).max() ?? 0, message: .meta(.endOfTrack))])]
        for ch in byChannel.keys.sorted() {
            let events = byChannel[ch]!.sorted { $0.tick < $1.tick }
            tracks.append(MIDITrack(events: events + [MIDIEvent(tick: events.last!.tick, message: .meta(.endOfTrack))]))
        }
        return MIDIFile(format: .multipleTracks, division: .ticksPerQuarterNote(480), tracks: tracks)
    }

    static var tempDirectory: String { TemporaryDirectory.forThisProcess(prefix: "polyphon-tests") }
}

/// Collects rendered audio in memory.
final class RenderCapture {
    var left: [Float] = []
    var right: [Float] = []
    var sink: OfflineRenderer.Sink {
        { [self] l, r, n in
            left.append(contentsOf: UnsafeBufferPointer(start: l, count: n))
            right.append(contentsOf: UnsafeBufferPointer(start: r, count: n))
        }
    }
}


extension RenderCapture {
    /// The largest difference between this capture (a mix) and the sum of `stems`, sample by
    /// sample on both channels.
    func largestDifference(fromSumOf stems: some Collection<RenderCapture>) -> Float {
        var largest: Float = 0
        for i in 0..<left.count {
            let l = stems.reduce(Float(0)) { $0 + $1.left[i] }
            let r = stems.reduce(Float(0)) { $0 + $1.right[i] }
            largest = max(largest, abs(l - left[i]), abs(r - right[i]))
        }
        return largest
    }
}
