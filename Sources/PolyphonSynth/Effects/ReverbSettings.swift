/// The parameters of the ``Reverb``, with FluidSynth 2.3's meaning, ranges and defaults.
///
/// FluidSynth's settings `synth.reverb.room-size`, `.damp`, `.width` and `.level` map one to one
/// onto these properties, so a value that sounds right in FluidSynth sounds the same here.
/// Out-of-range values are clamped by the reverb, never trapped on.
public struct ReverbSettings: Sendable, Hashable {
    /// Room size, 0…1. Sets the decay time at low frequencies: 0 ≈ 0.7 s, 0.2 ≈ 0.98 s,
    /// 0.5 ≈ 1.7 s, 0.8 ≈ 3.9 s, 1 ≈ 12.5 s (RT60, measured on FluidSynth 2.3.1 and on ours).
    public var roomSize: Double = 0.2
    /// High-frequency damping, 0…1: 0 decays all frequencies alike, 1 makes the highest ones die
    /// out almost at once while the low-frequency decay stays as `roomSize` sets it.
    public var damping: Double = 0.0
    /// Stereo width, 0…100 as in FluidSynth: 0 is mono (left equals right), 1 spreads the two
    /// decorrelated outputs fully, larger values push them toward opposite phase.
    public var width: Double = 0.5
    /// Wet output level, 0…1 (linear: halving it lowers the reverb by 6 dB).
    public var level: Double = 0.9

    /// Creates settings; every argument defaults to FluidSynth 2.3's default.
    public init(roomSize: Double = 0.2, damping: Double = 0.0, width: Double = 0.5, level: Double = 0.9) {
        self.roomSize = roomSize
        self.damping = damping
        self.width = width
        self.level = level
    }

    /// The settings clamped into their documented ranges; NaN falls back to the default.
    var clamped: ReverbSettings {
        ReverbSettings(
            roomSize: roomSize.effectClamped(to: 0...1, default: 0.2),
            damping: damping.effectClamped(to: 0...1, default: 0.0),
            width: width.effectClamped(to: 0...100, default: 0.5),
            level: level.effectClamped(to: 0...1, default: 0.9))
    }

    /// Settings for a Roland GS reverb macro (the value of GS parameter 40 01 30, or of an XG/GS
    /// "reverb type" request), 0…7. Values outside 0…7 give Hall 2, like a GS module's default.
    ///
    /// FluidSynth ignores GS reverb macros; these values are our choice. The room sizes are
    /// picked for the decay time a Sound Canvas gives each macro (FluidSynth's room→RT60 curve is
    /// in ``roomSize``), the damping for its brightness. This reverb has no pre-delay or echo
    /// line, so the two delay macros become short, bright, widely spread rooms rather than
    /// distinct echoes:
    ///
    /// | type | GS name | room | damping | width | level | RT60 | RT60 at 8 kHz |
    /// |---|---|---|---|---|---|---|---|
    /// | 0 | Room 1 | 0.10 | 0.40 | 0.5 | 0.80 | 0.64 s | 0.58 s |
    /// | 1 | Room 2 | 0.20 | 0.30 | 0.5 | 0.85 | 0.77 s | 0.74 s |
    /// | 2 | Room 3 | 0.35 | 0.50 | 0.6 | 0.85 | 0.94 s | 0.69 s |
    /// | 3 | Hall 1 | 0.50 | 0.30 | 0.8 | 0.90 | 1.29 s | 1.13 s |
    /// | 4 | Hall 2 | 0.60 | 0.20 | 1.0 | 0.90 | 1.67 s | 1.54 s |
    /// | 5 | Plate | 0.45 | 0.00 | 1.0 | 0.90 | 1.54 s | 1.55 s |
    /// | 6 | Delay | 0.70 | 0.60 | 1.0 | 0.70 | 2.04 s | 0.85 s |
    /// | 7 | Panning Delay | 0.70 | 0.60 | 4.0 | 0.45 | 2.0 s | 0.9 s |
    ///
    /// (RT60s measured on this reverb, broadband T20. Width 4 puts the two sides nearly in
    /// opposite phase, which is as close to a ping-pong image as a width control gets; its level
    /// is lowered because FluidSynth's width also raises the wet level.)
    public static func gs(type: Int) -> ReverbSettings {
        switch type {
        case 0: ReverbSettings(roomSize: 0.10, damping: 0.40, width: 0.5, level: 0.80)
        case 1: ReverbSettings(roomSize: 0.20, damping: 0.30, width: 0.5, level: 0.85)
        case 2: ReverbSettings(roomSize: 0.35, damping: 0.50, width: 0.6, level: 0.85)
        case 3: ReverbSettings(roomSize: 0.50, damping: 0.30, width: 0.8, level: 0.90)
        case 5: ReverbSettings(roomSize: 0.45, damping: 0.00, width: 1.0, level: 0.90)
        case 6: ReverbSettings(roomSize: 0.70, damping: 0.60, width: 1.0, level: 0.70)
        case 7: ReverbSettings(roomSize: 0.70, damping: 0.60, width: 4.0, level: 0.45)
        default: ReverbSettings(roomSize: 0.60, damping: 0.20, width: 1.0, level: 0.90)
        }
    }
}
