#!/usr/bin/env bash
# polyphon.wasm against the native engine, side by side in one run, on the same bank subset
# and events (the presets of FluidR3_GM that the runs play, cut out as a browser would get them):
# the sustained-notes test and the first minute of a song in ns per voice-sample, and one
# 128-frame quantum at 64 and 256 voices against its 2.67 ms budget at 48 kHz — natively, in
# Node and in headless Chromium (main thread, and the quanta inside an AudioWorklet) — and the
# module's size. The runtimes take turns for ROUNDS rounds (default 3) of REPEATS runs each
# (default 3), so a burst of load on the shared machine does not land on one of them alone; each
# figure is the best of all. The workloads are WebAssembly/benchmark.mjs and
# Benchmarks/PolyphonBenchmark/WebComparison.swift. Before its counted runs, each WebAssembly
# workload warms up until a run is no faster than the one before (2 to 8 runs): V8 runs a
# module's functions first as compiled by its baseline tier (Liftoff) and recompiles the hot
# ones with TurboFan in the background while they run; on this busy 2-core machine Chromium's
# second run was still up to twice as slow as its later ones, so one warm-up run (the method
# until 2026-11-26) let tier-up time into Chromium's figures. The warm-up figures are in the
# JSON as warmUp.
#
#   Benchmarks/wasm.sh [BANK.sf2] [SONG.mid] [ROUNDS] [REPEATS]
#
# Needs node, fluid-soundfont-gm and planetblupi-music-midi; Chromium (chromium, chromium-driver,
# python3-selenium) is skipped with a note when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bank="${1:-/usr/share/sounds/sf2/FluidR3_GM.sf2}"
song="${2:-/usr/share/planetblupi/music/music004.mid}"
rounds="${3:-3}"
repeats="${4:-3}"
Scripts/build-wasm.sh .build-wasm
swift build -c release --product PolyphonBenchmark >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
runs=()
chromium=yes
for round in $(seq "$rounds"); do
    .build/release/PolyphonBenchmark --soundfont "$bank" --web "$work" --song "$song" --repeat "$repeats" >/dev/null
    cp "$work/native.json" "$work/native-$round.json"
    runs+=("$work/native-$round.json")
    node WebAssembly/bench-node.mjs .build-wasm/polyphon.wasm "$work/bank.sf2" "$repeats" "$work/song.json" > "$work/node-$round.json"
    runs+=("$work/node-$round.json")
    if [ "$chromium" = yes ]; then
        if /usr/bin/python3 WebAssembly/test/bench-in-chromium.py .build-wasm/polyphon.wasm "$work/bank.sf2" \
               "$work/song.json" "$repeats" > "$work/chromium-$round.json"; then
            runs+=("$work/chromium-$round.json")
        else
            echo "(no Chromium figures: see the message above)"
            chromium=no
        fi
    fi
done
node Benchmarks/wasm-table.mjs .build-wasm/polyphon.wasm "${runs[@]}"
