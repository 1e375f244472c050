// Prints Benchmarks/wasm.sh's side-by-side table from the runs' JSON figures: native
// (PolyphonBenchmark --web), then each WebAssembly run (bench-node.mjs, bench-in-chromium.py)
// with its ratio to native.
//   node wasm-table.mjs MODULE.wasm native.json RUN.json…
import fs from "node:fs";

const [modulePath, nativePath, ...runPaths] = process.argv.slice(2);
const native = JSON.parse(fs.readFileSync(nativePath, "utf8"));
const columns = [];  // [heading, figures]
for (const path of runPaths) {
  const run = JSON.parse(fs.readFileSync(path, "utf8"));
  if (run.main) {
    columns.push([`${run.runtime}, main thread`, run.main]);
    columns.push([`${run.runtime}, AudioWorklet`, run.worklet]);
  } else {
    columns.push([run.runtime, run]);
  }
}
const budget = 128 / 48;  // ms per quantum at 48 kHz
const rows = [
  [`sustained notes, ${native.sustained.voices} voices: ns per voice-sample`, (f) => f.sustained?.ns, "ns"],
  [`song ${native.song.file}, first ${native.song.seconds} s: ns per voice-sample`, (f) => f.song?.ns, "ns"],
  ...native.quanta.map((q, i) => [`one 128-frame quantum at 48 kHz, ${q.voices} voices, effects on`, (f) => f.quanta?.[i]?.ms, "ms"]),
];
const size = fs.statSync(modulePath).size;
console.log(`polyphon.wasm: ${size} bytes = ${(size / 1048576).toFixed(2)} MB (target ≤ 1 MB)`);
console.log(`best of ${native.repeats} runs each; ratios: WebAssembly time / native time (target ≤ 2×); ` +
            `quantum: share of its ${budget.toFixed(2)} ms budget (target for 256 voices in Chromium ≤ 25 %)`);
const width = 62;
for (const [label, pick, unit] of rows) {
  const base = pick(native);
  console.log(`\n${label}`);
  const show = (value) => unit === "ms"
    ? `${value.toFixed(3)} ms = ${(100 * value / budget).toFixed(1)} % of budget`
    : `${value.toFixed(2)} ns`;
  console.log(`  ${"native".padEnd(width)} ${show(base)}`);
  for (const [heading, figures] of columns) {
    const value = pick(figures);
    if (value === undefined) continue;
    console.log(`  ${heading.padEnd(width)} ${show(value)}  (${(value / base).toFixed(2)}× native)`);
  }
}
