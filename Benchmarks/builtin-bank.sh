#!/usr/bin/env bash
# How close the built-in General MIDI bank comes to a real GM bank, next to a small one: every
# song is rendered by Polyphon with FluidR3_GM (the reference), the built-in bank and TimGM6mb,
# effects off, gain 0.2, exact timing, and each render is compared with the reference by
# `polyphon compare` (level difference, spectral distance of the long-term spectra, correlation
# of the 50 ms envelopes). The built-in bank should be within ±3 dB of the reference and at least
# as close to it as TimGM6mb. Prints a Markdown table with a last row of means.
#
#   bash Benchmarks/builtin-bank.sh
#   SONGS=DIR REFERENCE=a.sf2 SMALL=b.sf2 KEEP=DIR bash Benchmarks/builtin-bank.sh
#
# KEEP keeps the renders (DIR/<song>.{reference,builtin,small}.wav) for closer study.
# Needs fluid-soundfont-gm, timgm6mb-soundfont and planetblupi-music-midi (Debian packages).
set -euo pipefail
cd "$(dirname "$0")/.."
songs="${SONGS:-/usr/share/planetblupi/music}"
reference="${REFERENCE:-/usr/share/sounds/sf2/FluidR3_GM.sf2}"
small="${SMALL:-/usr/share/sounds/sf2/TimGM6mb.sf2}"
swift build -c release --product polyphon >&2
polyphon=.build/release/polyphon
if [ -n "${KEEP:-}" ]; then
    tmp="$KEEP"
    mkdir -p "$tmp"
else
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
fi
field() { sed -E "s/.*\"$1\": ([-0-9.]+).*/\1/"; }
echo
echo "Built-in bank and $(basename "$small") against $(basename "$reference"), all rendered by Polyphon (effects off, gain 0.2):"
echo
echo "| song | built-in level dB | built-in distance dB | built-in r | $(basename "$small" .sf2) level dB | distance dB | r |"
echo "|---|---|---|---|---|---|---|"
sums=(0 0 0 0 0 0)
count=0
for song in "$songs"/*.mid; do
    name=$(basename "$song" .mid)
    render() { "$polyphon" render "$song" -s "$1" -q --rate 44100 --gain 0.2 --no-reverb --no-chorus -o "$2" >/dev/null 2>&1; }
    render "$reference" "$tmp/$name.reference.wav"
    render builtin "$tmp/$name.builtin.wav"
    render "$small" "$tmp/$name.small.wav"
    row=()
    for bank in builtin small; do
        json=$("$polyphon" compare "$tmp/$name.$bank.wav" "$tmp/$name.reference.wav" --json)
        row+=("$(field levelDifference <<<"$json")" "$(field spectralDistance <<<"$json")" "$(field envelopeCorrelation <<<"$json")")
    done
    printf '| %s | %+.2f | %.2f | %.3f | %+.2f | %.2f | %.3f |\n' "$name" "${row[@]}"
    for i in "${!row[@]}"; do sums[i]=$(awk -v s="${sums[i]}" -v x="${row[i]}" 'BEGIN { print s + x }'); done
    count=$((count + 1))
done
means=()
for s in "${sums[@]}"; do means+=("$(awk -v s="$s" -v n="$count" 'BEGIN { print s / n }')"); done
printf '| mean | %+.2f | %.2f | %.3f | %+.2f | %.2f | %.3f |\n' "${means[@]}"
