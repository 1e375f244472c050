#!/usr/bin/env bash
# One song on every core: `polyphon render --threads 1` against `--threads 2` and FluidSynth on
# the same files, in one run, best of REPEAT with the contenders interleaved (machine noise only
# ever adds time): a long song with effects off and on, the ceiling (the song rendered twice at
# once by two single-thread processes against once alone), then held voices (64, 256 and 1024), then
# the most voices `polyphon synth` sustains in real time at 10 ms latency through a private
# PulseAudio null sink (none lost, none late: no underrun in LIVE_SECONDS). Prints Markdown
# tables for Documentation/threads.md.
#
#   Benchmarks/threads.sh [REPEAT]                    # default 3
#   SONG=… BANK=… THREADS="1 2" LIVE_SECONDS=8 BEFORE=path/to/older/polyphon Benchmarks/threads.sh
#   FLUID_CORES=0 HELD="256" LIVE=0 Benchmarks/threads.sh 3  # a shorter run: without FluidSynth's
#                                                      # own threads, one held count, no live test
#   CEILING=0 …                                        # without the ceiling (two renders at once)
#
# BEFORE names a polyphon built from an earlier commit: it renders the song too, with the most
# threads listed, and its live figure is measured (it takes no --threads there). Needs fluidsynth, fluid-soundfont-gm, planetblupi-music-midi, pulseaudio (Debian).
set -euo pipefail
cd "$(dirname "$0")/.."
repeat="${1:-3}"
song="${SONG:-/usr/share/planetblupi/music/music001.mid}"
bank="${BANK:-/usr/share/sounds/sf2/FluidR3_GM.sf2}"
threads_list="${THREADS:-1 2}"
live_seconds="${LIVE_SECONDS:-8}"
before="${BEFORE:-}"
fluid_cores="${FLUID_CORES:-2}"
held_list="${HELD-64 256 1024}"
live="${LIVE:-1}"
swift build -c release --product polyphon >/dev/null
polyphon=.build/release/polyphon
# The renders are written to memory where the machine has it (/dev/shm): a 310 MB WAV written
# to disk adds the kernel's write-back (about a second on the 2-core machine) to whichever
# renderer wrote it, which measures the disk, not the renderer. TMPDIR chooses another place.
scratch="${TMPDIR:-/tmp}"
[[ -z "${TMPDIR:-}" && -d /dev/shm && -w /dev/shm ]] && scratch=/dev/shm
work="$(mktemp -d "$scratch/polyphon-threads.XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), best of $repeat"
echo "bank $(basename "$bank"), song $(basename "$song")"

now() { date +%s.%N; }

# Runs every contender (a name and a command line) once per round, REPEAT rounds, and prints
# the best time of each as "name seconds".
race() {
    local -n _names=$1 _commands=$2
    local -A best=()
    local round i t0 t1 t
    for ((round = 0; round < repeat; round++)); do
        for i in "${!_names[@]}"; do
            t0=$(now)
            eval "${_commands[$i]}" >/dev/null 2>&1 || { echo "failed: ${_commands[$i]}" >&2; exit 1; }
            t1=$(now)
            t=$(echo "$t1 - $t0" | bc -l)
            if [[ -z "${best[${_names[$i]}]:-}" ]] || (( $(echo "$t < ${best[${_names[$i]}]}" | bc -l) )); then
                best[${_names[$i]}]=$t
            fi
        done
    done
    for i in "${!_names[@]}"; do echo "${_names[$i]} ${best[${_names[$i]}]}"; done
}

