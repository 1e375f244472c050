/// The system-exclusive messages the synthesizer understands, recognised from their bytes.
///
/// Universal: General MIDI 1 on and off, GM2 on, master volume. Roland GS: reset, the reverb
/// and chorus macros and levels, and assigning a part to the rhythm (drum) channel. Yamaha XG:
/// system on and all parameters reset. MIDI Tuning Standard messages are read apart
/// (``MIDITuningMessage``); anything else is ignored.
public enum SystemExclusive: Equatable, Sendable {
    /// Universal non-real-time GM message: 1 GM1 on, 2 GM off, 3 GM2 on (others reset as GM).
    case generalMIDI(subID: Int)
    /// Universal real-time master volume, 0…1.
    case masterVolume(Float)
    case gsReset
    case gsReverbMacro(Int)
    /// GS reverb level, 0…1.
    case gsReverbLevel(Double)
    case gsChorusMacro(Int)
    /// GS chorus level with FluidSynth's scale, 0…2.
    case gsChorusLevel(Double)
    /// A GS part (hence a channel) becomes a drum part or a melodic one.
    case gsRhythmPart(channel: Int, isDrums: Bool)
    case xgSystemOn

    /// Recognises a message from its body (the bytes after `F0`; a trailing `F7` is allowed).
    /// Recognises a message from its body held in an array.
    public init?(_ body: [UInt8]) {
        guard let message = body.withUnsafeBufferPointer({ SystemExclusive($0) }) else { return nil }
        self = message
    }

    public init?(_ body: UnsafeBufferPointer<UInt8>) {
        let length = body.count
        guard length >= 3 else { return nil }
        @inline(__always) func b(_ i: Int) -> Int { i < length ? Int(body[i]) : -1 }
        switch b(0) {
        case 0x7E where b(2) == 0x09:
            self = .generalMIDI(subID: b(3))
        case 0x7F where b(2) == 0x04 && b(3) == 0x01:
            // 14-bit LSB, MSB.
            let v = b(4) | b(5) << 7
            guard v >= 0 else { return nil }
            self = .masterVolume(Float(v) / 16383)
        case 0x41 where b(2) == 0x42 && b(3) == 0x12:
            // Roland GS data set: address b4 b5 b6, data b7.
            let a = (b(4), b(5), b(6))
            if a == (0x40, 0x00, 0x7F) {
                self = .gsReset
            } else if a.0 == 0x40 && a.1 == 0x01 && b(7) >= 0 {
                let v = b(7)
                switch a.2 {
                case 0x30: self = .gsReverbMacro(v)
                case 0x33: self = .gsReverbLevel(Double(v) / 127)
                case 0x38: self = .gsChorusMacro(v)
                case 0x3A: self = .gsChorusLevel(Double(v) / 127 * 2)
                default: return nil
                }
            } else if a.0 == 0x40 && (a.1 & 0xF0) == 0x10 && a.2 == 0x15 {
                // Part 0 is channel 10; parts 1…9 are channels 1…9, parts 10…15 channels 11…16.
                let part = a.1 & 0x0F
                self = .gsRhythmPart(channel: part == 0 ? 9 : (part <= 9 ? part - 1 : part), isDrums: b(7) != 0)
            } else {
                return nil
            }
        case 0x43 where (b(1) & 0xF0) == 0x10 && b(2) == 0x4C:
            // Yamaha XG: system on (00 00 7E 00) or all parameters reset (00 00 7F 00).
            guard b(3) == 0 && b(4) == 0 && (b(5) == 0x7E || b(5) == 0x7F) else { return nil }
            self = .xgSystemOn
        default:
            return nil
        }
    }
}
