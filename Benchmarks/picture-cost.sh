#!/usr/bin/env bash
# What a render picture (`--picture`) adds to a render, per minute of audio: the analysis (against
# the loudness meter it replaces), the note labels, drawing and encoding the PNG (and the SVG), on
# the planetblupi songs through FluidR3_GM, best of 5.
# Needs fluid-soundfont-gm and planetblupi-music-midi (Debian packages).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product PolyphonBenchmark
.build/release/PolyphonBenchmark --picture-cost --repeat 5 "$@"