# A table row from race output: seconds, × real time and the ratios to the first thread count
# and to FluidSynth.
report() {
    local label=$1 audio=$2 results=$3
    local first fluid
    # Names hold spaces ("polyphon --threads 2"): the time is the last field.
    first=$(echo "$results" | awk 'NR==1 {print $NF}')
    fluid=$(echo "$results" | awk 'NF==2 && $1=="fluidsynth" {print $NF}')
    echo "$results" | while read -r line; do
        local name=${line% *} t=${line##* }
        local speedup="" vsfluid=""
        [[ "$name" != fluidsynth* ]] && speedup=$(printf '%.2f×' "$(echo "$first / $t" | bc -l)")
        [[ -n "$fluid" && "$name" != fluidsynth ]] && vsfluid=$(printf '%.2f×' "$(echo "$fluid / $t" | bc -l)")
        local rt
        rt=$(echo "$audio / $t" | bc -l)
        # Whole numbers, but a tenth below 10× (FluidSynth holds 1024 voices at a quarter of real time).
        if (( $(echo "$rt < 10" | bc -l) )); then rt=$(printf '%.1f×' "$rt"); else rt=$(printf '%.0f×' "$rt"); fi
        printf '| %s | %s | %.2f s | %s | %s | %s |\n' "$label" "$name" "$t" "$rt" "$speedup" "$vsfluid"
    done
}

audio_seconds() { "$polyphon" info "$1" | awk '/duration/ {print $2; exit}'; }

echo
echo "| case | renderer | time | × real time | vs 1 thread | vs FluidSynth |"
echo "|---|---|---|---|---|---|"
song_audio=$(audio_seconds "$song")
for effects in off on; do
    names=() commands=()
    for t in $threads_list; do
        names+=("polyphon --threads $t")
        flags="--threads $t"
        [[ $effects == off ]] && flags+=" --no-reverb --no-chorus"
        commands+=("$polyphon render '$song' -s '$bank' -o '$work/p.wav' -q $flags")
    done
    if [[ -n "$before" ]]; then
        # The older build with the most threads, for before/after on the song.
        names+=("before --threads $t")
        commands+=("$before render '$song' -s '$bank' -o '$work/b.wav' -q $flags")
    fi
    names+=(fluidsynth)
    fx=""
    [[ $effects == off ]] && fx="-R 0 -C 0"
    commands+=("fluidsynth -n -i -q -r 44100 $fx -F '$work/f.wav' '$bank' '$song'")
    # FluidSynth's own threads: synth.cpu-cores renders voices on extra threads.
    if ((fluid_cores > 1)); then
        names+=("fluidsynth -o synth.cpu-cores=$fluid_cores")
        commands+=("fluidsynth -n -i -q -r 44100 $fx -o synth.cpu-cores=$fluid_cores -F '$work/f.wav' '$bank' '$song'")
    fi
    report "$(basename "$song") (${song_audio%.*} s), effects $effects" "$song_audio" "$(race names commands)"
done

# The ceiling: what the machine's cores give work that shares nothing — the song rendered twice
# at once by two single-thread processes, against once alone. No split of one render over two
# threads can beat this throughput; on a virtual machine it is often well below 2×.
if [[ "${CEILING:-1}" != 0 ]]; then
    one="$polyphon render '$song' -s '$bank' -q --threads 1 --no-reverb --no-chorus"
    names=("alone" "two at once")
    commands=("$one -o '$work/p.wav'" "( $one -o '$work/p.wav' & $one -o '$work/q.wav'; wait )")
    ceiling=$(race names commands)
    alone=$(echo "$ceiling" | awk '$1=="alone" {print $NF}')
    both=$(echo "$ceiling" | awk '$1=="two" {print $NF}')
    printf '| %s, effects off | two renders at once, --threads 1 each | %.2f s | %s | %.2f× throughput (the ceiling) | |\n' \
        "$(basename "$song") (${song_audio%.*} s)" "$both" "$(printf '%.0f×' "$(echo "2 * $song_audio / $both" | bc -l)")" \
        "$(echo "2 * $alone / $both" | bc -l)"
fi

# Held string notes (two voices each in FluidR3_GM) on every channel but the drums, so the
# voice count is what the notes ask for: 20 s held, then released.
held_song() {
    python3 - "$1" "$2" <<'EOF'
import struct, sys
voices, path = int(sys.argv[1]), sys.argv[2]
notes = voices // 2
channels = [c for c in range(16) if c != 9]
events = []
for c in channels:
    events.append((0, bytes([0xC0 | c, 48])))
placed = []
for k in range(notes):
    c = channels[k % len(channels)]
    key = 24 + (k // len(channels)) % 96
    placed.append((c, key))
    events.append((0, bytes([0x90 | c, key, 100])))
for c, key in placed:
    events.append((960 * 20, bytes([0x80 | c, key, 0])))
def vlq(n):
    out = [n & 0x7F]
    n >>= 7
    while n:
        out.insert(0, 0x80 | (n & 0x7F))
        n >>= 7
    return bytes(out)
track, last = b"", 0
for tick, msg in events:
    track += vlq(tick - last) + msg
    last = tick
track += vlq(0) + b"\xff\x2f\x00"
with open(path, "wb") as f:
    f.write(b"MThd" + struct.pack(">IHHH", 6, 0, 1, 480) + b"MTrk" + struct.pack(">I", len(track)) + track)
EOF
}

for voices in $held_list; do
    midi="$work/held-$voices.mid"
    held_song "$voices" "$midi"
    names=() commands=()
    for t in $threads_list; do
        names+=("polyphon --threads $t")
        commands+=("$polyphon render '$midi' -s '$bank' -o '$work/p.wav' -q --threads $t --polyphony 4096 --no-reverb --no-chorus")
    done
    names+=(fluidsynth)
    commands+=("fluidsynth -n -i -q -r 44100 -R 0 -C 0 -o synth.polyphony=4096 -F '$work/f.wav' '$bank' '$midi'")
    report "$voices held voices" "$(audio_seconds "$midi")" "$(race names commands)"
done

# The live test: a private PulseAudio server with a null sink (real-time paced, nothing heard).
if [[ "$live" == 0 ]]; then exit 0; fi
if ! command -v pulseaudio >/dev/null; then
    echo; echo "pulseaudio not installed: no live figures"; exit 0
fi
export PULSE_SERVER="unix:$work/pulse/native"
mkdir -p "$work/pulse"
HOME="$work/pulse" XDG_RUNTIME_DIR="$work/pulse" XDG_CONFIG_HOME="$work/pulse" \
    pulseaudio -n --daemonize=no --exit-idle-time=-1 --use-pid-file=no --disable-shm=yes --log-target=stderr \
    --log-level=error -L "module-native-protocol-unix socket=$work/pulse/native auth-anonymous=1" \
    -L "module-null-sink sink_name=bench format=float32le rate=44100 channels=2" 2>/dev/null &
pulse=$!
trap 'kill $pulse 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do [[ -S "$work/pulse/native" ]] && break; sleep 0.1; done

# Underruns while `voices` held voices play for LIVE_SECONDS through BINARY with FLAGS.
underruns() {
    local binary=$1 voices=$2 flags=$3
    python3 - "$voices" "$live_seconds" <<'EOF' | "$binary" synth --stdin --latency 10 --polyphony 8192 --tail 2 \
        --no-reverb --no-chorus -s "$bank" $flags 2>&1 | awk '/underruns/ { for (i = 1; i < NF; i++) if ($(i+1) ~ /^underruns/) print $i }'
import sys, time
voices, seconds = int(sys.argv[1]), float(sys.argv[2])
channels = [c for c in range(16) if c != 9]
out = sys.stdout.buffer
out.write(bytes(b for c in channels for b in (0xC0 | c, 48)))
for k in range(voices // 2):
    out.write(bytes([0x90 | channels[k % len(channels)], 24 + (k // len(channels)) % 96, 100]))
out.flush()
time.sleep(seconds)
EOF
}

# The largest voice count with no underrun: up a ladder until one fails, then three halvings of
# the gap (to 16 voices). The ladder stops at 2880 voices, every key of 24…119 held on 15
# channels: beyond that a note would strike a held key again, which releases the note it held,
# so more notes would not mean more voices.
largest_live() {
    local binary=$1 flags=$2 good=0 bad=0 voices
    for voices in 64 128 256 384 512 768 1024 1536 2048 2880; do
        if [[ "$(underruns "$binary" "$voices" "$flags")" == 0 ]]; then good=$voices; else bad=$voices; break; fi
    done
    ((bad == 0)) && { echo "≥ $good (the most this test holds)"; return; }
    for _ in 1 2 3; do
        voices=$(( (good + bad) / 32 * 16 ))
        ((voices <= good)) && break
        if [[ "$(underruns "$binary" "$voices" "$flags")" == 0 ]]; then good=$voices; else bad=$voices; fi
    done
    echo "$good"
}

echo
echo "| live (\`polyphon synth\`, 10 ms) | most held voices with no underrun in ${live_seconds} s |"
echo "|---|---|"
if [[ -n "$before" ]]; then
    echo "| before (\`$(basename "$before")\`) | $(largest_live "$before" "") |"
fi
for t in $threads_list; do
    echo "| --threads $t | $(largest_live "$polyphon" "--threads $t") |"
done
echo
echo "(load after the run: $(cut -d' ' -f1-3 /proc/loadavg))"
