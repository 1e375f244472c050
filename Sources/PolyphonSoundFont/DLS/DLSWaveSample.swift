import PolyphonSoundFontCore

/// A DLS `wsmp` chunk: how a wave plays (root note, tuning, gain, loop). Found in a wave (its
/// defaults) and optionally in a region, whose copy then replaces the wave's entirely.
struct DLSWaveSample: Hashable {
    /// A `wsmp` loop record.
    struct Loop: Hashable {
        /// 0 `WLOOP_TYPE_FORWARD` (loop while playing), 1 `WLOOP_TYPE_RELEASE` (DLS 2: loop until
        /// release, then play to the end).
        var type: UInt32
        /// First point of the loop.
        var start: UInt32
        /// Points in the loop.
        var length: UInt32
    }

    /// The MIDI note that plays the wave at its recorded pitch.
    var unityNote: UInt8
    /// Tuning in cents.
    var fineTune: Int16
    /// Gain in centibels × 65536 (negative is quieter).
    var attenuation: Int32
    /// The first loop, if any (DLS allows one).
    var loop: Loop?

    /// Parses a `wsmp` chunk at `offset` (its data) of `size` bytes.
    static func read(_ bytes: UnsafeRawBufferPointer, offset: Int, size: Int, chunkOffset: Int,
                     file: String) throws(SoundFontError) -> DLSWaveSample {
        guard size >= 20 else {
            throw SoundFontError(file: file, format: .dls, chunk: "wsmp", offset: chunkOffset,
                                 kind: .chunkTooSmall(size: size, minimum: 20))
        }
        let headerSize = Int(bytes.u32(offset))
        let loopCount = Int(bytes.u32(offset + 16))
        var sample = DLSWaveSample(unityNote: UInt8(min(bytes.u16(offset + 4), 127)),
                                   fineTune: bytes.i16(offset + 6),
                                   attenuation: Int32(bitPattern: bytes.u32(offset + 8)), loop: nil)
        if loopCount > 0 {
            let loopOffset = max(headerSize, 20)
            guard loopOffset <= size, size - loopOffset >= 16 else {
                throw SoundFontError(file: file, format: .dls, chunk: "wsmp", offset: chunkOffset,
                                     kind: .malformed("\(loopCount) loop(s) declared but no room for a 16-byte loop record"))
            }
            let at = offset + loopOffset
            sample.loop = Loop(type: bytes.u32(at + 4), start: bytes.u32(at + 8), length: bytes.u32(at + 12))
        }
        return sample
    }
}
