import Foundation
import PolyphonMIDI

/// What `polyphon info x.mid` prints about a MIDI file, as text or (with `--json`) as JSON.
///
/// JSON keys (stable; camelCase):
/// - `path` (string): the path the file was read from.
/// - `format` (number): 0, 1 or 2.
/// - `division` (object): `type` is `"ticksPerQuarterNote"` or `"smpte"`;
///   `ticksPerQuarterNote` (number, PPQN only); `framesPerSecond` (number: 24, 25, 29.97 or 30)
///   and `ticksPerFrame` (number), SMPTE only.
/// - `tracks` (array), one object per track chunk in file order: `index` (0-based),
///   `name` (string or absent: the first track-name meta event), `eventCount` (events including
///   the end of track), `noteCount` (note-ons with velocity > 0), `channels` (array of MIDI
///   channel numbers 1…16, ascending), `programs` (array of program numbers 0…127 in the order
///   first used, each once).
/// - `noteCount` (number): notes in the whole file.
/// - `tempoChanges` (array): `tick`, `seconds`, `microsecondsPerQuarterNote` and
///   `beatsPerMinute` of each tempo event (format 2: those of the first track).
/// - `durationSeconds` (number): time of the last event of any track.
/// - `tuning` (array): the MIDI Tuning Standard messages and RPN 3/4 tuning selections, one
///   object each (``TuningMessageReport``).
/// - `loop` (object, only when the file marks a usable loop): `startSeconds`, `endSeconds`,
///   `startTick`, `endTick` and `source` (`"markers"`, `"cc111"` or `"emidi"`).
/// - `warnings` (array of strings): the defects the reader repaired, tuning messages that
///   cannot be read, and why loop marks were not used, one line each.
struct MIDIFileReport: Codable, Sendable, Equatable {
    /// The division, as in the `division` JSON object.
    struct DivisionReport: Codable, Sendable, Equatable {
        var type: String
        var ticksPerQuarterNote: Int?
        var framesPerSecond: Double?
        var ticksPerFrame: Int?
    }

    /// One track, as in the `tracks` JSON array.
    struct TrackReport: Codable, Sendable, Equatable {
        var index: Int
        var name: String?
        var eventCount: Int
        var noteCount: Int
        var channels: [Int]
        var programs: [Int]
    }

    /// One tempo event, as in the `tempoChanges` JSON array.
    struct TempoChangeReport: Codable, Sendable, Equatable {
        var tick: Int
        var seconds: Double
        var microsecondsPerQuarterNote: Int
        var beatsPerMinute: Double
    }

    var path: String
    var format: Int
    var division: DivisionReport
    var tracks: [TrackReport]
    var noteCount: Int
    var tempoChanges: [TempoChangeReport]
    var durationSeconds: Double
    var tuning: [TuningMessageReport]
    var loop: LoopReport?
    var warnings: [String]

    /// The song's loop, as in the `loop` JSON object.
    struct LoopReport: Codable, Sendable, Equatable {
        var startSeconds: Double
        var endSeconds: Double
        var startTick: Int
        var endTick: Int
        var source: String
    }

    /// Summarises `file`, read from `path`.
    init(file: MIDIFile, path: String) {
        self.path = path
        format = Int(file.format.rawValue)
        switch file.division {
        case .ticksPerQuarterNote(let ticks):
            division = DivisionReport(type: "ticksPerQuarterNote", ticksPerQuarterNote: Int(ticks))
        case .smpte(let framesPerSecond, let ticksPerFrame):
            let rate = (Division.frameRate(forCode: framesPerSecond) * 100).rounded() / 100
            division = DivisionReport(type: "smpte", framesPerSecond: rate, ticksPerFrame: Int(ticksPerFrame))
        }
        tracks = file.tracks.enumerated().map { index, track in
            var programs: [Int] = []
            for event in track.events {
                if case .programChange(_, let program) = event.message, !programs.contains(Int(program)) {
                    programs.append(Int(program))
                }
            }
            return TrackReport(index: index, name: track.name, eventCount: track.events.count,
                               noteCount: track.noteCount, channels: track.channels.map { Int($0) + 1 },
                               programs: programs)
        }
        noteCount = file.noteCount
        let map = file.tempoMap()
        let tempoTracks = file.format == .independentTracks ? Array(file.tracks.prefix(1)) : file.tracks
        var changes: [TempoChangeReport] = []
        for track in tempoTracks {
            for event in track.events {
                guard case .meta(.tempo(let microseconds)) = event.message else { continue }
                changes.append(TempoChangeReport(
                    tick: event.tick, seconds: map.seconds(atTick: event.tick),
                    microsecondsPerQuarterNote: Int(microseconds),
                    beatsPerMinute: microseconds == 0 ? 0 : 60_000_000 / Double(microseconds)))
            }
        }
        tempoChanges = changes.enumerated().sorted { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }.map(\.element)
        durationSeconds = file.duration
        tuning = TuningMessageReport.all(in: file)
        let search = file.findLoop()
        loop = search.loop.map {
            LoopReport(startSeconds: map.seconds(atTick: $0.startTick), endSeconds: map.seconds(atTick: $0.endTick),
                       startTick: $0.startTick, endTick: $0.endTick, source: $0.source.rawValue)
        }
        warnings = file.warnings.map(\.description)
            + tuning.filter { $0.error != nil }.map { "track \($0.track), tick \($0.tick): \($0.summary)" }
            + search.warnings.map(\.description)
        loopText = search.loop.map { loop in
            let bars = "bars \(Self.barBeat(atTick: loop.startTick, in: file)) – \(Self.barBeat(atTick: loop.endTick, in: file))"
            let passes = loop.count.map { $0 == 0 ? ", for ever" : ", \($0) times" } ?? ""
            return String(format: "%.3f s – %.3f s", map.seconds(atTick: loop.startTick), map.seconds(atTick: loop.endTick))
                + " (\(bars), ticks \(loop.startTick) – \(loop.endTick)), from \(loop.source.name)\(passes)"
        }
    }

