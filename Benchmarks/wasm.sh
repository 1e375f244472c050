#!/usr/bin/env bash
# polyphon.wasm against the native engine, in one run: the sustained-notes test (96 voices,
# effects off, FluidR3_GM) in ns per voice-sample in Node and natively, the time of one
# 128-frame quantum at 64 and 256 voices in Node, and the module's size. Best of 3 each.
# Needs node and fluid-soundfont-gm.
set -euo pipefail
cd "$(dirname "$0")/.."
bank="${1:-/usr/share/sounds/sf2/FluidR3_GM.sf2}"
Scripts/build-wasm.sh .build-wasm
swift build -c release --product PolyphonBenchmark >/dev/null
echo "== native (PolyphonBenchmark, sustained only)"
.build/release/PolyphonBenchmark --soundfont "$bank" --songs /nonexistent --repeat 3 2>&1 | grep -A2 '^sustained' | head -2
echo "== WebAssembly in Node $(node --version)"
node WebAssembly/bench-node.mjs .build-wasm/polyphon.wasm "$bank" 3
