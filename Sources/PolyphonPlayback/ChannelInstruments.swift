import PolyphonMIDI

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
/// Follows program changes on every channel of every port; channel 10 of each port plays drums
/// (General MIDI). Bank selects and GS/XG drum-part messages are not followed: the stem or label
/// says which General MIDI program the song asked for, not which bank preset answered.
struct ChannelInstruments {
    private var programs: [Int]

    init(portCount: Int) {
        programs = [Int](repeating: 0, count: 16 * max(1, portCount))
    }

    /// The channel index (0-based, port included) an event's message is for, if any.
    static func channel(of event: MIDISchedule.Event) -> Int? {
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

    /// Takes in an event (program changes matter).
    mutating func apply(_ event: MIDISchedule.Event) {
        if case .programChange(_, let program) = event.message, let c = Self.channel(of: event), c < programs.count {
            programs[c] = Int(program & 0x7F)
        }
    }

    /// What `channel` (0-based, port included) plays now.
    func instrument(onChannel channel: Int) -> Instrument {
        Instrument(program: channel < programs.count ? programs[channel] : 0, isDrumKit: channel % 16 == 9)
    }
}
