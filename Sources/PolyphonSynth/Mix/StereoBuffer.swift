/// A pair of caller-owned buffers receiving one stereo output.
public struct StereoBuffer {
    public var left: UnsafeMutablePointer<Float>
    public var right: UnsafeMutablePointer<Float>
    public init(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>) {
        self.left = left
        self.right = right
    }
}
