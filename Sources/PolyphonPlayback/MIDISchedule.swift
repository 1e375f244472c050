import PolyphonMIDI
import PolyphonSoundFont
import PolyphonSynth

/// A MIDI file's events that a synthesizer hears, each stamped with its output frame.
///
/// Built once from the merged, time-ordered event stream; port meta events (0x21) route a
/// track's channels to the port's group of 16 so multi-port files play on 32+ channels.
public struct MIDISchedule: Sendable {
    public struct Event: Sendable, Hashable {
        /// Output frame, from the start of the render (lead-in included).
        public var frame: Int64
        /// Index of the track the event came from.
        public var track: Int
        /// The group of 16 channels the message's channel belongs to (port meta events).
        public var port: Int
        /// A channel voice message, or a complete system-exclusive message.
        public var message: MIDIMessage

        /// An event on `frame`, from `track`, for the channels of `port`.
        public init(frame: Int64, track: Int = 0, port: Int = 0, message: MIDIMessage) {
            self.frame = frame
            self.track = track
            self.port = port
            self.message = message
        }
    }

    public let events: [Event]
    /// Frame of the last event in the file (end of track included), lead-in included.
    public let lastEventFrame: Int64
    /// Highest port used, so the synthesizer gets enough channels.
    public let portCount: Int
    public let sampleRate: Double

    /// A schedule of events already on their frames — played live and recorded, say — sorted
    /// by frame (events on one frame keep their order).
    public init(events: [Event], sampleRate: Double) {
        self.sampleRate = sampleRate
        self.events = events.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
        lastEventFrame = self.events.last?.frame ?? 0
        portCount = (self.events.map(\.port).max() ?? 0) + 1
    }

    public init(file: MIDIFile, sampleRate: Double, leadIn: Double = 0) {
        self.sampleRate = sampleRate
        var out: [Event] = []
        var ports = [Int](repeating: 0, count: max(file.tracks.count, 1))
        var maxPort = 0
        var last: Int64 = 0
        let timed = file.timedEvents()
        out.reserveCapacity(timed.count)
        for e in timed {
            // Clamped: a hostile file's times can exceed what 64-bit frames hold.
            let frame = Int64(min(((e.seconds + leadIn) * sampleRate).rounded(), Double(Int64.max / 4)))
            last = max(last, frame)
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
        portCount = maxPort + 1
    }

    /// Sends one event to a synthesizer at a frame offset inside its next render call.
    @inline(__always)
    public static func send(_ e: Event, to synth: Synthesizer, atFrame offset: Int, outputBus: Int = 0) {
        synth.send(e.message, port: e.port, outputBus: outputBus, atFrame: offset)
    }
}

extension MIDISchedule {
    /// The presets of `bank` the schedule's notes play — each channel's bank select (CC0) and
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
