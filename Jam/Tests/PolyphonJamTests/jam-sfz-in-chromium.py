#!/usr/bin/python3
"""Plays an SFZ piano stacked over a General MIDI bank on the jam page in headless Chromium.

    jam-sfz-in-chromium.py URL OUTDIR

Opens URL (a running `polyphon jam --soundfont Piano.sfz@0:0 --soundfont GM.sf2`, whose first
bank is the stack), waits for jam.ready, then captures (left then right channel, 32-bit floats):
C4 soft with the sustain pedal, held past its key's release, the pedal lifted at 0.8 s so its
release sample sounds (c4-soft.f32); C5 loud (c5-loud.f32);
A4 on program 40, which the piano does not have (a4-program40.f32). result.json holds the
sample rate and the bank the page chose. Exit 2 when Chromium or selenium is missing, 1 when
the page fails.
"""
import json, os, sys

sys.dont_write_bytecode = True  # no __pycache__ beside the tests
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jam_page import JamPage

url, out = sys.argv[1:3]
page = JamPage(url, out, timeout=180)
driver, run, capture, write = page.driver, page.run, page.capture, page.write

try:
    driver.get(url)
    info = run("await window.jam.ready; return { sampleRate: jam.sampleRate, bank: document.getElementById('bank').value };")
    run("jam.clearTake(); await sleep(300); return 0;")
    capture("c4-soft.f32", run("""
        await jam.setInstrument(0); await sleep(200);
        jam.sustain(true); jam.noteOn(60, 40); await sleep(50); jam.noteOff(60);
        setTimeout(() => jam.sustain(false), 800);
        const c = await jam.captureOutput(1.2); await sleep(600);
        return captured(c);"""))
    capture("c5-loud.f32", run("""
        jam.noteOn(72, 110); const c = await jam.captureOutput(0.6); jam.noteOff(72); await sleep(600);
        return captured(c);"""))
    capture("a4-program40.f32", run("""
        await jam.setInstrument(40); await sleep(200);
        jam.noteOn(69, 100); const c = await jam.captureOutput(0.6); jam.noteOff(69); await sleep(400);
        return captured(c);"""))
    write("result.json", json.dumps(info).encode())
    print(f"jam played the SFZ stack in Chromium at {info['sampleRate']} Hz, bank {info['bank']}")
except Exception as error:
    page.failed(error)
finally:
    driver.quit()
