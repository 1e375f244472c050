#!/usr/bin/env bash
# Compiles Polyphon's portable core — PolyphonMIDICore, PolyphonSoundFontCore, PolyphonSFZCore, PolyphonSynth —
# as Embedded Swift for WebAssembly (wasm32-unknown-none-wasm), one module after another, into
# object files and modules in OUTDIR (default .build-embedded). The toolchain's Embedded
# standard library is all it needs; nothing is downloaded. CI runs it so the core cannot
# regress (Foundation, untyped throws, key paths and existentials of non-class protocols are
# not available in Embedded Swift).
#
#   Scripts/build-embedded-core.sh [OUTDIR]     # EMBEDDED_SWIFT_FLAGS adds compiler flags
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build-embedded}"
mkdir -p "$out"
swiftc="${SWIFTC:-swiftc}"
# WebAssembly SIMD (simd128) is part of the target: the core's wasm32 paths use its
# instructions through WebAssembly/SIMD128 (clang's wasm_simd128.h as a module).
flags=(-enable-experimental-feature Embedded -target wasm32-unknown-none-wasm -wmo -parse-as-library
       -Osize -Xcc -msimd128 -Xfrontend -disable-stack-protector -package-name polyphon -I "$out" -I WebAssembly/SIMD128
       ${EMBEDDED_SWIFT_FLAGS:-})
for module in PolyphonMIDICore PolyphonSoundFontCore PolyphonSFZCore PolyphonSynth; do
    sources=$(find "Sources/$module" -name '*.swift' | sort)
    # shellcheck disable=SC2086
    "$swiftc" "${flags[@]}" -module-name "$module" -emit-module -emit-module-path "$out/$module.swiftmodule" \
        -c $sources -o "$out/$module.o"
    echo "built $out/$module.o ($(wc -c < "$out/$module.o") bytes)"
done
