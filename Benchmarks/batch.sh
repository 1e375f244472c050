#!/usr/bin/env bash
# A corpus rendered two ways, in one run: `polyphon batch` (one process, every core, the bank
# opened once) against FluidSynth as corpora are rendered today (`xargs -P $(nproc)`, one
# `fluidsynth` process per file), same bank, effects off, 44.1 kHz 16-bit WAV. Prints files/s,
# audio seconds per wall second, peak memory of all processes together, the ratios, and how
# `polyphon batch` scales from --jobs 1 to --jobs $(nproc).
#
# The corpus: the planetblupi songs, COPIES times (default 2). Each time is the best (shortest
# wall time) of REPEAT runs (default 2), alternating the renderers; memory is the largest seen.
# FluidSynth's memory is the sum of the resident sizes of every fluidsynth process alive at
# once, sampled every 50 ms in one more run whose time is not counted (the sampler's `ps`
# calls take CPU from the renderers); polyphon's is its peak RSS (/usr/bin/time -f %M).
# Needs fluidsynth, fluid-soundfont-gm, planetblupi-music-midi, time, bc and python3 (Debian packages).
set -euo pipefail
cd "$(dirname "$0")/.."
BANK=${BANK:-/usr/share/sounds/sf2/FluidR3_GM.sf2}
SONGS=${SONGS:-/usr/share/planetblupi/music}
COPIES=${COPIES:-2}
REPEAT=${REPEAT:-2}
CORES=$(nproc)
swift build -c release --product polyphon >&2
POLYPHON=$PWD/.build/release/polyphon
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
for c in $(seq 1 "$COPIES"); do
    mkdir -p "$WORK/corpus/copy$c"
    cp "$SONGS"/*.mid "$WORK/corpus/copy$c/"
done
FILES=$(find "$WORK/corpus" -name '*.mid' | wc -l)

# Largest sum of the RSS (KiB) of processes named $1, sampled until process $2 ends.
sample_memory() {
    local name=$1 pid=$2 peak=0 now
    while kill -0 "$pid" 2>/dev/null; do
        now=$(ps -C "$name" -o rss= | awk '{ t += $1 } END { print t + 0 }')
        if [ "$now" -gt "$peak" ]; then peak=$now; fi
        sleep 0.05
    done
    echo "$peak"
}

# Total seconds of audio in the WAV files under $1.
audio_seconds() {
    python3 - "$1" <<'PY'
import os, sys, wave
total = 0.0
for root, _, names in os.walk(sys.argv[1]):
    for n in names:
        if n.endswith(".wav"):
            with wave.open(os.path.join(root, n)) as w:
                total += w.getnframes() / w.getframerate()
print(f"{total:.1f}")
PY
}

now() { date +%s.%N; }

# Each run prints "wall_seconds peak_kib" and leaves its WAVs in $WORK/out. FluidSynth's
# memory is sampled only when $1 is "sampled" (its peak is 0 otherwise).
run_fluidsynth() {
    rm -rf "$WORK/out"; mkdir -p "$WORK/out"
    local start end peak=0
    start=$(now)
    (cd "$WORK/corpus" && find . -name '*.mid' | sort | xargs -P "$CORES" -I{} sh -c \
        'fluidsynth -n -i -q -R 0 -C 0 -r 44100 -F "$1/$(echo "$2" | tr / _).wav" "$3" "$2" >/dev/null 2>&1' \
        _ "$WORK/out" {} "$BANK") &
    local pid=$!
    if [ "${1:-}" = sampled ]; then peak=$(sample_memory fluidsynth "$pid"); fi
    wait "$pid"
    end=$(now)
    echo "$(echo "$end - $start" | bc -l) $peak"
}

run_polyphon() {
    local jobs=$1
    rm -rf "$WORK/out"
    local start end rss
    start=$(now)
    /usr/bin/time -f %M -o "$WORK/rss" "$POLYPHON" batch "$WORK/corpus" -o "$WORK/out" --soundfont "$BANK" \
        --no-reverb --no-chorus --jobs "$jobs" -q >/dev/null 2>&1
    end=$(now)
    rss=$(tail -1 "$WORK/rss")
    echo "$(echo "$end - $start" | bc -l) $rss"
}

declare -A WALL PEAK AUDIO
record() {  # name wall peak
    local name=$1 wall=$2 peak=$3
    if [ -z "${WALL[$name]:-}" ] || [ "$(echo "$wall < ${WALL[$name]}" | bc -l)" = 1 ]; then WALL[$name]=$wall; fi
    if [ -z "${PEAK[$name]:-}" ] || [ "$peak" -gt "${PEAK[$name]}" ]; then PEAK[$name]=$peak; fi
    AUDIO[$name]=$(audio_seconds "$WORK/out")
}
for r in $(seq 1 "$REPEAT"); do
    echo "run $r of $REPEAT…" >&2
    read -r w p < <(run_fluidsynth); record fluidsynth "$w" "$p"
    read -r w p < <(run_polyphon "$CORES"); record polyphon "$w" "$p"
    read -r w p < <(run_polyphon 1); record polyphon1 "$w" "$p"
done
echo "FluidSynth's memory…" >&2
read -r w p < <(run_fluidsynth sampled)
PEAK[fluidsynth]=$p

row() {  # label name
    local name=$2
    printf "| %s | %d | %.1f | %.2f | %.0f | %.0f | %.1f MB |\n" "$1" "$FILES" "${WALL[$name]}" \
        "$(echo "$FILES / ${WALL[$name]}" | bc -l)" "${AUDIO[$name]}" \
        "$(echo "${AUDIO[$name]} / ${WALL[$name]}" | bc -l)" "$(echo "${PEAK[$name]} / 1024" | bc -l)"
}
echo
echo "$FILES files ($COPIES × $(ls "$SONGS"/*.mid | wc -l) planetblupi songs), $CORES cores, best of $REPEAT, $(date -u +%Y-%m-%d)"
echo
echo "| renderer | files | wall s | files/s | audio s | audio s per wall s | peak memory, all processes |"
echo "|---|---|---|---|---|---|---|"
row "FluidSynth $(fluidsynth --version 2>/dev/null | head -1 | awk '{print $NF}'), xargs -P $CORES" fluidsynth
row "polyphon batch --jobs $CORES" polyphon
row "polyphon batch --jobs 1" polyphon1
echo
printf "throughput (files/s): polyphon batch / FluidSynth = %.2f×\n" "$(echo "${WALL[fluidsynth]} / ${WALL[polyphon]}" | bc -l)"
printf "peak memory: polyphon batch / FluidSynth = %.3f (1/%.1f)\n" "$(echo "${PEAK[polyphon]} / ${PEAK[fluidsynth]}" | bc -l)" \
    "$(echo "${PEAK[fluidsynth]} / ${PEAK[polyphon]}" | bc -l)"
printf "scaling --jobs 1 → --jobs %d: %.2f× (%.2f × cores)\n" "$CORES" "$(echo "${WALL[polyphon1]} / ${WALL[polyphon]}" | bc -l)" \
    "$(echo "${WALL[polyphon1]} / ${WALL[polyphon]} / $CORES" | bc -l)"
