// The speed of polyphon.wasm in Node (benchmark.mjs), printed as JSON.
//   node bench-node.mjs MODULE.wasm BANK.sf2 [REPEATS] [SONG.json]
import fs from "node:fs";
import { benchmark } from "./benchmark.mjs";

const [wasmPath, bankPath, repeatsText, songPath] = process.argv.slice(2);
const result = await benchmark({
  module: await WebAssembly.compile(fs.readFileSync(wasmPath)),
  bank: fs.readFileSync(bankPath),
  song: songPath ? JSON.parse(fs.readFileSync(songPath, "utf8")) : [],
  repeats: Number(repeatsText ?? 3),
  clock: () => Number(process.hrtime.bigint()) / 1e6,
});
console.log(JSON.stringify({ runtime: `Node ${process.version}`, ...result }));
