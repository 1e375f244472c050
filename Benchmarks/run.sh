#!/usr/bin/env bash
# Polyphon vs FluidSynth, side by side on the same files in one run: speed (× real time),
# ratio, peak memory and fidelity (level, spectral distance, envelope correlation).
# Needs fluidsynth, fluid-soundfont-gm and planetblupi-music-midi (Debian packages).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product polyphon
swift build -c release --product PolyphonBenchmark
echo "== effects off (fluidsynth -R 0 -C 0)"
.build/release/PolyphonBenchmark --repeat 3 "$@"
echo
echo "== default effects on both"
.build/release/PolyphonBenchmark --repeat 3 --effects "$@"
