// Prints Benchmarks/wasm.sh's side-by-side table from the runs' JSON figures (each file one
// run of one runtime: PolyphonBenchmark --web, bench-node.mjs, bench-in-chromium.py), the best
// figure of each runtime over all its runs, and each WebAssembly figure's ratio to native.
//   node wasm-table.mjs MODULE.wasm RUN.json…
import fs from "node:fs";

const [modulePath, ...runPaths] = process.argv.slice(2);
const best = new Map();  // column heading → figures, each the least over the runs
const rounds = new Map();
function keep(heading, figures) {
  rounds.set(heading, (rounds.get(heading) ?? 0) + 1);
  const old = best.get(heading);
  if (!old) { best.set(heading, structuredClone(figures)); return; }
  for (const part of ["sustained", "song"]) {
    if (figures[part] && (!old[part] || figures[part].ns < old[part].ns)) old[part] = figures[part];
  }
  figures.quanta?.forEach((q, i) => { if (!old.quanta?.[i] || q.ms < old.quanta[i].ms) (old.quanta ??= [])[i] = q; });
}
for (const path of runPaths) {
  const run = JSON.parse(fs.readFileSync(path, "utf8"));
  if (run.main) {
    keep(`${run.runtime}, main thread`, run.main);
    keep(`${run.runtime}, AudioWorklet`, run.worklet);
  } else {
    keep(run.runtime, run);
  }
}
const native = best.get("native");
const budget = 128 / 48;  // ms per quantum at 48 kHz
const rows = [
  [`sustained notes, ${native.sustained.voices} voices: ns per voice-sample`, (f) => f.sustained?.ns, "ns"],
  [`song ${native.song.file}, first ${native.song.seconds} s: ns per voice-sample`, (f) => f.song?.ns, "ns"],
  ...native.quanta.map((q, i) => [`one 128-frame quantum at 48 kHz, ${q.voices} voices, effects on`, (f) => f.quanta?.[i]?.ms, "ms"]),
];
const size = fs.statSync(modulePath).size;
console.log(`polyphon.wasm: ${size} bytes = ${(size / 1048576).toFixed(2)} MB (target ≤ 1 MB)`);
console.log(`each figure the best of ${rounds.get("native")} rounds × ${native.repeats} runs, the runtimes taking turns; ` +
            `ratio: WebAssembly time / native time (target ≤ 2×); quantum: share of its ${budget.toFixed(2)} ms budget ` +
            `(target for 256 voices in Chromium ≤ 25 %)`);
const width = 44;
for (const [label, pick, unit] of rows) {
  const base = pick(native);
  console.log(`\n${label}`);
  const show = (value) => unit === "ms"
    ? `${value.toFixed(3)} ms = ${(100 * value / budget).toFixed(1).padStart(4)} % of budget`
    : `${value.toFixed(2)} ns`;
  for (const [heading, figures] of best) {
    const value = pick(figures);
    if (value === undefined) continue;
    const ratio = heading === "native" ? "" : `  (${(value / base).toFixed(2)}× native)`;
    console.log(`  ${heading.padEnd(width)} ${show(value)}${ratio}`);
  }
}
