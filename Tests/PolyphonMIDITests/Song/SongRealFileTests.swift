import Foundation
import Testing
@testable import PolyphonMIDI
@testable import PolyphonMIDICore

/// Songs read from the MIDI files Debian's planetblupi-common installs, written back and compared.
@Suite struct SongRealFileTests {
    static let directory = "/usr/share/planetblupi/music"
    static var available: Bool {
        SongRealTools.isCI || FileManager.default.fileExists(atPath: directory + "/music000.mid")
    }

    /// A track's notes paired first in first out per channel and key; open notes end at `end`.
    func notes(_ track: MIDITrack) -> [String] {
        var open: [Int: [(Int, UInt8)]] = [:]
        var result: [String] = []
        for event in track.events {
            switch event.message {
            case .noteOn(let channel, let key, let velocity) where velocity > 0:
                open[Int(channel) << 7 | Int(key), default: []].append((event.tick, velocity))
            case .noteOn(let channel, let key, _), .noteOff(let channel, let key, _):
                let slot = Int(channel) << 7 | Int(key)
                guard let first = open[slot]?.first else { continue }
                open[slot]?.removeFirst()
                result.append("\(first.0)-\(event.tick) c\(channel) k\(key) v\(first.1)")
            default:
                break
            }
        }
        for (slot, starts) in open {
            for start in starts { result.append("\(start.0)-\(track.endTick) c\(slot >> 7) k\(slot & 127) v\(start.1)") }
        }
        return result.sorted()
    }

    /// Everything in a track but notes, tempo, time signatures and its end, as a sorted list.
    func otherEvents(_ track: MIDITrack) -> [String] {
        track.events.compactMap { event -> String? in
            switch event.message {
            case .noteOn, .noteOff, .meta(.tempo), .meta(.timeSignature), .meta(.endOfTrack): return nil
            default: return "\(event.tick) \(event.message)"
            }
        }.sorted()
    }

    func conductor(_ file: MIDIFile) -> [String] {
        file.tracks.flatMap { track in
            track.events.compactMap { event -> String? in
                switch event.message {
                case .meta(.tempo), .meta(.timeSignature): return "\(event.tick) \(event.message)"
                default: return nil
                }
            }
        }.sorted()
    }

    @Test(.enabled(if: available))
    func realFilesSurviveTheRoundTripThroughASong() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory).filter { $0.hasSuffix(".mid") }.sorted()
        try #require(!names.isEmpty, "planetblupi-common's MIDI files are not installed")
        for name in names {
            let original = try MIDIFile(contentsOfFile: Self.directory + "/" + name)
            let ticks = try #require(original.ticksPerQuarterNote)
            let song = Song(midiFile: original)
            let written = song.midiFile(ticksPerQuarterNote: ticks)
            let back = try MIDIFile(bytes: written.serialized(), name: name)
            #expect(back.tracks.count == original.tracks.count, "\(name)")
            for (index, track) in original.tracks.enumerated() where index < back.tracks.count {
                #expect(notes(back.tracks[index]) == notes(track), "\(name) track \(index) notes")
                #expect(otherEvents(back.tracks[index]) == otherEvents(track), "\(name) track \(index) events")
            }
            #expect(conductor(back) == conductor(original), "\(name) tempo and time signatures")
            #expect(abs(back.duration - original.duration) < 1e-9, "\(name) length")
            print("\(name): \(song.events(categories: [.note]).count) notes, \(song.allEvents.count) events, \(String(format: "%.2f", song.duration)) s")
        }
    }
}
