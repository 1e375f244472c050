/// What one tick of a Standard MIDI File means: a fraction of a quarter note (musical time,
/// scaled by the tempo) or a fraction of an SMPTE frame (absolute time, tempo-independent).
public enum Division: Sendable, Hashable {
    /// Ticks per quarter note (pulses per quarter note), 1…32767.
    case ticksPerQuarterNote(UInt16)
    /// SMPTE time: `framesPerSecond` is 24, 25, 29 (meaning 29.97, drop frame) or 30, and each
    /// frame has `ticksPerFrame` ticks.
    case smpte(framesPerSecond: UInt8, ticksPerFrame: UInt8)

    /// The 16-bit division word of the header chunk.
    public var rawValue: UInt16 {
        switch self {
        case .ticksPerQuarterNote(let ticks):
            return ticks & 0x7FFF
        case .smpte(let framesPerSecond, let ticksPerFrame):
            // The high byte is the frame rate as a negative two's-complement number.
            let high = UInt8(bitPattern: -Int8(truncatingIfNeeded: framesPerSecond & 0x7F))
            return UInt16(high) << 8 | UInt16(ticksPerFrame)
        }
    }

    /// Decodes the header's division word; `nil` when it means nothing (0 ticks per quarter
    /// note, an SMPTE rate other than 24, 25, 29 or 30, or 0 ticks per frame).
    public init?(rawValue: UInt16) {
        if rawValue & 0x8000 == 0 {
            guard rawValue > 0 else { return nil }
            self = .ticksPerQuarterNote(rawValue)
        } else {
            let framesPerSecond = UInt8(-Int(Int8(bitPattern: UInt8(rawValue >> 8))))
            let ticksPerFrame = UInt8(rawValue & 0xFF)
            guard [24, 25, 29, 30].contains(framesPerSecond), ticksPerFrame > 0 else { return nil }
            self = .smpte(framesPerSecond: framesPerSecond, ticksPerFrame: ticksPerFrame)
        }
    }

    /// The real frame rate of an SMPTE division: 29.97 for the drop-frame code 29 (drop-frame
    /// time code counts 29.97 frames per second of wall-clock time).
    public static func frameRate(forCode framesPerSecond: UInt8) -> Double {
        framesPerSecond == 29 ? 29.97 : Double(framesPerSecond)
    }
}
