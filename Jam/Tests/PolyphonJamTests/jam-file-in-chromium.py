#!/usr/bin/python3
"""Plays MIDI files on the jam page in headless Chromium through window.jam; writes what it heard.

    jam-file-in-chromium.py URL OUTDIR

OUTDIR holds song.mid (written by the test). Opens URL (a running `polyphon jam`), waits for
jam.ready, then: loads a file that is no MIDI file (its error goes to result.json) and then
song.mid (its summary too); plays it whole (full.f32: left then right channel, from the frame
playback started on), again with channel 10 muted (muted.f32), then from a position set with
seekFile (seek.f32), twice as fast and three semitones up (faster.f32), with bars 3–4 looped (loop.f32), with channel 2 at volume 64 (volume.f32); exports it with channel 10 muted (exported.mid, exported.wav); records a keyboard layer over it and exports both (over.mid);
pauses and resumes; gives channel 1 another instrument. Exit 2 when Chromium
or selenium is missing, 1 when the page fails.
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
             "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800"]:
    options.add_argument(flag)
options.binary_location = binary
driver = webdriver.Chrome(service=Service(driver_path), options=options)
driver.set_script_timeout(300)

def run(body, *args):
    """Runs an async JavaScript body (arguments as `args`); its value comes back (errors raise)."""
    result = driver.execute_async_script("""
        const args = Array.from(arguments).slice(0, -1), done = arguments[arguments.length - 1];
        const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
        const b64 = (floats) => { const u = new Uint8Array(floats.buffer, floats.byteOffset, floats.byteLength);
          let s = ""; for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode(...u.subarray(i, i + 0x8000)); return btoa(s); };
        const unb64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
        const captured = (c) => ({ left: b64(c.left), right: b64(c.right), from: c.from });
        (async () => { """ + body + """ })().then(done, (e) => done({ error: String(e && e.stack || e) }));""", *args)
    if isinstance(result, dict) and "error" in result:
        raise RuntimeError(result["error"])
    return result

def capture(name, result):
    with open(os.path.join(out, name), "wb") as f:
        f.write(base64.b64decode(result["left"]) + base64.b64decode(result["right"]))

try:
    with open(os.path.join(out, "song.mid"), "rb") as f:
        song = base64.b64encode(f.read()).decode()
    with open(os.path.join(out, "song.json")) as f:
        plan = json.load(f)
    driver.get(url)
    info = run("await window.jam.ready; return { sampleRate: jam.sampleRate };")

    # A file that is no MIDI file: the promise is rejected with the reader's message, the page goes on.
    bad = run("""try { await jam.loadMIDI(new TextEncoder().encode("This is not a MIDI file."), "not-midi.mid"); return "loaded"; }
                 catch (e) { return String(e.message); }""")
    summary = run("return await jam.loadMIDI(unb64(args[0]), 'song.mid');", song)
    seconds = plan["seconds"]

    capture("full.f32", run("""const frame = await jam.playFile(); const c = await jam.captureOutput(args[0], frame);
                               await jam.stopFile(); return captured(c);""", seconds))
    capture("muted.f32", run("""await jam.muteChannel(9, true); const frame = await jam.playFile();
                                const c = await jam.captureOutput(args[0], frame); await jam.stopFile();
                                await jam.muteChannel(9, false); return captured(c);""", seconds))
    capture("seek.f32", run("""await jam.seekFile(args[0]); const frame = await jam.playFile();
                               const c = await jam.captureOutput(args[1], frame); await jam.stopFile(); return captured(c);""",
                            plan["seekSeconds"], seconds - plan["seekSeconds"]))

    capture("faster.f32", run("""await jam.setFileTempo(2); await jam.transposeFile(3); const frame = await jam.playFile();
                                 const c = await jam.captureOutput(args[0], frame); await jam.stopFile();
                                 await jam.setFileTempo(1); await jam.transposeFile(0); return captured(c);""", seconds / 2))

    capture("loop.f32", run("""await jam.loopFile(2, 4); const frame = await jam.playFile();
                               const c = await jam.captureOutput(6, frame); await jam.stopFile(); await jam.loopFile(null);
                               return captured(c);"""))

    capture("volume.f32", run("""await jam.setChannelVolume(1, 64); const frame = await jam.playFile();
                                 const c = await jam.captureOutput(6, frame); await jam.stopFile(); await jam.setChannelVolume(1, null);
                                 return captured(c);"""))

    # The song exported with channel 10 muted, as MIDI and as 32-bit float WAV rendered by the server.
    exported = run("""await jam.muteChannel(9, true);
                      const mid = await jam.exportSong("mid"), wav = await jam.exportSong("wav", "32f");
                      await jam.muteChannel(9, false);
                      const b = (u) => { let s = ""; for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode(...u.subarray(i, i + 0x8000)); return btoa(s); };
                      return { mid: b(mid), wav: b(wav) };""")
    for name in ["mid", "wav"]:
        with open(os.path.join(out, "exported." + name), "wb") as f:
            f.write(base64.b64decode(exported[name]))

    # A layer recorded on the keyboard while the song plays, exported with the song.
    over = run("""jam.clearTake(); await jam.setInstrument(0); await jam.startRecording(); await sleep(700);
                  jam.noteOn(84, 100); await sleep(200); jam.noteOff(84); await sleep(200);
                  const take = await jam.stopRecording(); const mid = await jam.exportSong("mid"); jam.clearTake();
                  let s = ""; for (let i = 0; i < mid.length; i += 0x8000) s += String.fromCharCode(...mid.subarray(i, i + 0x8000));
                  return { take, mid: btoa(s) };""")
    with open(os.path.join(out, "over.mid"), "wb") as f:
        f.write(base64.b64decode(over["mid"]))

    # Pause and play again: the song goes on from where it paused.
    paused = run("""await jam.playFile(); await sleep(1500); const at = await jam.pauseFile(); await sleep(500);
                    const still = await jam.pauseFile();
                    const lyric = document.querySelector("#song-lyrics .now")?.textContent ?? null;
                    await jam.playFile(); await sleep(300); const later = await jam.pauseFile();
                    await jam.stopFile(); return { at, still, later, lyric };""")

    # Screenshots with the song playing, at a desktop's size and a phone's held sideways.
    roll = {}
    for name, width, height in [("song-desktop.png", 1280, 800), ("song-phone.png", 844, 390)]:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 1000})
        # The piano roll's painted pixels while the song plays.
        roll[name] = run("""await jam.playFile(); await sleep(1200);
            const c = document.getElementById("song-roll"), d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
            let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i]) n++; return n;""")
        driver.save_screenshot(os.path.join(out, name))
        run("await jam.stopFile(); return 0;")
    instrument = run("const name = await jam.setChannelInstrument(0, 40); await jam.setChannelInstrument(0, null); return name;")

    with open(os.path.join(out, "result.json"), "w") as f:
        json.dump({"sampleRate": info["sampleRate"], "badFile": bad, "summary": summary, "paused": paused, "rollPixels": roll,
                   "instrument": instrument}, f)
    print(f"jam page played song.mid in Chromium at {info['sampleRate']} Hz")
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