    /// The loop line of the text form (not in the JSON).
    private var loopText: String?

    private enum CodingKeys: String, CodingKey {
        case path, format, division, tracks, noteCount, tempoChanges, durationSeconds, tuning, loop, warnings
    }

    /// `bar:beat` (both from 1) of a tick under the file's time signatures, the beat with its
    /// fraction when the tick falls between beats.
    static func barBeat(atTick tick: Int, in file: MIDIFile) -> String {
        guard case .ticksPerQuarterNote(let tpq) = file.division, tpq > 0 else { return "?" }
        var signatures: [(tick: Int, signature: TimeSignature)] = []
        for track in file.format == .independentTracks ? Array(file.tracks.prefix(1)) : file.tracks {
            for event in track.events {
                if case .meta(.timeSignature(let signature)) = event.message { signatures.append((event.tick, signature)) }
            }
        }
        signatures.sort { $0.tick < $1.tick }
        var bar = 0
        var barStart = 0
        var beatTicks = Double(tpq)
        var beatsPerBar = 4
        for (at, signature) in signatures where at <= tick {
            // Whole bars up to the change (a change mid-bar starts a new bar).
            let barTicks = beatTicks * Double(beatsPerBar)
            let bars = Int((Double(at - barStart) / barTicks).rounded(.up))
            bar += bars
            barStart = at
            beatTicks = signature.denominator > 0 ? Double(tpq) * 4 / Double(signature.denominator) : Double(tpq)
            beatsPerBar = max(1, Int(signature.numerator))
        }
        let barTicks = beatTicks * Double(beatsPerBar)
        let offset = Double(tick - barStart)
        bar += Int((offset / barTicks).rounded(.down))
        let beat = (offset - Double(Int((offset / barTicks).rounded(.down))) * barTicks) / beatTicks + 1
        let beatText = beat == beat.rounded() ? String(Int(beat)) : String(format: "%.2f", beat)
        return "\(bar + 1):\(beatText)"
    }

    /// A summary readable at a glance.
    var text: String {
        var lines: [String] = []
        lines.append("\(path)")
        let divisionText: String
        if let ticks = division.ticksPerQuarterNote {
            divisionText = "\(ticks) ticks per quarter note"
        } else {
            divisionText = "SMPTE \(formatNumber(division.framesPerSecond ?? 0)) fps × \(division.ticksPerFrame ?? 0) ticks per frame"
        }
        lines.append("  format \(format), \(divisionText), \(tracks.count) track\(tracks.count == 1 ? "" : "s")")
        lines.append("  duration \(String(format: "%.3f", durationSeconds)) s (\(clock(durationSeconds))), \(noteCount) notes")
        if tempoChanges.isEmpty {
            lines.append("  tempo: 120 BPM (default, no tempo events)")
        } else {
            let shown = tempoChanges.prefix(8).map { "\(formatNumber($0.beatsPerMinute)) BPM at \(String(format: "%.2f", $0.seconds)) s" }
            let more = tempoChanges.count > 8 ? ", … (\(tempoChanges.count) in all)" : ""
            lines.append("  tempo: " + shown.joined(separator: ", ") + more)
        }
        lines.append("  tracks:")
        for track in tracks {
            var parts = ["\(track.eventCount) events", "\(track.noteCount) notes"]
            if !track.channels.isEmpty {
                parts.append("channel\(track.channels.count == 1 ? "" : "s") " + track.channels.map(String.init).joined(separator: ","))
            }
            if !track.programs.isEmpty {
                parts.append("program\(track.programs.count == 1 ? "" : "s") " + track.programs.map(String.init).joined(separator: ","))
            }
            let name = track.name.map { "\"\($0)\"" } ?? "(unnamed)"
            lines.append("    \(track.index): \(name) — " + parts.joined(separator: ", "))
        }
        if !tuning.isEmpty {
            lines.append("  tuning:")
            lines += tuning.prefix(24).map { "    \($0.text)" }
            if tuning.count > 24 { lines.append("    … (\(tuning.count) in all; --json lists every one)") }
        }
        if let loopText { lines.append("  loop: \(loopText)") }
        if !warnings.isEmpty {
            lines.append("  warnings:")
            lines += warnings.map { "    \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    private func formatNumber(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value)
    }

    private func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        return String(format: "%d:%02d", total / 60, total % 60)
    }
}
