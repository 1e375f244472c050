import PolyphonMIDI

/// One message a seek or a loop jump sends to restore the song's state.
struct ChaseMessage: Sendable, Hashable {
    var message: MIDIMessage
    var port: Int
}

extension Timeline {
    /// The messages that bring a freshly reset synthesizer to the state the song has put it in
    /// just before `frame` ("chase"): every sysex in order, then per channel the last bank and
    /// program, the last value of each controller (bank select among them), pitch bend and
    /// pressures, in the order of their last occurrence (so an RPN selection still comes before
    /// its data entry, and a bank select before the program change it was meant for).
    func chase(before frame: Int64) -> [ChaseMessage] {
        var sysEx: [ChaseMessage] = []
        var latest: [Int: (order: Int, messages: [ChaseMessage])] = [:]
        // Per channel: the bank select in effect, restored just before a chased program change.
        var banks: [Int: [ChaseMessage]] = [:]
        var order = 0
        for event in events where event.frame < frame {
            order += 1
            let channel = event.port * 16 + Int(event.message.channel ?? 0)
            switch event.message {
            case .systemExclusive:
                sysEx.append(ChaseMessage(message: event.message, port: 0))
                continue
            case .controlChange(_, let controller, _) where controller == 0 || controller == 32:
                var bank = banks[channel, default: []]
                bank.removeAll { if case .controlChange(_, controller, _) = $0.message { return true } else { return false } }
                bank.append(ChaseMessage(message: event.message, port: event.port))
                banks[channel] = bank
            default:
                break
            }
            guard let key = Self.stateKey(event) else { continue }
            var messages = [ChaseMessage(message: event.message, port: event.port)]
            if case .programChange = event.message { messages.insert(contentsOf: banks[channel, default: []], at: 0) }
            latest[key] = (order, messages)
        }
        return sysEx + latest.values.sorted { $0.order < $1.order }.flatMap(\.messages)
    }

    /// What a loop jump sends so every pass starts in the state the first pass started in:
    /// the channel state of the frames before the loop (``chase(before:)`` without its sysex,
    /// which could reset the sound ringing across the jump), and for each controller, bend,
    /// pressure or program first set inside the loop, its power-on value.
    func restore(loopFrom start: Int64, to end: Int64) -> [ChaseMessage] {
        let before = chase(before: start).filter {
            if case .systemExclusive = $0.message { return false } else { return true }
        }
        var chased = Set<Int>()
        for event in events where event.frame < start {
            if let key = Self.stateKey(event) { chased.insert(key) }
        }
        var defaults: [ChaseMessage] = []
        var added = Set<Int>()
        for event in events[firstEvent(atOrAfter: Double(start))...] where event.frame < end {
            guard let key = Self.stateKey(event), !chased.contains(key), added.insert(key).inserted,
                  let message = Self.powerOnValue(of: event.message) else { continue }
            defaults.append(ChaseMessage(message: message, port: event.port))
        }
        return before + defaults
    }

    /// Which piece of channel state an event sets: controllers one by one (bank select with
    /// the program), polyphonic pressure per key. Channel mode messages act once; replaying
    /// them would change nothing or cut notes.
    private static func stateKey(_ event: Event) -> Int? {
        let kind: Int, detail: Int
        switch event.message {
        case .controlChange(_, let controller, _):
            if controller >= 120 { return nil }
            kind = 0xB0; detail = Int(controller)
        case .polyphonicKeyPressure(_, let key, _): kind = 0xA0; detail = Int(key)
        case .channelPressure: kind = 0xD0; detail = 0
        case .pitchBend: kind = 0xE0; detail = 0
        case .programChange: kind = 0xC0; detail = 0
        default: return nil
        }
        let channel = event.port * 16 + Int(event.message.channel ?? 0)
        return channel << 16 | kind << 8 | detail
    }

    /// A channel's value at power-on for what `message` sets (the synthesizer's reset), or
    /// `nil` where sending one would act (data entry, RPN and NRPN selection, bank select).
    private static func powerOnValue(of message: MIDIMessage) -> MIDIMessage? {
        switch message {
        case .controlChange(let c, let controller, _):
            switch controller {
            case 0, 32, 6, 38, 96...101: return nil
            case 7: return .controlChange(channel: c, controller: 7, value: 100)
            case 10: return .controlChange(channel: c, controller: 10, value: 64)
            case 11: return .controlChange(channel: c, controller: 11, value: 127)
            case 43: return .controlChange(channel: c, controller: 43, value: 127)
            default: return .controlChange(channel: c, controller: controller, value: 0)
            }
        case .pitchBend(let c, _): return .pitchBend(channel: c, value: 8192)
        case .channelPressure(let c, _): return .channelPressure(channel: c, pressure: 0)
        case .polyphonicKeyPressure(let c, let key, _): return .polyphonicKeyPressure(channel: c, note: key, pressure: 0)
        case .programChange(let c, _): return .programChange(channel: c, program: 0)
        default: return nil
        }
    }
}
