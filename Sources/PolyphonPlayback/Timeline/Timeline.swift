import PolyphonMIDI
import PolyphonSoundFont
import PolyphonSynth

/// A song's events as a synthesizer hears them, each stamped with its frame: the one schedule
/// the offline renderer and ``MIDIPlayer`` both play (through one engine).
///
/// Built once, then read without locks. From a Standard MIDI File it holds the file's messages
/// in the order a player sends them (port meta events route a track's channels to the port's
/// group of 16, so multi-port files play on 32+ channels); from a `Song` it holds each note as
/// a note-on that knows its note-off, so an edit while playing can neither cut nor hang a note.
public struct Timeline: Sendable {
    public struct Event: Sendable, Hashable {
        /// Output frame, from the start of the render (lead-in included).
        public var frame: Int64
        /// Index of the track the event came from.
        public var track: Int
        /// The group of 16 channels the message's channel belongs to (port meta events).
        public var port: Int
        /// A channel voice message or a complete system-exclusive message; in a song's
        /// timeline also the meta events, for callbacks.
        public var message: MIDIMessage
        /// A song note's end: the engine sends its note-off itself.
        var noteEnd: NoteEnd?
        /// The index of the song event this event plays in ``Timeline/songEvents`` (−1: none,
        /// or not the event its callbacks come from).
        var source: Int32 = -1

        /// An event on `frame`, from `track`, for the channels of `port`.
        public init(frame: Int64, track: Int = 0, port: Int = 0, message: MIDIMessage) {
            self.frame = frame
            self.track = track
            self.port = port
            self.message = message
        }

        /// Whether the synthesizer gets anything from the event.
        var reachesSynthesizer: Bool {
            switch message {
            case .meta, .sysExContinuation: return false
            default: return true
            }
        }
    }

    /// When a song note's note-off is due.
    struct NoteEnd: Sendable, Hashable {
        var frame: Int64
        var releaseVelocity: UInt8
    }

    public let events: [Event]
    /// Frame of the last event (end of track included), lead-in included.
    public let lastEventFrame: Int64
    /// Where the song is over and its tail begins: one frame after ``lastEventFrame`` when that
    /// frame carries something for the synthesizer (so it is heard), else ``lastEventFrame``.
    public let endFrame: Int64
    /// Highest port used, so the synthesizer gets enough channels.
    public let portCount: Int
    public let sampleRate: Double
    /// The song's length in seconds (its last event, end of track included), lead-in not
    /// included.
    public let duration: Double
    /// The loop the engine repeats, if any, on this timeline's frames (a file's marked loop,
    /// `MIDILoop`).
    public internal(set) var loop: TimelineLoop?
    /// A song timeline's events as the song holds them (for callbacks); empty for a file's.
    let songEvents: [SongEvent]
    /// Beats ↔ seconds (lead-in not included).
    let tempoMap: TempoMap
    /// Seconds before the first tick.
    let leadIn: Double

    /// A schedule of events already on their frames — played live and recorded, say — sorted
    /// by frame (events on one frame keep their order).
    public init(events: [Event], sampleRate: Double) {
        self.sampleRate = sampleRate
        self.events = events.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
        lastEventFrame = self.events.last?.frame ?? 0
        endFrame = Self.endFrame(of: self.events, lastEventFrame: lastEventFrame)
        portCount = (self.events.map(\.port).max() ?? 0) + 1
        duration = Double(lastEventFrame) / sampleRate
        loop = nil
        songEvents = []
        tempoMap = TempoMap(division: .ticksPerQuarterNote(480), tempoEvents: [])
        leadIn = 0
    }

    /// A Standard MIDI File's timeline, `leadIn` seconds of silence first.
    /// - Parameters:
    ///   - file: the MIDI file.
    ///   - sampleRate: output frames per second.
    ///   - leadIn: seconds of silence before the first tick.
    ///   - loop: the loop to place on the frames; by default the one the file marks
    ///     (`MIDIFile.loop`).
    public init(file: MIDIFile, sampleRate: Double, leadIn: Double = 0, loop: MIDILoop? = nil) {
        self.sampleRate = sampleRate
        self.leadIn = leadIn
        var out: [Event] = []
        var ports = [Int](repeating: 0, count: max(file.tracks.count, 1))
        var maxPort = 0
        var last: Int64 = 0
        var lastSeconds = 0.0
        let timed = file.timedEvents()
        out.reserveCapacity(timed.count)
        for e in timed {
            let frame = Self.frame(seconds: e.seconds, leadIn: leadIn, sampleRate: sampleRate)
            last = max(last, frame)
            lastSeconds = max(lastSeconds, e.seconds)
            let t = e.trackIndex
            switch e.message {
            case .meta(.port(let p)):
                if t < ports.count { ports[t] = Int(min(p, 15)) }
                maxPort = max(maxPort, Int(min(p, 15)))
            case .meta:
                break
            case .sysExContinuation:
                break  // escapes and split packets carry no complete message for the synth
            case .noteOff, .noteOn, .polyphonicKeyPressure, .controlChange, .programChange, .channelPressure,
                 .pitchBend, .systemExclusive:
                out.append(Event(frame: frame, track: t, port: ports[t], message: e.message))
            }
        }
        events = out
        lastEventFrame = last
        duration = lastSeconds
        endFrame = Self.endFrame(of: out, lastEventFrame: last)
        portCount = maxPort + 1
        songEvents = []
        tempoMap = file.format == .independentTracks ? file.tempoMap(track: 0) : file.tempoMap()
        self.loop = nil
        self.loop = placed(loop ?? file.loop)
    }

