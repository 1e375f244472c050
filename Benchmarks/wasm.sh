#!/usr/bin/env bash
# polyphon.wasm against the native engine, side by side in one run, on the same bank subset
# and events (the presets of FluidR3_GM that the runs play, cut out as a browser would get them):
# the sustained-notes test and the first minute of a song in ns per voice-sample, and one
# 128-frame quantum at 64 and 256 voices against its 2.67 ms budget at 48 kHz — natively, in
# Node and in headless Chromium (main thread, and the quanta inside an AudioWorklet) — and the
# module's size. Best of REPEATS (default 3) each; the workloads are WebAssembly/benchmark.mjs
# and Benchmarks/PolyphonBenchmark/WebComparison.swift.
#
#   Benchmarks/wasm.sh [BANK.sf2] [SONG.mid] [REPEATS]
#
# Needs node, fluid-soundfont-gm and planetblupi-music-midi; Chromium (chromium, chromium-driver,
# python3-selenium) is skipped with a note when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bank="${1:-/usr/share/sounds/sf2/FluidR3_GM.sf2}"
song="${2:-/usr/share/planetblupi/music/music004.mid}"
repeats="${3:-3}"
Scripts/build-wasm.sh .build-wasm
swift build -c release --product PolyphonBenchmark >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
.build/release/PolyphonBenchmark --soundfont "$bank" --web "$work" --song "$song" --repeat "$repeats" >/dev/null
runs=()
node WebAssembly/bench-node.mjs .build-wasm/polyphon.wasm "$work/bank.sf2" "$repeats" "$work/song.json" > "$work/node.json"
runs+=("$work/node.json")
if /usr/bin/python3 WebAssembly/test/bench-in-chromium.py .build-wasm/polyphon.wasm "$work/bank.sf2" "$work/song.json" \
       "$repeats" > "$work/chromium.json"; then
    runs+=("$work/chromium.json")
else
    echo "(no Chromium figures: see the message above)"
fi
node Benchmarks/wasm-table.mjs .build-wasm/polyphon.wasm "$work/native.json" "${runs[@]}"
