#if arch(wasm32)
internal import WasmSIMD128

/// ``SIMD4/init(converting:)`` on WebAssembly: `f32x4.convert_i32x4_s`, which rounds each lane
/// as `Float(_:)` does.
enum WebAssemblyLanes {
    @inline(__always)
    static func floats(_ v: SIMD4<Int32>) -> SIMD4<Float> {
        unsafeBitCast(wasm_f32x4_convert_i32x4(v), to: SIMD4<Float>.self)
    }
}
#endif