    /// Built by the song initializer (Timeline+Song.swift).
    init(events: [Event], songEvents: [SongEvent], lastEventFrame: Int64, duration: Double, portCount: Int,
         sampleRate: Double, tempoMap: TempoMap, loop: MIDILoop?) {
        self.events = events
        self.duration = duration
        self.songEvents = songEvents
        self.lastEventFrame = lastEventFrame
        endFrame = Self.endFrame(of: events, lastEventFrame: lastEventFrame)
        self.portCount = portCount
        self.sampleRate = sampleRate
        self.tempoMap = tempoMap
        leadIn = 0
        self.loop = nil
        self.loop = placed(loop)
    }

    /// The frame of a time in seconds, the one rounding every frame of a timeline goes through.
    /// Clamped: a hostile file's times can exceed what 64-bit frames hold.
    static func frame(seconds: Double, leadIn: Double, sampleRate: Double) -> Int64 {
        Int64(min(((seconds + leadIn) * sampleRate).rounded(), Double(Int64.max / 4)))
    }

    private static func endFrame(of events: [Event], lastEventFrame: Int64) -> Int64 {
        var index = events.count - 1
        while index >= 0 && events[index].frame == lastEventFrame {
            if events[index].reachesSynthesizer { return lastEventFrame + 1 }
            index -= 1
        }
        // A song's note-off on the last frame counts too.
        if events.contains(where: { $0.noteEnd?.frame == lastEventFrame }) { return lastEventFrame + 1 }
        return lastEventFrame
    }


    /// The first event at or after a frame (binary search; allocation-free).
    func firstEvent(atOrAfter frame: Double) -> Int {
        var low = 0, high = events.count
        while low < high {
            let middle = (low + high) / 2
            if Double(events[middle].frame) < frame { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The frame (fractional) at a position in quarter notes.
    func frame(atBeat beat: Double) -> Double {
        (tempoMap.seconds(atBeats: beat) + leadIn) * sampleRate
    }

    /// The position in quarter notes at a frame.
    func beat(atFrame frame: Double) -> Double {
        tempoMap.beats(atSeconds: max(0, frame / sampleRate - leadIn))
    }
}

/// The former name of ``Timeline``.
@available(*, deprecated, renamed: "Timeline")
public typealias MIDISchedule = Timeline

extension Timeline {
    /// The presets of `bank` the timeline's notes play — each channel's bank select (CC0) and
    /// program at its note-ons, channel 10 on the drum kits (bank 128) — with the fallbacks a
    /// synthesizer takes when one is missing (the program in bank 0, kit 0). Meant for decoding
    /// an SF3 bank's samples before rendering; a preset chosen some other way (SysEx, NRPN) is
    /// still decoded on first use.
    public func presetsPlayed(in bank: SoundFont) -> [Int] {
        let channelCount = 16 * portCount
        var bankSelect = [UInt16](repeating: 0, count: channelCount)
        var program = [UInt16](repeating: 0, count: channelCount)
        var played = Set<UInt32>()
        for e in events {
            switch e.message {
            case .controlChange(let c, 0, let value): bankSelect[e.port * 16 + Int(c)] = UInt16(value)
            case .programChange(let c, let p): program[e.port * 16 + Int(c)] = UInt16(p)
            case .noteOn(let c, _, let velocity) where velocity > 0:
                let i = e.port * 16 + Int(c)
                played.insert(UInt32(c == 9 ? 128 : bankSelect[i]) << 16 | UInt32(program[i]))
            default: break
            }
        }
        var indexes = Set<Int>()
        for key in played {
            let b = UInt16(key >> 16), p = UInt16(key & 0xFFFF)
            let fallbackBank: UInt16 = b == 128 ? 128 : 0
            let fallbackProgram: UInt16 = b == 128 ? 0 : p
            let exact = bank.presets.firstIndex { $0.bank == b && $0.program == p }
            let fallback = bank.presets.firstIndex { $0.bank == fallbackBank && $0.program == fallbackProgram }
            if let i = exact ?? fallback { indexes.insert(i) }
        }
        return indexes.sorted()
    }
}
