#!/usr/bin/python3
"""Plays the jam page in headless Chromium through window.jam and writes what it heard.

    jam-in-chromium.py URL OUTDIR

Opens URL (a running `polyphon jam`) at 1280x800, waits for jam.ready, then: plays A4 on the
piano and on a violin (captured: a4-piano.f32, a4-violin.f32, left then right channel), records
a piano take (take1.json, take1.mid), records a drum layer over it while it plays (take2.json,
take2.mid), plays the two-layer take back (playback.f32), reloads the page (result.json says
whether the take survived, and how long newly chosen instruments took to load), and takes screenshots at 1280x800 and 844x390 (desktop.png,
phone.png). Exit 2 when Chromium or selenium is missing, 1 when the page fails.
"""
import base64, json, os, shutil, sys

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError:
    print("python3-selenium is not installed", file=sys.stderr)
    sys.exit(2)

url, out = sys.argv[1:3]
binary = shutil.which("chromium") or shutil.which("chromium-browser")
driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
if not binary or not os.path.exists(driver_path):
    print("chromium or chromium-driver is not installed", file=sys.stderr)
    sys.exit(2)
options = webdriver.ChromeOptions()
for flag in ["--headless=new", "--no-sandbox", "--autoplay-policy=no-user-gesture-required",
             "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars"]:
    options.add_argument(flag)
options.binary_location = binary
driver = webdriver.Chrome(service=Service(driver_path), options=options)
driver.set_script_timeout(180)

def run(body):
    """Runs an async JavaScript body; its return value comes back (errors as {error})."""
    result = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
        const b64 = (floats) => { const u = new Uint8Array(floats.buffer, floats.byteOffset, floats.byteLength);
          let s = ""; for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode(...u.subarray(i, i + 0x8000)); return btoa(s); };
        const bytes64 = (u) => { let s = ""; for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode(...u.subarray(i, i + 0x8000)); return btoa(s); };
        (async () => { """ + body + """ })().then(done, (e) => done({ error: String(e && e.stack || e) }));""")
    if isinstance(result, dict) and "error" in result:
        raise RuntimeError(result["error"])
    return result

def viewport(width, height, mobile=False):
    """The page's own size (a window's would include the browser's frame)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})

def write(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)

def capture(name, result):
    write(name, base64.b64decode(result["left"]) + base64.b64decode(result["right"]))

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
    switches = run("""
        const times = {};
        for (const program of [48, 73, 19]) {
          const t = performance.now(); await jam.setInstrument(program);
          times[program] = performance.now() - t; times["audioThread" + program] = jam.lastBankLoadMs;
        }
        return times;""")

    driver.refresh()
    reloaded = run("await window.jam.ready; const t = jam.take; return { layers: t ? t.layers.length : 0 };")
    viewport(844, 390, mobile=True)
    run("await sleep(400); return 0;")
    driver.save_screenshot(os.path.join(out, "phone.png"))
    write("result.json", json.dumps({"sampleRate": info["sampleRate"], "layersAfterReload": reloaded["layers"],
                                     "instrumentSwitchMs": switches}).encode())
    print(f"jam page played in Chromium at {info['sampleRate']} Hz")
except Exception as error:
    print(f"the page failed: {error}", file=sys.stderr)
    try:
        for entry in driver.get_log("browser")[-20:]:
            print(entry.get("message"), file=sys.stderr)
    except Exception:
        pass
    sys.exit(1)
finally:
    driver.quit()
