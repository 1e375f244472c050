#!/usr/bin/python3
"""The speed of polyphon.wasm in headless Chromium (bench.html), printed as one JSON line.

    bench-in-chromium.py MODULE.wasm BANK.sf2 SONG.json [REPEATS]

Exit 2 when Chromium or selenium is missing, 1 when the page fails.
"""
import json, os, sys

sys.dont_write_bytecode = True  # no __pycache__ beside the sources
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chromium import run_page

module, bank, song = sys.argv[1:4]
repeats = sys.argv[4] if len(sys.argv) > 4 else "3"
here = os.path.dirname(os.path.abspath(__file__))
files = {"polyphon.wasm": module, "bank.sf2": bank, "song.json": song}
for name in ["bench.html", "bench-worklet.js"]:
    files[name] = os.path.join(here, name)
for name in ["benchmark.mjs", "polyphon.js"]:
    files[name] = os.path.join(here, "..", name)
result, version = run_page(files, "bench.html", f"repeats={repeats}", timeout=600)
if "error" in result:
    print(result["error"], file=sys.stderr)
    sys.exit(1)
print(json.dumps({"runtime": f"Chromium {version}", **result}))
