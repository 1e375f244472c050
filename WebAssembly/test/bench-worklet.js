// The quanta of benchmark.mjs inside an AudioWorkletGlobalScope (see bench.html): the
// processor runs them when it gets { module, bank, repeats } and posts the result back.
import { benchmark } from "./benchmark.mjs";

class PolyphonBenchProcessor extends AudioWorkletProcessor {
  constructor() {
    super();
    this.port.onmessage = async ({ data }) => {
      try {
        const result = await benchmark({ module: data.module, bank: new Uint8Array(data.bank), repeats: data.repeats,
                                         clock: () => Date.now(), parts: ["quanta"] });
        this.port.postMessage(result);
      } catch (error) {
        this.port.postMessage({ error: String(error?.stack ?? error) });
      }
    };
  }

  process() { return true; }
}

registerProcessor("polyphon-bench", PolyphonBenchProcessor);
