#!/usr/bin/python3
"""Plays the jam page in headless Chromium through window.jam and writes what it heard.

    jam-in-chromium.py URL OUTDIR

Opens URL (a running `polyphon jam`) at 1280x800, waits for jam.ready, then: plays A4 on the
piano and on a violin (captured: a4-piano.f32, a4-violin.f32, left then right channel), records
a piano take (take1.json, take1.mid), records a drum layer over it while it plays (take2.json,
take2.mid), plays the two-layer take back (playback.f32), reloads the page (result.json says
whether the take survived, and how long newly chosen instruments took to load), and takes screenshots at 1280x800 and 844x390 (desktop.png,
phone.png, with the keyboard's height and visible key labels at the phone's size), after
keys played at once after Record while an instrument loads (earlyLayer). Exit 2 when Chromium or selenium is missing, 1 when the page fails.
"""
import base64, json, os, sys

sys.dont_write_bytecode = True  # no __pycache__ beside the tests
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jam_page import JamPage

url, out = sys.argv[1:3]


def keyboard_shown(run):
    """The keyboard as laid out now: its height and how many key labels lie wholly inside it."""
    return run("""
        const board = document.getElementById("keyboard").getBoundingClientRect();
        const labels = [...document.querySelectorAll("#keyboard .key span")].filter((l) => {
          const r = l.getBoundingClientRect();
          return l.offsetParent !== null && r.height > 0 && r.top >= board.top && r.bottom <= board.bottom + 0.5
            && r.bottom <= innerHeight + 0.5;
        });
        return { height: board.height, bottom: board.bottom, viewport: innerHeight, labels: labels.length };""")
page = JamPage(url, out, timeout=180)
driver, run, viewport, write, capture = page.driver, page.run, page.viewport, page.write, page.capture

try:
    viewport(1280, 800)
    driver.get(url)
    info = run("await window.jam.ready; return { sampleRate: jam.sampleRate };")
    run("jam.clearTake(); await sleep(300); return 0;")

    capture("a4-piano.f32", run("""
        await jam.setInstrument(0); await sleep(200);
        jam.noteOn(69, 100); const c = await jam.captureOutput(1.0); jam.noteOff(69); await sleep(400);
        return { left: b64(c.left), right: b64(c.right) };"""))
    capture("a4-violin.f32", run("""
        await jam.setInstrument(40); await sleep(200);
        jam.noteOn(69, 100); const c = await jam.captureOutput(1.0); jam.noteOff(69); await sleep(400);
        return { left: b64(c.left), right: b64(c.right) };"""))

    # As from a MIDI keyboard: A4 at its own velocity, the bend wheel up (+2 semitones).
    capture("a4-bent.f32", run("""
        await jam.setInstrument(0); await sleep(200);
        jam.receiveMIDI([0xE3, 0x7F, 0x7F]); jam.receiveMIDI([0x93, 69, 110]);
        const c = await jam.captureOutput(1.0);
        jam.receiveMIDI([0x83, 69, 0]); jam.receiveMIDI([0xE3, 0x00, 0x40]); await sleep(400);
        return { left: b64(c.left), right: b64(c.right) };"""))

    take1 = run("""
        await jam.setInstrument(0); jam.setVelocity(90);
        await jam.startRecording(); await sleep(300);
        for (const key of [60, 64, 67, 72]) { jam.noteOn(key); await sleep(150); jam.noteOff(key); await sleep(50); }
        jam.noteOn(48, 110); jam.noteOn(55, 70); await sleep(300); jam.noteOff(48); jam.noteOff(55); await sleep(200);
        return await jam.stopRecording();""")
    write("take1.json", json.dumps(take1).encode())
    write("take1.mid", base64.b64decode(run("return bytes64(await jam.exportMIDI(jam.take));")))

    take2 = run("""
        await jam.setInstrument(0, { drums: true });
        await jam.startRecording(); await sleep(250);
        for (const key of [36, 42, 38, 42]) { jam.noteOn(key, 100); await sleep(120); jam.noteOff(key); await sleep(80); }
        await sleep(600);
        return await jam.stopRecording();""")
    write("take2.json", json.dumps(take2).encode())
    run("""await jam.setInstrument(0); for (const key of [60, 64, 67]) jam.noteOn(key, 100);
           await sleep(500); return 0;""")
    driver.save_screenshot(os.path.join(out, "desktop.png"))
    run("for (const key of [60, 64, 67]) jam.noteOff(key); await sleep(300); return 0;")
    write("take2.mid", base64.b64decode(run("return bytes64(await jam.exportMIDI(jam.take));")))

    capture("playback.f32", run("""
        const take = jam.take;
        const playing = jam.play(take);
        while (!jam.lastPlayback) await sleep(5);
        const c = await jam.captureOutput(3.0, jam.lastPlayback.startFrame);
        await playing;
        return { left: b64(c.left), right: b64(c.right) };"""))

    # A newly chosen instrument: from the click to the moment a note can sound (the preset's
    # subset fetched, merged and playing in the worklet), for presets not fetched before.
    # The take plays meanwhile: the banks are merged by a Worker, never on the audio thread.
    switches = run("""
        const times = {}, playing = jam.play(jam.take);
        while (!jam.lastPlayback) await sleep(5);
        for (const program of [48, 73, 19]) {
          const t = performance.now(); await jam.setInstrument(program);
          times[program] = performance.now() - t; times["audioThread" + program] = jam.lastBankLoadMs;
          times["worker" + program] = jam.lastBankBuildMs;
        }
        await playing;
        times.audioThreadMerges = jam.audioThreadMerges; times.longestCopyMs = jam.longestCopyMs;
        return times;""")

    driver.refresh()
    reloaded = run("await window.jam.ready; const t = jam.take; return { layers: t ? t.layers.length : 0 };")

    # Keys played at once after Record while a new instrument still loads are in the layer.
    early = run("""
        const switching = jam.setInstrument(11), recording = jam.startRecording();
        jam.noteOn(76, 100); await sleep(60); jam.noteOff(76);
        await switching; await recording; await sleep(300);
        jam.noteOn(79, 100); await sleep(100); jam.noteOff(79); await sleep(100);
        const take = await jam.stopRecording();
        return take.layers[take.layers.length - 1];""")

    viewport(844, 390, mobile=True)
    run("await sleep(400); return 0;")
    driver.save_screenshot(os.path.join(out, "phone.png"))
    write("result.json", json.dumps({"sampleRate": info["sampleRate"], "layersAfterReload": reloaded["layers"],
                                     "instrumentSwitchMs": switches, "earlyLayer": early,
                                     "phoneKeyboard": keyboard_shown(run)}).encode())
    print(f"jam page played in Chromium at {info['sampleRate']} Hz")
except Exception as error:
    page.failed(error)
finally:
    driver.quit()
