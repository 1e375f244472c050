/// The section of a song that repeats while a game plays it, as the file marks it.
///
/// Three conventions are read (``MIDIFile/findLoop()``): RPG Maker's controller 111 (the loop
/// starts there and ends at the end of the song), markers named `loopStart` / `loopEnd` (any
/// case, with or without `_`, `-` or a space: `LoopStart`, `loop_start`, `LOOP END`…), and
/// EMIDI's controllers 116 (start) and 117 (end).
public struct MIDILoop: Sendable, Hashable {
    /// Which convention marked the loop.
    public enum Source: String, Sendable, Hashable, CaseIterable {
        /// Markers (or cue points) named `loopStart` / `loopEnd`.
        case markers
        /// RPG Maker: controller 111 at the loop start; the loop ends at the end of the song.
        case controller111 = "cc111"
        /// EMIDI (Apogee): controller 116 at the start, 117 at the end.
        case emidi

        /// How `polyphon info` names it.
        public var name: String {
            switch self {
            case .markers: return "loopStart/loopEnd markers"
            case .controller111: return "controller 111 (RPG Maker)"
            case .emidi: return "EMIDI controllers 116/117"
            }
        }
    }

    /// The first tick of the loop.
    public var startTick: Int
    /// The tick the loop jumps back from (not part of the loop).
    public var endTick: Int
    /// Which convention marked it.
    public var source: Source
    /// How many times the file asks the loop to play (EMIDI: the count controller's value;
    /// 0 means for ever), when it says.
    public var count: Int?

    /// Creates a loop.
    public init(startTick: Int, endTick: Int, source: Source, count: Int? = nil) {
        self.startTick = startTick
        self.endTick = endTick
        self.source = source
        self.count = count
    }
}

/// Why a file's loop marks were not used (or not all of them).
public struct MIDILoopWarning: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The loop would end where or before it starts.
        case reversed(startTick: Int, endTick: Int)
        /// Marks of one kind name more than one start (or end).
        case contradictory(MIDILoop.Source, startTicks: [Int], endTicks: [Int])
        /// Two conventions mark different loops; the first one named is used.
        case conventionsDisagree(used: MIDILoop.Source, ignored: MIDILoop.Source)
        /// The end lies more than a bar (four quarter notes) after the song's last note or
        /// other channel event: the loop is kept as marked, and every pass repeats that silence.
        case endAfterMusic(endTick: Int, musicEndTick: Int)
    }

    public var kind: Kind

    public init(kind: Kind) { self.kind = kind }

    public var description: String {
        switch kind {
        case .reversed(let start, let end):
            return "loop end (tick \(end)) is not after its start (tick \(start)): no loop"
        case .contradictory(let source, let starts, let ends):
            func list(_ ticks: [Int]) -> String {
                let shown = ticks.prefix(4).map(String.init).joined(separator: ", ")
                return ticks.count > 4 ? shown + ", …" : shown
            }
            return "\(source.name) mark several loops (starts at ticks \(list(starts)); ends at ticks \(list(ends))): no loop"
        case .conventionsDisagree(let used, let ignored):
            return "\(used.name) and \(ignored.name) mark different loops: using the \(used.name)"
        case .endAfterMusic(let end, let musicEnd):
            return "loop end (tick \(end)) lies \(end - musicEnd) ticks after the music ends (tick \(musicEnd)): every pass repeats that silence"
        }
    }
}

/// What ``MIDIFile/findLoop()`` found.
public struct MIDILoopSearch: Sendable, Hashable {
    /// The loop, if the file marks a usable one.
    public var loop: MIDILoop?
    /// Marks that were contradictory, reversed or out of range.
    public var warnings: [MIDILoopWarning]
}

extension MIDIFile {
    /// The loop the file marks, if a usable one (see ``findLoop()`` for the warnings).
    public var loop: MIDILoop? { findLoop().loop }

