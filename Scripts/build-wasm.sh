#!/usr/bin/env bash
# Builds Polyphon's WebAssembly module, polyphon.wasm, from the current sources: the portable
# core compiled as Embedded Swift for wasm32-unknown-none-wasm (Scripts/build-embedded-core.sh),
# the C ABI in WebAssembly/PolyphonWasm.swift, and WebAssembly/runtime.c (allocator and the few
# C functions the core needs: there is no libc), linked with wasm-ld. Everything comes from the
# Swift toolchain; nothing is downloaded.
#
#   Scripts/build-wasm.sh [OUTDIR]      # default .build-wasm; writes OUTDIR/polyphon.wasm
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build-wasm}"
mkdir -p "$out"
# One build at a time per folder (export-web, jam and the tests may start one together); the
# module appears under its name only when complete.
if command -v flock >/dev/null; then
    exec 9>"$out/.build.lock"
    flock 9
fi
# WebAssembly SIMD (simd128) for the engine's vector code; optimised for speed. Without loop
# strength reduction (-disable-lsr): for WebAssembly, LLVM rewrites every frame's phase in the
# cubic kernel's loop into a counter of its own (a dozen live integers), more than V8 has
# registers for on x86-64, so TurboFan spilled them to the stack every iteration; without it the
# loop keeps its four phases and runs ~12 % faster in Node and Chromium. Same operations on the
# same values: the output is unchanged (the Wasm tests compare it with native bit for bit).
wasm_flags="${POLYPHON_WASM_FLAGS:--O -Xcc -msimd128 -Xllvm -disable-lsr}"
EMBEDDED_SWIFT_FLAGS="$wasm_flags" Scripts/build-embedded-core.sh "$out/core" >/dev/null
toolchain="$(dirname "$(command -v swiftc)")"
# shellcheck disable=SC2086
swiftc -enable-experimental-feature Embedded -target wasm32-unknown-none-wasm -wmo -parse-as-library $wasm_flags \
    -Xfrontend -disable-stack-protector -package-name polyphon -I "$out/core" -I WebAssembly/SIMD128 -module-name PolyphonWasm \
    -c WebAssembly/PolyphonWasm.swift -o "$out/PolyphonWasm.o"
"$toolchain/clang" --target=wasm32-unknown-unknown -O2 -nostdlib -ffreestanding -fno-builtin \
    -c WebAssembly/runtime.c -o "$out/runtime.o"
exports=()
for f in alloc free create create_merged send render active_voices set_channel_metering channel_levels reset destroy midi_read; do exports+=("--export=polyphon_$f"); done
"$toolchain/wasm-ld" --no-entry --strip-all --stack-first -z stack-size=1048576 "${exports[@]}" \
    "$out"/core/*.o "$out/PolyphonWasm.o" "$out/runtime.o" \
    "$toolchain/../lib/swift/embedded/wasm32-unknown-none-wasm/libswiftUnicodeDataTables.a" \
    -o "$out/polyphon.wasm.partial"
mv -f "$out/polyphon.wasm.partial" "$out/polyphon.wasm"
echo "built $out/polyphon.wasm ($(wc -c < "$out/polyphon.wasm") bytes)"
