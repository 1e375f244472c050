// Speed of polyphon.wasm in Node: the sustained-notes test of PolyphonBenchmark (48 held
// string-ensemble notes, program 48, effects off, 44.1 kHz) in ns per voice-sample, and the
// time to render one 128-frame quantum at 64 and 256 voices against its 2.67 ms budget at
// 48 kHz. Best of N runs.
//   node bench-node.mjs MODULE.wasm BANK.sf2 [REPEATS]
import fs from "node:fs";
import { PolyphonSynth } from "./polyphon.js";

const [wasmPath, bankPath, repeatsText] = process.argv.slice(2);
const module = await WebAssembly.compile(fs.readFileSync(wasmPath));
const bank = fs.readFileSync(bankPath);
const repeats = Number(repeatsText ?? 3);

async function synthesizer(sampleRate) {
  const synth = await PolyphonSynth.create({ module, sampleRate, reverb: false, chorus: false });
  synth.loadSoundFont(bank);
  return synth;
}

// Sustained: 1024-frame blocks for 10 s after a warm-up block, as the native benchmark does.
let best = Infinity, voices = 0;
for (let round = 0; round < repeats; round++) {
  const synth = await synthesizer(44100);
  synth.send([0xC0, 48]);
  for (let key = 36; key < 84; key++) synth.send([0x90, key, 100]);
  const l = new Float32Array(1024), r = new Float32Array(1024);
  synth.render(l, r);
  voices = synth.activeVoices;
  let voiceSamples = 0;
  const start = process.hrtime.bigint();
  for (let done = 0; done < 10 * 44100; done += 1024) {
    synth.render(l, r);
    voiceSamples += synth.activeVoices * 1024;
  }
  const ns = Number(process.hrtime.bigint() - start) / voiceSamples;
  best = Math.min(best, ns);
  synth.dispose();
}
console.log(`sustained: ${voices} voices, ${best.toFixed(2)} ns/voice-sample (best of ${repeats})`);

// One 128-frame quantum at 48 kHz with 64 and 256 voices sounding (looped strings, two
// voices a note), timed over 2,000 quanta.
for (const notes of [32, 128]) {
  let quantum = Infinity, sounding = 0;
  for (let round = 0; round < repeats; round++) {
    const synth = await synthesizer(48000);
    for (let i = 0; i < notes; i++) {
      const channel = i % 15 === 9 ? 15 : i % 15;
      synth.send([0xC0 | channel, 48]);
      synth.send([0x90 | channel, 30 + (i % 64), 100]);
    }
    const l = new Float32Array(128), r = new Float32Array(128);
    for (let i = 0; i < 10; i++) synth.render(l, r);
    sounding = synth.activeVoices;
    const start = process.hrtime.bigint();
    for (let i = 0; i < 2000; i++) synth.render(l, r);
    quantum = Math.min(quantum, Number(process.hrtime.bigint() - start) / 2000 / 1e6);
    synth.dispose();
  }
  console.log(`quantum: ${sounding} voices, ${quantum.toFixed(3)} ms per 128 frames = ${(100 * quantum / (128 / 48)).toFixed(1)} % of the 2.67 ms budget`);
}