    /// Looks for the loop marks of every convention ``MIDILoop`` reads.
    ///
    /// Markers win over controller 111, and controller 111 over EMIDI, when several mark
    /// loops. Marks of one kind must agree: starts at several ticks, ends at several ticks, or
    /// an end not after its start give a warning and no loop. A missing start is the song's
    /// start; a missing end (and controller 111's end always) is the song's end, its last event.
    /// An end mark more than a bar (four quarter notes) after the last channel event gives a
    /// warning but is kept: a loop that ends on a bar line after the last note is normal.
    /// One pass over the events: a file with thousands of marks costs no more than its length.
    public func findLoop() -> MIDILoopSearch {
        var songEnd = 0, musicEnd = 0
        let sources: [MIDILoop.Source] = [.markers, .controller111, .emidi]
        var marks = [LoopMarks](repeating: LoopMarks(), count: sources.count)
        var emidiStartCount: Int?
        for track in tracks {
            for event in track.events {
                songEnd = max(songEnd, event.tick)
                if case .meta = event.message {} else { musicEnd = max(musicEnd, event.tick) }
                switch event.message {
                case .controlChange(_, 111, _):
                    marks[1].add(start: event.tick)
                case .controlChange(_, 116, let value):
                    emidiStartCount = Int(value)
                    marks[2].add(start: event.tick)
                case .controlChange(_, 117, let value):
                    // The end's value counts; EMIDI's own files put 127 there and the count on
                    // the start.
                    marks[2].add(end: event.tick)
                    marks[2].count = value == 127 ? emidiStartCount : Int(value)
                case .meta(.text(let kind, let text)) where kind == .marker || kind == .cuePoint:
                    switch Self.loopMarkName(text.bytes) {
                    case .start?: marks[0].add(start: event.tick)
                    case .end?: marks[0].add(end: event.tick)
                    case nil: break
                    }
                default:
                    break
                }
            }
        }
        var warnings: [MIDILoopWarning] = []
        var found: [MIDILoop] = []
        // SMPTE-timed files have no quarter note: a bar is then taken as 0 ticks.
        let bar = 4 * (ticksPerQuarterNote ?? 0)
        for (source, entry) in zip(sources, marks) where !entry.starts.isEmpty || !entry.ends.isEmpty {
            if entry.starts.count > 1 || entry.ends.count > 1 {
                warnings.append(MIDILoopWarning(kind: .contradictory(source, startTicks: entry.starts.sorted(),
                                                                     endTicks: entry.ends.sorted())))
                continue
            }
            let start = entry.starts.first ?? 0
            let end = source == .controller111 ? songEnd : (entry.ends.first ?? songEnd)
            guard end > start else {
                warnings.append(MIDILoopWarning(kind: .reversed(startTick: start, endTick: end)))
                continue
            }
            if entry.ends.first != nil, source != .controller111, end - musicEnd > bar {
                warnings.append(MIDILoopWarning(kind: .endAfterMusic(endTick: end, musicEndTick: musicEnd)))
            }
            found.append(MIDILoop(startTick: start, endTick: end, source: source,
                                  count: source == .emidi ? entry.count : nil))
        }
        guard let chosen = found.first else { return MIDILoopSearch(loop: nil, warnings: warnings) }
        for other in found.dropFirst() where (other.startTick, other.endTick) != (chosen.startTick, chosen.endTick) {
            warnings.append(MIDILoopWarning(kind: .conventionsDisagree(used: chosen.source, ignored: other.source)))
        }
        return MIDILoopSearch(loop: chosen, warnings: warnings)
    }

    private enum LoopMark { case start, end }

    /// The distinct ticks one convention marks. At most a few are kept: past two the verdict
    /// (contradictory) cannot change, so thousands of marks cost nothing more.
    private struct LoopMarks {
        var starts: [Int] = []
        var ends: [Int] = []
        var count: Int?

        mutating func add(start tick: Int) {
            if starts.count < 8 && !starts.contains(tick) { starts.append(tick) }
        }

        mutating func add(end tick: Int) {
            if ends.count < 8 && !ends.contains(tick) { ends.append(tick) }
        }
    }

    /// `loopStart`, `loop_start`, `Loop Start`, `LOOPEND`…: letters compared without case,
    /// separators ignored.
    private static func loopMarkName(_ bytes: [UInt8]) -> LoopMark? {
        guard bytes.count <= 32 else { return nil }
        var letters: [UInt8] = []
        for byte in bytes {
            switch byte {
            case 0x41...0x5A: letters.append(byte + 0x20)
            case 0x61...0x7A: letters.append(byte)
            case 0x20, 0x2D, 0x5F, 0x00: continue
            default: return nil
            }
        }
        let start: [UInt8] = Array("loopstart".utf8), end: [UInt8] = Array("loopend".utf8)
        return letters == start ? .start : letters == end ? .end : nil
    }
}

extension Song {
    /// The loop the song marks, read as from its Standard MIDI File (``MIDIFile/findLoop()``),
    /// on the song's ticks.
    public func findLoop() -> MIDILoopSearch {
        midiFile(ticksPerQuarterNote: ticksPerQuarterNote).findLoop()
    }
}
