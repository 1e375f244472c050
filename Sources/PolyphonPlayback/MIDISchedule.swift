import PolyphonMIDI
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
        public var kind: Kind
    }

    public enum Kind: Sendable, Hashable {
        /// A channel voice message: status with channel nibble, data, and the port.
        case channel(status: UInt8, data1: UInt8, data2: UInt8, port: Int)
        /// A system-exclusive message including F0 (and F7 if the file had it).
        case sysEx([UInt8])
    }

    public let events: [Event]
    /// Frame of the last event in the file (end of track included), lead-in included.
    public let lastEventFrame: Int64
    /// Highest port used, so the synthesizer gets enough channels.
    public let portCount: Int
    public let sampleRate: Double

    public init(file: MIDIFile, sampleRate: Double, leadIn: Double = 0) {
        self.sampleRate = sampleRate
        var out: [Event] = []
        var ports = [Int](repeating: 0, count: max(file.tracks.count, 1))
        var maxPort = 0
        var last: Int64 = 0
        let timed = file.timedEvents()
        out.reserveCapacity(timed.count)
        for e in timed {
            let frame = Int64(((e.seconds + leadIn) * sampleRate).rounded())
            last = max(last, frame)
            let t = e.trackIndex
            switch e.message {
            case .meta(.port(let p)):
                if t < ports.count { ports[t] = Int(min(p, 15)) }
                maxPort = max(maxPort, Int(min(p, 15)))
            case .meta:
                break
            case .systemExclusive(let bytes):
                out.append(Event(frame: frame, track: t, kind: .sysEx([0xF0] + bytes)))
            case .sysExContinuation:
                break  // escapes and split packets carry no complete message for the synth
            case .noteOff(let c, let n, let v):
                out.append(Event(frame: frame, track: t, kind: .channel(status: 0x80 | c, data1: n, data2: v, port: ports[t])))
            case .noteOn(let c, let n, let v):
                out.append(Event(frame: frame, track: t, kind: .channel(status: 0x90 | c, data1: n, data2: v, port: ports[t])))
            case .polyphonicKeyPressure(let c, let n, let p):
                out.append(Event(frame: frame, track: t, kind: .channel(status: 0xA0 | c, data1: n, data2: p, port: ports[t])))
            case .controlChange(let c, let cc, let v):
                out.append(Event(frame: frame, track: t, kind: .channel(status: 0xB0 | c, data1: cc, data2: v, port: ports[t])))
            case .programChange(let c, let p):
                out.append(Event(frame: frame, track: t, kind: .channel(status: 0xC0 | c, data1: p, data2: 0, port: ports[t])))
            case .channelPressure(let c, let p):
                out.append(Event(frame: frame, track: t, kind: .channel(status: 0xD0 | c, data1: p, data2: 0, port: ports[t])))
            case .pitchBend(let c, let v):
                out.append(Event(frame: frame, track: t, kind: .channel(status: 0xE0 | c, data1: UInt8(v & 0x7F),
                                                                        data2: UInt8((v >> 7) & 0x7F), port: ports[t])))
            }
        }
        events = out
        lastEventFrame = last
        portCount = maxPort + 1
    }

    /// Sends one event to a synthesizer at a frame offset inside its next render call.
    @inline(__always)
    public static func send(_ e: Event, to synth: Synthesizer, atFrame offset: Int, outputBus: Int = 0) {
        switch e.kind {
        case .channel(let status, let d1, let d2, let port):
            synth.sendMIDIEvent(status, data1: d1, data2: d2, port: port, outputBus: outputBus, atFrame: offset)
        case .sysEx(let bytes):
            synth.sendMIDISysExEvent(bytes, atFrame: offset)
        }
    }
}
