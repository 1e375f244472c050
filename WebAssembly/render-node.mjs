// Renders events through polyphon.wasm in Node, for the tests that compare it with native.
//   node render-node.mjs MODULE.wasm BANK.sf2 EVENTS.json FRAMES BLOCK OUT.f32 [RATE]
// EVENTS.json: [[frame, [midi bytes...]], ...] in frame order. OUT.f32: left then right.
import fs from "node:fs";
import { PolyphonSynth } from "./polyphon.js";

const [wasm, bank, eventsPath, framesText, blockText, out, rateText] = process.argv.slice(2);
const synth = await PolyphonSynth.create({ module: fs.readFileSync(wasm), sampleRate: Number(rateText ?? 44100) });
synth.loadSoundFont(fs.readFileSync(bank));
const events = JSON.parse(fs.readFileSync(eventsPath, "utf8"));
const frames = Number(framesText), block = Number(blockText);
const left = new Float32Array(frames), right = new Float32Array(frames);
let next = 0;
for (let start = 0; start < frames; start += block) {
  const n = Math.min(block, frames - start);
  while (next < events.length && events[next][0] < start + n) {
    synth.send(events[next][1], events[next][0] - start);
    next++;
  }
  const l = new Float32Array(n), r = new Float32Array(n);
  synth.render(l, r);
  left.set(l, start);
  right.set(r, start);
}
const both = new Float32Array(2 * frames);
both.set(left, 0);
both.set(right, frames);
fs.writeFileSync(out, Buffer.from(both.buffer));
console.log(`rendered ${frames} frames, ${synth.activeVoices} voices at the end`);
synth.dispose();
