#!/usr/bin/env bash
# Builds and runs Examples/BounceApp, an app package that depends on Polyphon by path, as a new
# user's app would. Fails when the app resolves more than 2 packages (Polyphon's libraries must
# bring nothing but swift-argument-parser and swift-atomics), or when the bounce is not the
# seed's song as a WAV file rendered faster than real time.
#
#   Scripts/example-app.sh [SOUNDFONT] [debug|release]
set -euo pipefail
BANK="${1:-/usr/share/sounds/sf2/FluidR3_GM.sf2}"
CONFIGURATION="${2:-release}"
cd "$(dirname "$0")/../Examples/BounceApp"

swift package resolve
swift package show-dependencies
# Polyphon itself is a local path; every other package the app resolves is pinned here.
count=$(python3 -c 'import json, os; print(len(json.load(open("Package.resolved"))["pins"]) if os.path.exists("Package.resolved") else 0)')
echo "BounceApp resolves $count packages besides Polyphon"
if [ "$count" -gt 2 ]; then
    echo "error: BounceApp resolves $count packages; an app using Polyphon's libraries may resolve at most 2" >&2
    exit 1
fi

swift build -c "$CONFIGURATION"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$(swift build -c "$CONFIGURATION" --show-bin-path)/BounceApp" "$BANK" -o "$out/song.wav" | tee "$out/log"
# 240 BPM: eight one-beat notes and a three-beat chord are 2.75 s, then the release and reverb.
python3 - "$out/song.wav" "$out/log" <<'PY'
import re, sys, wave
with wave.open(sys.argv[1]) as w:
    seconds = w.getnframes() / w.getframerate()
    assert w.getnchannels() == 2 and w.getframerate() == 44100, (w.getnchannels(), w.getframerate())
    frames = w.readframes(w.getnframes())
assert 2.75 < seconds < 15, f"the song lasts {seconds:.2f} s"
assert any(frames), "the song is silent"
speed = float(re.search(r"([0-9.]+)× real time", open(sys.argv[2]).read()).group(1))
assert speed > 1, f"{speed}× real time is not faster than real time"
print(f"BounceApp: {seconds:.2f} s of audio, {speed:.0f}× real time")
PY
