#!/usr/bin/python3
"""Plays MIDI files on the jam page in headless Chromium through window.jam; writes what it heard.

    jam-file-in-chromium.py URL OUTDIR

OUTDIR holds song.mid (written by the test). Opens URL (a running `polyphon jam`), waits for
jam.ready, then: loads a file that is no MIDI file (its error goes to result.json) and then
song.mid (its summary too); plays it whole (full.f32: left then right channel, from the frame
playback started on), again with channel 10 muted (muted.f32), then from a position set with
seekFile (seek.f32), twice as fast and three semitones up (faster.f32), with bars 3–4 looped (loop.f32), with channel 2 at volume 64 (volume.f32); exports it with channel 10 muted (exported.mid, exported.wav); records a keyboard layer over it and exports both (over.mid);
pauses and resumes; gives channel 1 another instrument; loads song.kar and reads the lyric line
shown at the times song.json names (karaokeSeconds). Exit 2 when Chromium
or selenium is missing, 1 when the page fails.
"""
import base64, json, os, sys

sys.dont_write_bytecode = True  # no __pycache__ beside the tests
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jam_page import JamPage

url, out = sys.argv[1:3]
page = JamPage(url, out)
driver, run, capture = page.driver, page.run, page.capture

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
                      return { mid: bytes64(mid), wav: bytes64(wav) };""")
    for name in ["mid", "wav"]:
        page.write("exported." + name, base64.b64decode(exported[name]))

    # A layer recorded on the keyboard while the song plays, exported with the song.
    over = run("""jam.clearTake(); await jam.setInstrument(0); await jam.startRecording(); await sleep(700);
                  jam.noteOn(84, 100); await sleep(200); jam.noteOff(84); await sleep(200);
                  const take = await jam.stopRecording(); const mid = await jam.exportSong("mid"); jam.clearTake();
                  return { take, mid: bytes64(mid) };""")
    page.write("over.mid", base64.b64decode(over["mid"]))
    over_frame = next(e[0] for e in over["take"]["layers"][-1]["events"] if e[1] & 0xF0 == 0x90 and e[2] == 84 and e[3] > 0)

    # Pause and play again: the song goes on from where it paused.
    paused = run("""await jam.playFile(); await sleep(1500); const at = await jam.pauseFile(); await sleep(500);
                    const still = await jam.pauseFile();
                    const lyric = document.querySelector("#song-lyrics .now")?.textContent ?? null;
                    await jam.playFile(); await sleep(300); const later = await jam.pauseFile();
                    await jam.stopFile(); return { at, still, later, lyric };""")

    # Screenshots with the song playing, at a desktop's size and a phone's held sideways.
    roll = {}
    for name, width, height in [("song-desktop.png", 1280, 800), ("song-phone.png", 844, 390)]:
        page.viewport(width, height, mobile=width < 1000)
        # The piano roll's painted pixels while the song plays.
        roll[name] = run("""await jam.playFile(); await sleep(1200);
            const c = document.getElementById("song-roll"), d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
            let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i]) n++; return n;""")
        driver.save_screenshot(os.path.join(out, name))
        run("await jam.stopFile(); return 0;")
    instrument = run("const name = await jam.setChannelInstrument(0, 40); await jam.setChannelInstrument(0, null); return name;")

    # A karaoke file: its syllables in order, and the line shown at two times with the syllable sung then.
    with open(os.path.join(out, "song.kar"), "rb") as f:
        kar = base64.b64encode(f.read()).decode()
    karaoke = run("""const summary = await jam.loadMIDI(unb64(args[0]), 'song.kar'), shown = [];
        for (const seconds of args[1]) {
          await jam.seekFile(seconds);
          const spans = [...document.querySelectorAll("#song-lyrics span")];
          shown.push({ line: spans.map((s) => s.textContent).join(""), now: spans.find((s) => s.className === "now")?.textContent ?? null,
                       sung: spans.filter((s) => s.className === "sung").length });
        }
        return { lyrics: summary.lyrics, shown };""", kar, plan["karaokeSeconds"])

    with open(os.path.join(out, "result.json"), "w") as f:
        json.dump({"sampleRate": info["sampleRate"], "badFile": bad, "summary": summary, "paused": paused, "rollPixels": roll,
                   "instrument": instrument, "overFrame": over_frame, "karaoke": karaoke}, f)
    print(f"jam page played song.mid in Chromium at {info['sampleRate']} Hz")
except Exception as error:
    page.failed(error)
finally:
    driver.quit()
