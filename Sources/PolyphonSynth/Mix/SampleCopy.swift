extension UnsafeMutablePointer where Pointee == Float {
    /// Copies `count` floats from `source`: one `memmove` (in WebAssembly, one `memory.copy`).
    ///
    /// Spelled with raw memory because Embedded Swift does not specialise
    /// `update(from:count:)`: there it copies float by float, each through a value-witness call.
    @inline(__always)
    func copyFloats(from source: UnsafePointer<Float>, count: Int) {
        UnsafeMutableRawPointer(self).copyMemory(from: source, byteCount: count * MemoryLayout<Float>.stride)
    }
}
