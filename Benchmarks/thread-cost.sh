#!/usr/bin/env bash
# Where a second thread's extra CPU goes: `polyphon render --threads 1` and `--threads 2` of one
# song under `perf record -e cpu-clock` (a fixed sampling rate, so samples count CPU time on every
# thread), then each function's samples side by side, largest growth first. Work that a second
# thread merely moves costs the same on either; what grows is the price of sharing it — a
# function that first touches a voice's state pays for the state another core wrote last, a
# yielding worker shows up in the kernel's scheduler; the last rows are the largest falls (work
# done another way on threads). Needs perf (Debian linux-perf), and the
# planetblupi song and FluidR3_GM bank unless SONG/BANK say otherwise.
#
#   Benchmarks/thread-cost.sh [ROWS]          # default 25
#   SONG=… BANK=… THREADS=4 Benchmarks/thread-cost.sh
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
rows="${1:-25}"
song="${SONG:-/usr/share/planetblupi/music/music001.mid}"
bank="${BANK:-/usr/share/sounds/sf2/FluidR3_GM.sf2}"
threads="${THREADS:-2}"
command -v perf >/dev/null || { echo "perf not found (apt install linux-perf)" >&2; exit 1; }
swift build -c release --product polyphon >/dev/null
polyphon="$PWD/.build/release/polyphon"
scratch="${TMPDIR:-/tmp}"
[[ -z "${TMPDIR:-}" && -d /dev/shm && -w /dev/shm ]] && scratch=/dev/shm
work="$(mktemp -d "$scratch/polyphon-thread-cost.XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "song $(basename "$song"), bank $(basename "$bank"), effects off, perf cpu-clock at 2000 Hz"
for t in 1 "$threads"; do
    perf record -q -e cpu-clock -F 2000 -o "$work/t$t.data" \
        "$polyphon" render "$song" -s "$bank" -q --threads "$t" --no-reverb --no-chorus -o "$work/out.wav" 2>/dev/null
    # "samples symbol" per line; Swift's mangled names shortened to their module and type.
    perf report -i "$work/t$t.data" --no-children --sort sym -n 2>/dev/null \
        | awk '/%/ && $1 !~ /^#/ { print $2, $4 }' | sed -E 's/^([0-9]+) \$s[0-9]+Polyphon/\1 /' \
        | awk '{ print $1, substr($2, 1, 80) }' | sort -k2 > "$work/t$t.txt"
done
total() { awk '{ s += $1 } END { print s }' "$1"; }
t1=$(total "$work/t1.txt") tn=$(total "$work/t$threads.txt")
printf 'samples: %d with 1 thread, %d with %d (%+.1f %%)\n\n' "$t1" "$tn" "$threads" "$(echo "100 * ($tn - $t1) / $t1" | bc -l)"
echo "| function | 1 thread | $threads threads | growth |"
echo "|---|---|---|---|"
join -1 2 -2 2 -a 1 -a 2 -e 0 -o 0,1.1,2.1 "$work/t1.txt" "$work/t$threads.txt" \
    | awk '{ print $3 - $2, $2, $3, $1 }' | sort -rn > "$work/growth.txt"
row() { awk '{ printf "| %s | %d | %d | %+d |\n", $4, $2, $3, $1 }'; }
head -n "$rows" "$work/growth.txt" | row
# The largest falls: work that moved rather than grew (a step done another way on threads).
echo "| … | | | |"
tail -n 5 "$work/growth.txt" | row
