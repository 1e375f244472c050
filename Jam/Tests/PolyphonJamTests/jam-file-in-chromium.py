#!/usr/bin/python3
"""Plays MIDI files on the jam page in headless Chromium through window.jam; writes what it heard.

    jam-file-in-chromium.py URL OUTDIR

OUTDIR holds song.mid and song.kar (written by the test), which the server lists as `--midi`
does. Opens URL (a running `polyphon jam`), waits for jam.ready, then: loads a file that is no
MIDI file, and drops one on the page (their errors go to result.json), and then song.mid (its
summary too); plays it whole (full.f32: left then right channel, from the frame
playback started on), again with channel 10 muted (muted.f32), then from a position set with
seekFile (seek.f32, with the bar:beat and time shown there), twice as fast and three semitones up (faster.f32), with bars 3–4 looped (loop.f32), with channel 2 at volume 64 (volume.f32); exports it with channel 10 muted (exported.mid, exported.wav) and with channels 1 and 10 soloed (soloed.mid); mutes its drums, records a drum layer on the keyboard over it and exports both (over.mid);
pauses and resumes; gives channel 1 another instrument; opens song.kar from the server's list and reads the lyric line
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
    # The same dropped on the page: its message names the file and the problem.
    dropped = run("""const data = new DataTransfer();
        data.items.add(new File([new TextEncoder().encode("This is not a MIDI file.")], "dropped.mid"));
        dispatchEvent(new DragEvent("drop", { dataTransfer: data, cancelable: true }));
        const message = document.getElementById("message");
        for (let i = 0; i < 250 && !message.textContent.includes("dropped.mid"); i++) await sleep(20);
        return { text: message.textContent, shownAsError: message.classList.contains("error") };""")
    # A damaged file the reader can still read (the song cut short): it loads, and the page says
    # what is wrong with it.
    damaged = run("""const bytes = unb64(args[0]), cut = bytes.subarray(0, Math.floor(bytes.length * 0.6));
        const read = await jam.loadMIDI(cut, "cut.mid"), message = document.getElementById("message");
        return { warnings: read.warnings, text: message.textContent, shownAsError: message.classList.contains("error") };""", song)
    summary = run("return await jam.loadMIDI(unb64(args[0]), 'song.mid');", song)
    seconds = plan["seconds"]

    capture("full.f32", run("""const frame = await jam.playFile(); const c = await jam.captureOutput(args[0], frame);
                               await jam.stopFile(); return captured(c);""", seconds))
    # The channel meters while it plays, every quarter second (null: silent).
    muted = run("""await jam.muteChannel(9, true); const frame = await jam.playFile(), levels = [];
                   const meter = setInterval(() => levels.push(jam.channelLevels().map((v) => v === -Infinity ? null : v)), 250);
                   const c = await jam.captureOutput(args[0], frame); clearInterval(meter); await jam.stopFile();
                   await jam.muteChannel(9, false); return { ...captured(c), levels };""", seconds)
    levels = muted.pop("levels")
    capture("muted.f32", muted)
    seek = run("""await jam.seekFile(args[0]); const shown = document.getElementById("song-time").textContent;
                  const frame = await jam.playFile();
                  const c = await jam.captureOutput(args[1], frame); await jam.stopFile(); return { ...captured(c), shown };""",
               plan["seekSeconds"], seconds - plan["seekSeconds"])
    seek_shown = seek.pop("shown")
    capture("seek.f32", seek)

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
    page.write("soloed.mid", base64.b64decode(run("""await jam.soloChannel(0, true); await jam.soloChannel(9, true);
        const mid = await jam.exportSong("mid"); await jam.soloChannel(0, false); await jam.soloChannel(9, false);
        return bytes64(mid);""")))

    # The drums muted and a drum layer recorded on the keyboard while the song plays, exported with the song.
    over = run("""jam.clearTake(); await jam.muteChannel(9, true); await jam.setInstrument(0, { drums: true });
                  await jam.startRecording(); await sleep(700);
                  jam.noteOn(38, 100); await sleep(200); jam.noteOff(38); await sleep(200);
                  const take = await jam.stopRecording(); const mid = await jam.exportSong("mid"); jam.clearTake();
                  await jam.muteChannel(9, false); await jam.setInstrument(0);
                  return { take, mid: bytes64(mid) };""")
    page.write("over.mid", base64.b64decode(over["mid"]))
    over_frame = next(e[0] for e in over["take"]["layers"][-1]["events"] if e[1] & 0xF0 == 0x90 and e[2] == 38 and e[3] > 0)

    # Pause and play again: the song goes on from where it paused.
    paused = run("""await jam.playFile(); await sleep(1500); const at = await jam.pauseFile(); await sleep(500);
                    const still = await jam.pauseFile();
                    const lyric = document.querySelector("#song-lyrics .now")?.textContent ?? null;
                    await jam.playFile(); await sleep(300); const later = await jam.pauseFile();
                    await jam.stopFile(); return { at, still, later, lyric };""")

    # Screenshots with the song playing, at a desktop's size and a phone's held sideways.
    roll, roll_colours, export_shown = {}, {}, {}
    for name, width, height in [("song-desktop.png", 1280, 800), ("song-phone.png", 844, 390)]:
        page.viewport(width, height, mobile=width < 1000)
        # The piano roll's painted pixels while the song plays.
        # The piano roll's painted pixels while the song plays, and the three colours (not the
        # white play head) that paint most of them wholly.
        painted = run("""await jam.playFile(); await sleep(1200);
            const c = document.getElementById("song-roll"), d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
            let n = 0; const colours = new Map();
            for (let i = 3; i < d.length; i += 4) {
              if (d[i]) n++;
              const rgb = `${d[i - 3]},${d[i - 2]},${d[i - 1]}`;
              if (d[i] === 255 && rgb !== "255,255,255") colours.set(rgb, (colours.get(rgb) ?? 0) + 1);
            }
            const top = [...colours.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([rgb]) => rgb.split(",").map(Number));
            // The song's export buttons: shown, and inside the window once scrolled to.
            const button = document.getElementById("song-export-wav");
            button.scrollIntoView({ block: "nearest", inline: "nearest" });
            const box = button.getBoundingClientRect();
            const reachable = box.width > 0 && box.height > 0 && box.left >= 0 && box.top >= 0
              && box.right <= innerWidth && box.bottom <= innerHeight;
            return { n, colours: top, reachable };""")
        roll[name], roll_colours[name], export_shown[name] = painted["n"], painted["colours"], painted["reachable"]
        driver.save_screenshot(os.path.join(out, name))
        run("await jam.stopFile(); return 0;")
    instrument = run("const name = await jam.setChannelInstrument(0, 40); await jam.setChannelInstrument(0, null); return name;")

    # A karaoke file: its syllables in order, and the line shown at two times with the syllable sung then.
    # Opened from the songs the server lists: by file name, fetched by id.
    karaoke = run("""const list = document.getElementById("song-list"), listed = [...list.options].slice(1).map((o) => o.textContent);
        list.value = [...list.options].find((o) => o.textContent === "song.kar").value;
        list.dispatchEvent(new Event("change"));
        for (let i = 0; i < 500 && document.getElementById("song-name").textContent !== "song.kar"; i++) await sleep(20);
        const summary = jam.song, shown = [];
        for (const seconds of args[0]) {
          await jam.seekFile(seconds);
          const spans = [...document.querySelectorAll("#song-lyrics span")];
          shown.push({ line: spans.map((s) => s.textContent).join(""), now: spans.find((s) => s.className === "now")?.textContent ?? null,
                       sung: spans.filter((s) => s.className === "sung").length });
        }
        return { lyrics: summary.lyrics, shown, listed };""", plan["karaokeSeconds"])

    with open(os.path.join(out, "result.json"), "w") as f:
        json.dump({"sampleRate": info["sampleRate"], "badFile": bad, "droppedFile": dropped, "damagedFile": damaged, "summary": summary,
                   "seekShown": seek_shown, "paused": paused, "rollPixels": roll, "rollColours": roll_colours,
                   "exportShown": export_shown,
                   "instrument": instrument, "overFrame": over_frame, "karaoke": karaoke,
                   "mutedLevels": levels}, f)
    print(f"jam page played song.mid in Chromium at {info['sampleRate']} Hz")
except Exception as error:
    page.failed(error)
finally:
    driver.quit()
