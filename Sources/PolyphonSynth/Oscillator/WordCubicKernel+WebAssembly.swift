#if arch(wasm32)
internal import WasmSIMD128

/// ``WordCubicKernel`` on WebAssembly: `i32x4.dot_i16x8_s` is the `pmaddwd` of wasm (the same
/// exact pairwise sums in 32 bits), and the four frames' sums are two lane shuffles and one add.
/// From the portable forms, LLVM widens every point to 32 bits and multiplies, and sums the
/// lanes one by one in scalar registers.
extension WordCubicKernel {
    @inline(__always)
    static func webAssemblyPairProducts(_ w0: UnsafeRawPointer, _ c0: UnsafeRawPointer,
                                        _ w1: UnsafeRawPointer, _ c1: UnsafeRawPointer) -> SIMD4<Int32> {
        let w = wasm_v128_load64_lane(w1, wasm_v128_load64_zero(w0), 1)
        let c = wasm_v128_load64_lane(c1, wasm_v128_load64_zero(c0), 1)
        return wasm_i32x4_dot_i16x8(w, c)
    }

    @inline(__always)
    static func webAssemblyFrameSums(_ m01: SIMD4<Int32>, _ m23: SIMD4<Int32>) -> SIMD4<Int32> {
        wasm_i32x4_add(polyphon_i32x4_even(m01, m23), polyphon_i32x4_odd(m01, m23))
    }
}
#endif
