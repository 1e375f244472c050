// wasm_simd128.h for Swift, plus the lane shuffles it spells as macros (which Swift cannot
// import): static inline, so they compile into the Swift code that calls them.
#include <wasm_simd128.h>

/// Lanes 0 and 2 of `a`, then lanes 0 and 2 of `b` (32-bit lanes).
static inline __attribute__((always_inline)) v128_t polyphon_i32x4_even(v128_t a, v128_t b) {
    return wasm_i32x4_shuffle(a, b, 0, 2, 4, 6);
}

/// Lanes 1 and 3 of `a`, then lanes 1 and 3 of `b` (32-bit lanes).
static inline __attribute__((always_inline)) v128_t polyphon_i32x4_odd(v128_t a, v128_t b) {
    return wasm_i32x4_shuffle(a, b, 1, 3, 5, 7);
}
