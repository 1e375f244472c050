#!/usr/bin/env bash
# Fuzzes Polyphon's parsers with libFuzzer and AddressSanitizer.
#
#   Scripts/fuzz.sh TARGET|all [--time SECONDS | --runs N] [--jobs N] [-- LIBFUZZER_FLAGS...]
#   Scripts/fuzz.sh list
#
# --jobs N fuzzes N targets at once (default 1), each with the whole budget: on a machine with N
# free cores, `all` then takes 1/N of the time and every target gets as many executions.
#
# Targets (Fuzzing/PolyphonFuzz/FuzzTarget.swift): midi-file, soundfont (renders every preset),
# dls, sample-bank, midi-stream, audio-file, sfz, sfz-engine (renders). Each starts from seed corpora built in code
# (`PolyphonFuzz seeds`) plus what earlier runs kept in .build-fuzz/corpus/TARGET, and stops
# after the time or number of runs given (default 60 s). Crashes, leaks, time-outs (10 s per
# input) and out-of-memory inputs (one allocation over 512 MB, or 2 GB resident) are saved in
# .build-fuzz/artifacts/TARGET; `PolyphonFuzz replay TARGET FILE` runs one again.
#
# Prints one line per target: executions, coverage (edges and features), corpus size and
# crashes; exits 1 if any target crashed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=.build-fuzz
target="${1:-}"; shift || true
budget=(-max_total_time=60)
jobs=1
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --time) budget=(-max_total_time="$2"); shift 2 ;;
        --runs) budget=(-runs="$2"); shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        --) shift; extra=("$@"); break ;;
        *) echo "unknown argument $1" >&2; exit 64 ;;
    esac
done

# The seed and replay tool (ordinary build), then the fuzzing build of the same target.
swift build -c release --product PolyphonFuzz >/dev/null
tool=".build/release/PolyphonFuzz"
if [ "$target" = "list" ] || [ -z "$target" ]; then "$tool" targets; exit 0; fi
# The swift driver has been seen to hand its compile jobs -sanitize=address alone, dropping
# the fuzzer's coverage instrumentation (a binary with 2 counters instead of ~34,000): the
# frontend is given -sanitize=fuzzer itself.
build_fuzzer() {
    swift build -c release --product PolyphonFuzz --scratch-path "$root/build" \
        --sanitize fuzzer --sanitize address -Xswiftc -DFUZZING -Xswiftc -Xfrontend -Xswiftc -sanitize=fuzzer >/dev/null
}
fuzzer="$root/build/release/PolyphonFuzz"
counters() {
    POLYPHON_FUZZ_TARGET=midi-stream "$fuzzer" -runs=0 2>&1 | grep -o '([0-9]* inline 8-bit counters' | grep -o '[0-9]*' | head -1 || true
}
build_fuzzer
# A fuzzer without coverage counters fuzzes blind: rebuild from scratch once, then refuse.
if [ "$(counters)" -lt 1000 ] 2>/dev/null || [ -z "$(counters)" ]; then
    rm -rf "$root/build"
    build_fuzzer
fi
blind=""
if [ "$(counters)" -lt 1000 ] 2>/dev/null || [ -z "$(counters)" ]; then
    # Should not happen any more (see build_fuzzer); if it does, the targets still run and
    # catch crashes on their seeds and random inputs, but without coverage feedback — said on
    # every line, never reported as coverage.
    blind=" — BLIND: the fuzzer binary has no coverage instrumentation ($(counters) counters)"
    echo "fuzz.sh: warning: the fuzzer binary has no coverage instrumentation; fuzzing without coverage feedback" >&2
fi

if [ "$target" = "all" ]; then targets=$("$tool" targets | cut -d' ' -f1); else targets="$target"; fi
# Fuzzes one target; writes its summary line (and, if it failed, the first error and the
# saved inputs) to $root/$t.summary; exits 1 if it crashed.
fuzz_target() {
    local t="$1"
    # Replaced at the end: a target that stops early (its seeds could not be made) fails.
    printf '%s: did not finish\n(see %s)\n' "$t" "$root/$t.log" >"$root/$t.summary"
    local seeds="$root/seeds/$t" corpus="$root/corpus/$t" artifacts="$root/artifacts/$t"
    rm -rf "$seeds"; mkdir -p "$corpus" "$artifacts"
    "$tool" seeds "$t" "$seeds"
    local log="$root/$t.log" summary="$root/$t.summary" status runs last cov ft corp crashes
    set +e
    # Swift's own crash backtracer is off: libFuzzer and ASan report the crash and keep the input.
    POLYPHON_FUZZ_TARGET="$t" SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1" \
        "$fuzzer" "$corpus" "$seeds" "${budget[@]}" -timeout=10 -malloc_limit_mb=512 -rss_limit_mb=2048 \
        -artifact_prefix="$artifacts/" -print_final_stats=1 "${extra[@]}" >"$log" 2>&1
    status=$?
    set -e
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)
    last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
    cov=$(echo "$last" | grep -o 'cov: [0-9]*' | grep -o '[0-9]*' || true)
    ft=$(echo "$last" | grep -o 'ft: [0-9]*' | grep -o '[0-9]*' || true)
    corp=$(echo "$last" | grep -o 'corp: [0-9]*' | grep -o '[0-9]*' || true)
    crashes=$(find "$artifacts" -type f | wc -l)
    echo "$t: ${runs:-?} executions, coverage ${cov:-?} edges / ${ft:-?} features, corpus ${corp:-?}, crashes $crashes (exit $status, log $log)$blind" >"$summary"
    if [ "$status" != 0 ] || [ "$crashes" != 0 ]; then
        { grep -m1 -E 'ERROR: |Fatal error|==ERROR|SUMMARY' "$log" || true; find "$artifacts" -type f | head -5; } >>"$summary"
        return 1
    fi
}

# At most $jobs targets at once; each summary is printed in the targets' order.
running=0
for t in $targets; do
    if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
    fuzz_target "$t" &
    running=$((running + 1))
done
wait
failed=0
for t in $targets; do
    cat "$root/$t.summary"
    if [ "$(wc -l < "$root/$t.summary")" -gt 1 ]; then failed=1; fi
done
exit $failed
