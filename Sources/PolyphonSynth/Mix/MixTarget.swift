/// The buses a voice mixes into for one chunk, all starting at the chunk's first frame.
struct MixTarget {
    var left: UnsafeMutablePointer<Float>
    var right: UnsafeMutablePointer<Float>
    /// nil when the effect is off: sends are then not accumulated at all.
    var reverb: UnsafeMutablePointer<Float>?
    var chorus: UnsafeMutablePointer<Float>?
}
