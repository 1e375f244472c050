/// Integer lanes to float lanes, each rounded as `Float(_:)` rounds one `Int32` (to nearest,
/// ties to even): the same bits on every platform.
///
/// Natively this is the standard library's conversion (one `cvtdq2ps` on x86-64). Embedded
/// Swift for WebAssembly does not inline that generic initializer: there it is a call per vector
/// that converts lane by lane through `Int64`, so wasm32 uses the one instruction instead
/// (LaneConversion+WebAssembly.swift).
extension SIMD4 where Scalar == Float {
    @inline(__always)
    init(converting v: SIMD4<Int32>) {
        #if arch(wasm32)
        self = WebAssemblyLanes.floats(v)
        #else
        self.init(v)
        #endif
    }
}

extension SIMD8 where Scalar == Float {
    @inline(__always)
    init(converting v: SIMD8<Int32>) {
        #if arch(wasm32)
        self.init(lowHalf: WebAssemblyLanes.floats(v.lowHalf), highHalf: WebAssemblyLanes.floats(v.highHalf))
        #else
        self.init(v)
        #endif
    }
}
