#!/usr/bin/env bash
# Fidelity against FluidSynth, the fair way: each song rendered by FluidSynth as it is, and by
# Polyphon with its events moved to where FluidSynth's file player plays them
# (`polyphon render --align-to-fluidsynth`), so the figures measure synthesis rather than
# FluidSynth's block-quantised event timing. Polyphon is also rendered with its own exact
# timing, for comparison. Both write 32-bit float files, so neither's 16-bit rounding or dither
# is measured. Prints one Markdown table per bank and effects setting.
#
#   bash Benchmarks/fidelity.sh [BANK…]        # default: FluidR3_GM and MuseScore_General
#   SONGS=DIR EFFECTS="off on" FLUIDSYNTH=/path/to/fluidsynth bash Benchmarks/fidelity.sh
#   BLOCKS=no bash Benchmarks/fidelity.sh       # the aligned renders without --fluidsynth-compatible
#
# The aligned column is rendered with --fluidsynth-compatible (pitch in FluidSynth's whole
# cents; envelopes, LFO delays and resonant filter sweeps timed in its 64-frame blocks, 2.6's
# rules), so it measures what is left once FluidSynth's control-rate choices are matched as
# well; BLOCKS=no leaves them to the SoundFont text (exact pitch and times). The exact-timing
# column is always Polyphon's default.
#
# Needs fluidsynth, fluid-soundfont-gm, musescore-general-soundfont-small and
# planetblupi-music-midi (Debian packages).
set -euo pipefail
cd "$(dirname "$0")/.."
songs="${SONGS:-/usr/share/planetblupi/music}"
effects="${EFFECTS:-off on}"
fluidsynth="${FLUIDSYNTH:-fluidsynth}"
aligned=(--align-to-fluidsynth)
[ "${BLOCKS:-yes}" = yes ] && aligned+=(--fluidsynth-compatible)
banks=("$@")
[ ${#banks[@]} -gt 0 ] || banks=(/usr/share/sounds/sf2/FluidR3_GM.sf2 /usr/share/sounds/sf3/MuseScore_General.sf3)
swift build -c release --product polyphon >&2
polyphon=.build/release/polyphon
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
field() { sed -E "s/.*\"$1\": ([-0-9.]+).*/\1/"; }
for bank in "${banks[@]}"; do
    for fx in $effects; do
        echo
        echo "$(basename "$bank"), effects $fx, against $("$fluidsynth" --version | head -1), aligned renders --fluidsynth-compatible: ${BLOCKS:-yes}:"
        echo
        echo "| file | level dB | spectral distance dB | envelope r | exact timing: level / distance / r |"
        echo "|---|---|---|---|---|"
        # Float files on both sides: FluidSynth writes 16 bits by plain rounding, Polyphon with
        # TPDF dither (4.8 dB more noise), which would count in the quiet bands of dark sounds.
        fluid=(-ni -q -r 44100 -g 0.2 -o audio.file.format=float); poly=(-q --rate 44100 --gain 0.2 --bits 32f)
        if [ "$fx" = off ]; then fluid+=(-R 0 -C 0); poly+=(--no-reverb --no-chorus); fi
        for song in "$songs"/*.mid; do
            name=$(basename "$song")
            "$fluidsynth" "${fluid[@]}" -F "$tmp/f.wav" "$bank" "$song" >/dev/null 2>&1
            "$polyphon" render "$song" -s "$bank" "${poly[@]}" "${aligned[@]}" -o "$tmp/a.wav" >/dev/null 2>&1
            "$polyphon" render "$song" -s "$bank" "${poly[@]}" -o "$tmp/e.wav" >/dev/null 2>&1
            a=$("$polyphon" compare "$tmp/a.wav" "$tmp/f.wav" --json)
            e=$("$polyphon" compare "$tmp/e.wav" "$tmp/f.wav" --json)
            printf '| %s | %+.2f | %.2f | %.3f | %+.2f / %.2f / %.3f |\n' "$name" \
                "$(field levelDifference <<<"$a")" "$(field spectralDistance <<<"$a")" "$(field envelopeCorrelation <<<"$a")" \
                "$(field levelDifference <<<"$e")" "$(field spectralDistance <<<"$e")" "$(field envelopeCorrelation <<<"$e")"
        done
    done
done
