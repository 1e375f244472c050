import PolyphonMIDI
import PolyphonSynth

/// A General MIDI instrument as a song selects it: a program, or a drum kit.
public struct Instrument: Sendable, Hashable, Comparable {
    /// The program number, 0–127 (for a drum kit, the kit's program: 0 Standard, 8 Room …).
    public var program: Int
    /// Whether the channel plays drums (channel 10 of its port).
    public var isDrumKit: Bool

    public init(program: Int, isDrumKit: Bool) {
        self.program = program
        self.isDrumKit = isDrumKit
    }

    /// Melodic programs first, then kits, each by number.
    public static func < (a: Instrument, b: Instrument) -> Bool {
        (a.isDrumKit ? 1 : 0, a.program) < (b.isDrumKit ? 1 : 0, b.program)
    }
}

/// Which instrument each channel plays as a song's events go by: what program stems and note
/// labels name a note by.
///
/// Follows the synthesizer's rules for what is a drum channel: channel 10 of each port, a GS
/// part made a rhythm part (and back) by SysEx, bank select MSB 126/127 after XG System On, and
/// the resets (GM System On, GS Reset, XG System On) that return every channel to program 0 and
/// channel 10 alone to drums. Other bank selects are not followed: the stem or label says which
/// General MIDI program or kit the song asked for, not which bank variation answered.
struct ChannelInstruments {
    private var programs: [Int]
    private var drums: [Bool]
    /// Whether bank select MSB 126/127 makes a channel a drum channel (after XG System On).
    private var xgBanks = false

    init(portCount: Int) {
        programs = [Int](repeating: 0, count: 16 * max(1, portCount))
        drums = programs.indices.map { $0 % 16 == 9 }
    }

    /// The channel index (0-based, port included) an event's message is for, if any.
    static func channel(of event: Timeline.Event) -> Int? {
        let c: UInt8
        switch event.message {
        case .noteOff(let ch, _, _), .noteOn(let ch, _, _), .polyphonicKeyPressure(let ch, _, _),
             .controlChange(let ch, _, _), .programChange(let ch, _), .channelPressure(let ch, _),
             .pitchBend(let ch, _):
            c = ch
        default:
            return nil
        }
        return Int(c & 0x0F) + 16 * event.port
    }

    /// Takes in an event: program changes, XG drum banks and the SysEx that change drum parts.
    mutating func apply(_ event: Timeline.Event) {
        switch event.message {
        case .programChange(_, let program):
            if let c = Self.channel(of: event), c < programs.count { programs[c] = Int(program & 0x7F) }
        case .controlChange(_, 0, let value) where xgBanks:
            if let c = Self.channel(of: event), c < drums.count { drums[c] = value == 126 || value == 127 }
        case .systemExclusive(let body):
            switch SystemExclusive(body) {
            case .gsRhythmPart(let c, let isDrums):
                // As the synthesizer: a SysEx names a channel of the first port, whatever its track's port.
                if c < drums.count { drums[c] = isDrums }
            case .generalMIDI, .gsReset:
                reset(xg: false)
            case .xgSystemOn:
                reset(xg: true)
            default:
                break
            }
        default:
            break
        }
    }

    private mutating func reset(xg: Bool) {
        xgBanks = xg
        for c in programs.indices {
            programs[c] = 0
            drums[c] = c % 16 == 9
        }
    }

    /// What `channel` (0-based, port included) plays now.
    func instrument(onChannel channel: Int) -> Instrument {
        guard channel < programs.count else { return Instrument(program: 0, isDrumKit: channel % 16 == 9) }
        return Instrument(program: programs[channel], isDrumKit: drums[channel])
    }
}
