#!/usr/bin/python3
"""The jam page's worklet playing a MIDI file in headless Chromium: how long the audio thread
spends in process() per second of audio (everything it does: the song's events, the engine's
render, mixing and the capture history), as a share of the 128-frame quantum's time.

    Benchmarks/jam-worklet-cost.py URL SONG.mid [SECONDS] [RUNS]

URL is a running `polyphon jam` (e.g. `swift run --package-path Jam -c release polyphon-jam
--soundfont FluidR3_GM.sf2 --port 8123`, then http://127.0.0.1:8123/). The song is loaded with
`jam.loadMIDI`, played from its start for SECONDS (default 30) RUNS times (default 3); each run
reads the worklet's own count of time spent and frames made (`jam.worklet`) before and after.
Prints one JSON line per run and the best (least time per audio second). Exit 2 when Chromium,
its driver or selenium is missing.
"""
import base64, json, os, sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "WebAssembly", "test"))
from chromium import start_driver

url, song = sys.argv[1:3]
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 30
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 3
with open(song, "rb") as f:
    data = base64.b64encode(f.read()).decode()

driver = start_driver(timeout=int(seconds * runs * 3 + 300))
try:
    driver.get(url)
    results = driver.execute_async_script("""
        const [data, name, seconds, runs] = Array.from(arguments).slice(0, -1), done = arguments[arguments.length - 1];
        const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
        const report = () => new Promise((resolve) => { const seen = jam.worklet; const wait = () => jam.worklet !== seen ? resolve(jam.worklet) : setTimeout(wait, 20); wait(); });
        (async () => {
          await jam.ready;
          const summary = await jam.loadMIDI(Uint8Array.from(atob(data), (c) => c.charCodeAt(0)), name);
          const out = [];
          for (let run = 0; run < runs; run++) {
            await jam.stopFile(); await jam.playFile(); await sleep(500);
            const before = await report();
            let voices = 0;
            for (let t = 0; t < seconds * 4; t++) { await sleep(250); voices = Math.max(voices, jam.worklet.voices); }
            const after = await report();
            const audioSeconds = (after.busyFrames - before.busyFrames) / jam.sampleRate;
            out.push({ song: name, duration: summary.duration, sampleRate: jam.sampleRate, audioSeconds,
                       busyMs: after.busyMs - before.busyMs, msPerAudioSecond: (after.busyMs - before.busyMs) / audioSeconds,
                       percentOfQuantum: (after.busyMs - before.busyMs) / audioSeconds / 10, maxVoices: voices });
          }
          await jam.stopFile();
          return out;
        })().then(done, (e) => done({ error: String(e && e.stack || e) }));""", data, os.path.basename(song), seconds, runs)
    if isinstance(results, dict):
        print(f"the page failed: {results['error']}", file=sys.stderr)
        sys.exit(1)
    for r in results:
        print(json.dumps(r))
    best = min(results, key=lambda r: r["msPerAudioSecond"])
    print(f"best of {runs}: {best['msPerAudioSecond']:.1f} ms per audio second, {best['percentOfQuantum']:.1f} % of the "
          f"quantum, up to {best['maxVoices']} voices ({best['song']}, {seconds:g} s from its start, {best['sampleRate']} Hz)")
finally:
    driver.quit()
