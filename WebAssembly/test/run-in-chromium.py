#!/usr/bin/python3
"""Renders MIDI events through polyphon.wasm in an AudioWorklet in headless Chromium.

    run-in-chromium.py MODULE.wasm BANK.sf2 EVENTS.json SECONDS RATE OUT.f32

Serves the module, the JavaScript, the bank and worklet-test.html from a temporary directory on
127.0.0.1, opens the page in headless Chromium (chromium + chromium-driver + python3-selenium),
waits for window.result and writes the left then the right channel as float32 to OUT.f32.
Exit 2 when Chromium or selenium is missing, 1 when the page fails.
"""
import base64, os, sys, urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ beside the sources
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chromium import run_page

module, bank, events_path, seconds, rate, out = sys.argv[1:7]
here = os.path.dirname(os.path.abspath(__file__))
with open(events_path) as f:
    events = f.read()
files = {"polyphon.wasm": module, "bank.sf2": bank, "worklet-test.html": os.path.join(here, "worklet-test.html")}
for name in ["polyphon.js", "polyphon-worklet.js", "polyphon-midi-player.js"]:
    files[name] = os.path.join(here, "..", name)
result, _ = run_page(files, "worklet-test.html", urllib.parse.urlencode({"events": events, "seconds": seconds, "rate": rate}))
if "error" in result:
    print(result["error"], file=sys.stderr)
    sys.exit(1)
with open(out, "wb") as f:
    f.write(base64.b64decode(result["left"]))
    f.write(base64.b64decode(result["right"]))
print(f"rendered {seconds} s at {result['sampleRate']} Hz in Chromium")
