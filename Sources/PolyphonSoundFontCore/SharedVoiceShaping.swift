/// A ``VoiceShaping`` held by reference, so the zones and regions that carry one (SFZ
/// instruments) pay for it and those that do not (every SF2 zone) pay for a pointer: inline, the
/// shaping made every region of a General MIDI bank some 800 bytes larger.
final class SharedVoiceShaping: Hashable, Sendable {
    let shaping: VoiceShaping

    init(_ shaping: VoiceShaping) { self.shaping = shaping }

    static func == (lhs: SharedVoiceShaping, rhs: SharedVoiceShaping) -> Bool {
        lhs === rhs || lhs.shaping == rhs.shaping
    }

    func hash(into hasher: inout Hasher) { hasher.combine(shaping) }
}
