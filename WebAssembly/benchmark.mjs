// The speed of polyphon.wasm, the same workloads wherever it runs (Node: bench-node.mjs;
// Chromium: test/bench.html) and as the native engine runs them (PolyphonBenchmark --web):
//
// - sustained: 48 held string-ensemble notes (program 48, 96 voices), 10 s at 44.1 kHz in
//   1024-frame calls after a warm-up call, effects off: ns per voice-sample;
// - song: `song` ([[frame, [bytes…]], …] at 44.1 kHz) in 1024-frame calls, effects off: ns per
//   voice-sample, the voices sounding after each call counting for all its frames;
// - quanta: one 128-frame quantum at 48 kHz with 64 and 256 voices (looped strings, two voices
//   a note), reverb and chorus on as a page plays: the mean over 4,000 quanta after 10.
//
// Each figure is the best of `repeats` runs after warm-up runs that are not counted: V8 first
// runs a module's functions compiled quickly (Liftoff) and recompiles the hot ones with its
// optimizing tier while they run, and a page playing for minutes runs the optimized code. The
// warm-up repeats the workload until a run is no faster than the one before (at least two runs,
// at most eight), so the counted runs start after the tier-up however long it takes on a busy
// machine. `clock()` gives milliseconds; `parts` picks which of "sustained", "song", "quanta"
// to run.
import { PolyphonSynth } from "./polyphon.js";

export async function benchmark({ module, bank, song = [], repeats = 3, clock, parts = ["sustained", "song", "quanta"] }) {
  async function synthesizer(sampleRate, effects) {
    const synth = await PolyphonSynth.create({ module, sampleRate, reverb: effects, chorus: effects });
    synth.loadSoundFont(bank);
    return synth;
  }
  // Milliseconds and voice-samples of `frames` frames in `block`-frame calls, with `events`.
  function timeRender(synth, events, frames, block) {
    const l = new Float32Array(block), r = new Float32Array(block);
    let next = 0, voiceSamples = 0;
    const start = clock();
    for (let done = 0; done < frames; done += block) {
      const n = Math.min(block, frames - done);
      while (next < events.length && events[next][0] < done + n) {
        synth.send(events[next][1], events[next][0] - done);
        next++;
      }
      if (n === block) synth.render(l, r); else synth.render(l.subarray(0, n), r.subarray(0, n));
      voiceSamples += synth.activeVoices * n;
    }
    return { ms: clock() - start, voiceSamples };
  }
  // Runs `once` (which returns its figure, less is faster) until it stops falling, then
  // `repeats` times more; returns the best of those. The warm-up figures go to
  // result.warmUp[part] (for a look at the tier-up; the table ignores them).
  const warmUp = {};
  async function best(part, once) {
    let last = Infinity;
    warmUp[part] = [];
    for (let run = 0; run < 8; run++) {
      const figure = await once();
      warmUp[part].push(figure);
      if (run >= 1 && figure >= last) break;
      last = figure;
    }
    let least = Infinity;
    for (let run = 0; run < repeats; run++) least = Math.min(least, await once());
    return least;
  }
  const result = { repeats };

  if (parts.includes("sustained")) {
    let voices = 0;
    const held = [[0, [0xC0, 48]]];
    for (let key = 36; key < 84; key++) held.push([0, [0x90, key, 100]]);
    const ns = await best("sustained", async () => {
      const synth = await synthesizer(44100, false);
      timeRender(synth, held, 1024, 1024);
      voices = synth.activeVoices;
      const { ms, voiceSamples } = timeRender(synth, [], 441000, 1024);
      synth.dispose();
      return ms * 1e6 / voiceSamples;
    });
    result.sustained = { voices, ns };
  }

  if (parts.includes("song") && song.length) {
    const frames = 60 * 44100;
    const ns = await best("song", async () => {
      const synth = await synthesizer(44100, false);
      const { ms, voiceSamples } = timeRender(synth, song, frames, 1024);
      synth.dispose();
      return ms * 1e6 / voiceSamples;
    });
    result.song = { seconds: 60, ns };
  }

  if (parts.includes("quanta")) {
    result.quanta = [];
    for (const notes of [32, 128]) {
      const starts = [];
      for (let i = 0; i < notes; i++) {
        const channel = i % 15 === 9 ? 15 : i % 15;
        starts.push([0, [0xC0 | channel, 48]], [0, [0x90 | channel, 30 + (i % 64), 100]]);
      }
      let voices = 0;
      const ms = await best(`quanta ${notes * 2}`, async () => {
        const synth = await synthesizer(48000, true);
        timeRender(synth, starts, 1280, 128);
        voices = synth.activeVoices;
        const { ms } = timeRender(synth, [], 4000 * 128, 128);
        synth.dispose();
        return ms / 4000;
      });
      result.quanta.push({ voices, ms });
    }
  }
  result.warmUp = warmUp;
  return result;
}
