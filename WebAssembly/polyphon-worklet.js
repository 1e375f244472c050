// An AudioWorkletProcessor that plays Polyphon: register it with
//   await context.audioWorklet.addModule("polyphon-worklet.js");
//   const node = new AudioWorkletNode(context, "polyphon", { outputChannelCount: [2] });
//   node.port.postMessage({ type: "init", module: wasmBytesOrModule, soundFont: sf2Bytes });
// then send timestamped MIDI: { type: "midi", bytes: [0x90, 60, 100], time: context.currentTime }.
// A message whose time lies in the past plays at the start of the next quantum; one in the
// future plays on its exact frame. The processor answers { type: "ready" } once the bank is
// loaded (or { type: "error", message }), and about ten times a second
// { type: "status", voices, load } — load being the share of the quantum's time spent rendering.
import { PolyphonSynth } from "./polyphon.js";

const clock = globalThis.performance?.now ? () => globalThis.performance.now() : () => Date.now();

class PolyphonProcessor extends AudioWorkletProcessor {
  constructor() {
    super();
    this.synth = null;
    this.pending = [];
    this.left = new Float32Array(128);
    this.right = new Float32Array(128);
    this.load = 0;
    this.lastStatus = 0;
    this.port.onmessage = (event) => this.receive(event.data);
  }

  async receive(message) {
    try {
      switch (message.type) {
        case "init":
          this.synth = await PolyphonSynth.create({ module: message.module, sampleRate,
                                                    reverb: message.reverb ?? true, chorus: message.chorus ?? true });
          if (message.soundFont) this.synth.loadSoundFont(message.soundFont);
          this.port.postMessage({ type: "ready", sampleRate });
          break;
        case "soundFont":
          this.synth.loadSoundFont(message.bytes);
          this.port.postMessage({ type: "ready", sampleRate });
          break;
        case "midi": {
          const frame = Math.round((message.time ?? 0) * sampleRate);
          // Kept in time order (stable for equal frames).
          let i = this.pending.length;
          while (i > 0 && this.pending[i - 1].frame > frame) i--;
          this.pending.splice(i, 0, { frame, bytes: message.bytes });
          break;
        }
        case "reset":
          this.pending.length = 0;
          this.synth?.reset();
          break;
      }
    } catch (error) {
      this.port.postMessage({ type: "error", message: String(error?.message ?? error) });
    }
  }

  process(inputs, outputs) {
    const output = outputs[0];
    const left = output[0], right = output[1] ?? output[0];
    if (!this.synth || this.synth.handle < 0) return true;
    const frames = left.length, start = currentFrame;
    if (this.left.length !== frames) { this.left = new Float32Array(frames); this.right = new Float32Array(frames); }
    const began = clock();
    while (this.pending.length && this.pending[0].frame < start + frames) {
      const event = this.pending.shift();
      try { this.synth.send(event.bytes, Math.max(0, event.frame - start)); } catch { /* not a message: dropped */ }
    }
    this.synth.render(this.left, this.right);
    left.set(this.left);
    if (output[1]) right.set(this.right);
    const spent = clock() - began;
    this.load = 0.9 * this.load + 0.1 * (spent / (1000 * frames / sampleRate));
    if (currentTime - this.lastStatus > 0.1) {
      this.lastStatus = currentTime;
      this.port.postMessage({ type: "status", voices: this.synth.activeVoices, load: this.load });
    }
    return true;
  }
}

registerProcessor("polyphon", PolyphonProcessor);
