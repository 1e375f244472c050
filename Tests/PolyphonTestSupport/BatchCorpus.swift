import Foundation
import PolyphonMIDI

/// MIDI corpora for the batch tests (the library's and the CLI's), built in code: good songs in a small tree, and files broken
/// in the ways real corpora are (cut short, not MIDI at all, asking for absurd lengths).
public enum BatchCorpus {
    /// A format-1 song at 480 PPQN, 120 BPM: `notes` as (channel, key, start tick, length in
    /// ticks), plus program changes at tick 0.
    public static func song(_ notes: [(channel: UInt8, key: UInt8, start: Int, length: Int)],
                     programs: [UInt8: UInt8] = [:], extra: [MIDIEvent] = []) -> MIDIFile {
        var events: [MIDIEvent] = [MIDIEvent(tick: 0, message: .meta(.tempo(microsecondsPerQuarterNote: 500_000)))]
        for (channel, program) in programs.sorted(by: { $0.key < $1.key }) {
            events.append(MIDIEvent(tick: 0, message: .programChange(channel: channel, program: program)))
        }
        for n in notes {
            events.append(MIDIEvent(tick: n.start, message: .noteOn(channel: n.channel, note: n.key, velocity: 100)))
            events.append(MIDIEvent(tick: n.start + n.length, message: .noteOff(channel: n.channel, note: n.key, velocity: 0)))
        }
        events += extra
        events = events.enumerated().sorted { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }.map(\.element)
        events.append(MIDIEvent(tick: events.last?.tick ?? 0, message: .meta(.endOfTrack)))
        return MIDIFile(format: .multipleTracks, division: .ticksPerQuarterNote(480), tracks: [MIDITrack(events: events)])
    }

    /// A little tune of `seconds` seconds: a note every quarter second on two channels and a
    /// drum every half second, `variant` transposing it so songs differ.
    public static func tune(seconds: Double, variant: Int = 0) -> MIDIFile {
        var notes: [(channel: UInt8, key: UInt8, start: Int, length: Int)] = []
        let steps = Int(seconds * 4)
        for k in 0..<steps {
            notes.append((0, UInt8(48 + (k * 7 + variant) % 24), k * 240, 200))
            notes.append((1, UInt8(60 + (k * 5 + variant) % 12), k * 240 + 60, 400))
            if k % 2 == 0 { notes.append((9, 38, k * 240, 100)) }
        }
        return song(notes)
    }

    public static func write(_ file: MIDIFile, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try file.write(to: URL(fileURLWithPath: path))
    }

    public static func write(bytes: [UInt8], to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Good songs, relative to the corpus root (two share the name a.mid in different
    /// directories; one has an upper-case extension).
    public static let good = ["a.mid", "sub/a.mid", "sub/deeper/b.midi", "sub/C.MID", "karaoke.kar"]
    /// Broken files and the words their report line must contain.
    public static let broken: [(path: String, reason: String)] = [
        ("broken/truncated.mid", "truncated.mid"),
        ("broken/garbage.mid", "garbage.mid"),
        ("broken/years.mid", "--max-duration"),
    ]

    /// Writes the corpus under `root`: the good songs (2–3 s each), the broken files, and a
    /// file that is not MIDI by name (skipped by the directory search).
    public static func make(at root: String) throws {
        for (i, name) in good.enumerated() {
            try write(tune(seconds: 2 + Double(i % 2), variant: i), to: root + "/" + name)
        }
        let whole = tune(seconds: 2).serialized()
        // Cut short inside its header. (A file cut inside a track is read up to the cut, with a
        // warning, and renders what is there.)
        try write(bytes: Array(whole.prefix(11)), to: root + "/broken/truncated.mid")
        try write(bytes: Array("This is not a MIDI file, just text with a .mid name.".utf8), to: root + "/broken/garbage.mid")
        // 30 bytes asking for 142 years: the slowest tempo and the longest delta time.
        try write(bytes: Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 1]
                  + Array("MTrk".utf8) + [0, 0, 0, 20, 0x00, 0xFF, 0x51, 0x03, 0xFF, 0xFF, 0xFF, 0x00, 0x90, 0x45, 0x64,
                                          0xFF, 0xFF, 0xFF, 0x7F, 0x80, 0x45, 0x00, 0x00, 0xFF, 0x2F],
                  to: root + "/broken/years.mid")
        try Data("not a song".utf8).write(to: URL(fileURLWithPath: root + "/notes.txt"))
    }
}
