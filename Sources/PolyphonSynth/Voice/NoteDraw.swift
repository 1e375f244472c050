/// The random numbers a note draws for its shaping (`amp_random`, `fil_random`): a splitmix64
/// hash of the note's number and a stream, so every zone of a stream draws alike for a note
/// (the two sides of a stereo file), streams draw independently, and a render repeats exactly.
enum NoteDraw {
    /// The draw of note `seed` for `stream`, in [0, 1).
    static func uniform(_ seed: UInt64, stream: UInt32) -> Float {
        var z = seed &+ UInt64(stream) &* 0x9E37_79B9_7F4A_7C15 &+ 0x632B_E59B_D9B4_E019
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Float(z >> 40) / 16_777_216
    }
}
