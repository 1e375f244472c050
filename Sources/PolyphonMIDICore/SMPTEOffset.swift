/// The SMPTE time a track starts at (meta event `0x54`).
///
/// Fields are kept as written; the top bits of `hours` carry the frame rate in files that follow
/// the MIDI Time Code convention (0 = 24, 1 = 25, 2 = 29.97 drop frame, 3 = 30 fps).
public struct SMPTEOffset: Sendable, Hashable {
    /// Hours byte, including the frame-rate bits 5–6 when present.
    public var hours: UInt8
    /// Minutes, 0…59.
    public var minutes: UInt8
    /// Seconds, 0…59.
    public var seconds: UInt8
    /// Frames within the second.
    public var frames: UInt8
    /// Hundredths of a frame.
    public var fractionalFrames: UInt8

    /// Creates an SMPTE offset from its five bytes.
    public init(hours: UInt8, minutes: UInt8, seconds: UInt8, frames: UInt8, fractionalFrames: UInt8) {
        self.hours = hours
        self.minutes = minutes
        self.seconds = seconds
        self.frames = frames
        self.fractionalFrames = fractionalFrames
    }
}
