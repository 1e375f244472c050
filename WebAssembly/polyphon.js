// Polyphon's synthesizer in WebAssembly, for browsers (an AudioWorkletProcessor) and Node.
//
//   import { PolyphonSynth } from "./polyphon.js";
//   const synth = await PolyphonSynth.create({ module: wasmBytesOrModule, sampleRate: 48000 });
//   synth.loadSoundFont(sf2Bytes);            // a SoundFont 2 bank (ArrayBuffer or typed array)
//   synth.loadSoundFonts([piano, drums]);     // or several played as one (per-preset subsets)
//   synth.send([0x90, 60, 100], 0);           // one MIDI message, at a frame of the next render
//   synth.render(left, right);                // fills two equal-length Float32Arrays
//   synth.activeVoices; synth.reset(); synth.dispose();
//   synth.channelMetering = true; synth.channelLevels(levels);   // dBFS per channel, -Infinity silent
//   const copy = PolyphonSynth.fromImage({ module, sampleRate, image: synth.image() });  // no bank read again
//
//   const song = await readMIDIFile({ module, bytes, name: "song.mid" });   // the module's MIDI reader
//
// Settings are those of `polyphon render`: gain 0.2 (FluidSynth's level), cubic interpolation,
// 256 voices, reverb and chorus on (`create({..., reverb: false, chorus: false})` turns them off).
export class PolyphonSynth {
  /** @param {{module: WebAssembly.Module | BufferSource, sampleRate: number, reverb?: boolean, chorus?: boolean}} options */
  static async create({ module, sampleRate, reverb = true, chorus = true }) {
    if (!(sampleRate > 0)) throw new RangeError("sampleRate must be a positive number");
    const compiled = module instanceof WebAssembly.Module ? module : await WebAssembly.compile(module);
    const instance = await WebAssembly.instantiate(compiled, {});
    return new PolyphonSynth(instance.exports, sampleRate, (reverb ? 0 : 1) | (chorus ? 0 : 2));
  }

  /**
   * A synthesizer made from an image (`image()` of another, made with the same module): a new
   * instance of `module` whose memory is the image's — a copy, no bank read or merged — so a
   * thread that must not stall (an AudioWorklet's) takes over a synthesizer another thread
   * built. The image stays usable for more. `imageCopy` makes it a slice at a time.
   * @param {{module: WebAssembly.Module, sampleRate: number, image: {memory: ArrayBuffer, handle: number, message: number, options: number}}} options
   */
  static fromImage(options) {
    const copy = PolyphonSynth.imageCopy(options);
    copy.step(Infinity);
    return copy.synth;
  }

  /**
   * `fromImage` a slice at a time: `copy.step(bytes)` copies up to `bytes` more of the image and
   * answers how many it copied; once `copy.done`, `copy.synth` plays. The instance is made now.
   */
  static imageCopy({ module, sampleRate, image }) {
    const exports = new WebAssembly.Instance(module, {}).exports;
    const memory = exports.memory;
    const source = new Uint8Array(image.memory), total = source.length;
    let copied = 0;
    const copy = {
      done: false, synth: null,
      step(bytes) {
        const count = Math.min(total - copied, bytes);
        // Memory grows with the copy, so no one step commits the whole of it.
        const short = copied + count - memory.buffer.byteLength;
        if (short > 0) memory.grow(Math.ceil(short / 65536));
        new Uint8Array(memory.buffer, copied, count).set(source.subarray(copied, copied + count));
        copied += count;
        if (copied === total && !copy.done) {
          copy.done = true;
          copy.synth = new PolyphonSynth(exports, sampleRate, image.options, image.message);
          copy.synth.handle = image.handle;
        }
        return count;
      },
    };
    return copy;
  }

  /**
   * This synthesizer's whole state as an image for `fromImage`: its module instance's memory
   * (the bank, the voices, every setting) copied, and its handle. The module keeps nothing else
   * between calls (its only mutable global, the stack pointer, is back at its start).
   */
  image() {
    this.#requireBank();
    return { memory: this.exports.memory.buffer.slice(0), handle: this.handle, message: this.message, options: this.options };
  }

  constructor(exports, sampleRate, options = 0, message = exports.polyphon_alloc(256)) {
    this.exports = exports;
    this.sampleRate = sampleRate;
    this.options = options;
    this.handle = -1;
    this.frames = 0;
    this.left = 0;
    this.right = 0;
    this.message = message;
  }

  /** Plays `bytes`, a SoundFont 2 bank, from now on (the previous bank is freed). */
  loadSoundFont(bytes) {
    this.loadSoundFonts([bytes]);
  }

  /**
   * Plays several SoundFont 2 banks as one from now on — e.g. per-preset subsets fetched one by
   * one; where two hold the same bank and program, the earlier one's preset plays. The previous
   * bank and every sounding voice are freed.
   */
  loadSoundFonts(list) {
    if (!list.length) throw new RangeError("no SoundFont given");
    const e = this.exports;
    const pointers = [];
    const table = e.polyphon_alloc(8 * list.length);
    try {
      for (const [i, bytes] of list.entries()) {
        const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes.buffer ?? bytes, bytes.byteOffset ?? 0, bytes.byteLength);
        const pointer = e.polyphon_alloc(data.length);
        if (!pointer) throw new RangeError(`no memory for a ${data.length}-byte bank`);
        pointers.push(pointer);
        new Uint8Array(e.memory.buffer, pointer, data.length).set(data);
        new Int32Array(e.memory.buffer, table, 2 * list.length).set([pointer, data.length], 2 * i);
      }
      const handle = list.length === 1
        ? e.polyphon_create(this.sampleRate, pointers[0], list[0].byteLength, this.options)
        : e.polyphon_create_merged(this.sampleRate, table, list.length, this.options);
      if (handle < 0) throw new Error(handle === -1 ? "not a SoundFont 2 bank" : "the synthesizer could not be created");
      if (this.handle >= 0) e.polyphon_destroy(this.handle);
      this.handle = handle;
    } finally {
      for (const pointer of pointers) e.polyphon_free(pointer);
      e.polyphon_free(table);
    }
  }

  /** One MIDI message (channel message or SysEx) at `frameOffset` frames into the next render. */
  send(midiBytes, frameOffset = 0) {
    this.#requireBank();
    const e = this.exports;
    const bytes = midiBytes instanceof Uint8Array ? midiBytes : Uint8Array.from(midiBytes);
    let pointer = this.message;
    if (bytes.length > 256) pointer = e.polyphon_alloc(bytes.length);
    new Uint8Array(e.memory.buffer, pointer, bytes.length).set(bytes);
    const status = e.polyphon_send(this.handle, pointer, bytes.length, frameOffset | 0);
    if (pointer !== this.message) e.polyphon_free(pointer);
    if (status !== 0) throw new TypeError(`not a MIDI message the synthesizer takes: ${Array.from(bytes)}`);
  }

  /** Fills `left` and `right` (Float32Arrays of one length) with the next frames. */
  render(left, right) {
    this.#requireBank();
    if (left.length !== right.length) throw new RangeError("left and right must have the same length");
    const e = this.exports;
    const frames = left.length;
    if (frames > this.frames) {
      if (this.frames) { e.polyphon_free(this.left); e.polyphon_free(this.right); }
      this.left = e.polyphon_alloc(4 * frames);
      this.right = e.polyphon_alloc(4 * frames);
      this.frames = frames;
    }
    e.polyphon_render(this.handle, this.left, this.right, frames);
    // Views are made after rendering: memory may have grown, which detaches older ones.
    left.set(new Float32Array(e.memory.buffer, this.left, frames));
    right.set(new Float32Array(e.memory.buffer, this.right, frames));
  }

  /** Voices sounding now. */
  get activeVoices() {
    return this.handle >= 0 ? this.exports.polyphon_active_voices(this.handle) : 0;
  }

  /**
   * Per-channel level metering (off by default; metering only reads, the samples stay the same).
   * @param {boolean} on
   */
  set channelMetering(on) {
    if (this.handle >= 0) this.exports.polyphon_set_channel_metering(this.handle, on ? 1 : 0);
  }

  /**
   * Each channel's level in dBFS after the last render: a peak meter that falls 20 dB a second,
   * -Infinity when silent or metering is off. Fills and returns `levels` (one value per channel).
   * @param {Float32Array} levels
   */
  channelLevels(levels = new Float32Array(16)) {
    const e = this.exports, count = Math.min(levels.length, 64);
    if (this.handle < 0) return levels.fill(-Infinity);
    // The message buffer (256 bytes) holds 64 floats: no allocation per call.
    e.polyphon_channel_levels(this.handle, this.message, count);
    levels.set(new Float32Array(e.memory.buffer, this.message, count));
    return levels;
  }

  /** Every voice stops; every channel returns to its defaults. */
  reset() {
    if (this.handle >= 0) this.exports.polyphon_reset(this.handle);
  }

  /** Frees the synthesizer and its memory; the object is unusable afterwards. */
  dispose() {
    const e = this.exports;
    if (this.handle >= 0) e.polyphon_destroy(this.handle);
    if (this.frames) { e.polyphon_free(this.left); e.polyphon_free(this.right); }
    e.polyphon_free(this.message);
    this.handle = -1;
    this.frames = 0;
  }

  #requireBank() {
    if (this.handle < 0) throw new Error("load a SoundFont first (loadSoundFont)");
  }
}

/** Record kinds of `readMIDIFile`'s records (polyphon_midi_read in WebAssembly/PolyphonWasm.swift). */
export const MIDIRecordKind = Object.freeze({ message: 0, tempo: 1, timeSignature: 2, text: 3, port: 4 });

/**
 * Reads a Standard MIDI File (or RIFF RMID, or .kar) with the module's MIDI reader, as `polyphon
 * render` reads it: `{format, ticksPerQuarterNote, trackCount, duration, records, warnings}`, the
 * records (`{seconds, tick, track, kind, data}`, `data` a Uint8Array) in the order a player sends
 * them, the warnings (strings naming the track, byte offset and problem; at most 16) about a
 * damaged file the reader could still read.
 * A file that cannot be read throws an Error whose message names the file, the track, the byte
 * offset and the problem.
 * @param {{module: WebAssembly.Module | BufferSource, bytes: BufferSource, name?: string}} options
 */
export async function readMIDIFile({ module, bytes, name = "MIDI data" }) {
  const compiled = module instanceof WebAssembly.Module ? module : await WebAssembly.compile(module);
  const e = (await WebAssembly.instantiate(compiled, {})).exports;
  const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes.buffer ?? bytes, bytes.byteOffset ?? 0, bytes.byteLength);
  const nameBytes = new TextEncoder().encode(name);
  const input = e.polyphon_alloc(data.length), namePointer = e.polyphon_alloc(nameBytes.length);
  if (!input || !namePointer) throw new RangeError(`no memory for a ${data.length}-byte MIDI file`);
  new Uint8Array(e.memory.buffer, input, data.length).set(data);
  new Uint8Array(e.memory.buffer, namePointer, nameBytes.length).set(nameBytes);
  const answer = e.polyphon_midi_read(input, data.length, namePointer, nameBytes.length);
  e.polyphon_free(input);
  e.polyphon_free(namePointer);
  if (!answer) throw new RangeError(`no memory to read a ${data.length}-byte MIDI file`);
  try {
    const size = new DataView(e.memory.buffer, answer, 8).getInt32(4, true);
    const view = new DataView(e.memory.buffer.slice(answer, answer + size));
    if (view.getInt32(0, true) !== 0) {
      throw new Error(new TextDecoder().decode(new Uint8Array(view.buffer, 12, view.getInt32(8, true))));
    }
    const song = { format: view.getInt32(8, true), ticksPerQuarterNote: view.getInt32(12, true),
                   trackCount: view.getInt32(16, true), duration: view.getFloat64(24, true), records: [], warnings: [] };
    const count = view.getInt32(20, true);
    let at = 32;
    for (let i = 0; i < count; i++) {
      const length = view.getInt32(at + 20, true);
      song.records.push({ seconds: view.getFloat64(at, true), tick: view.getInt32(at + 8, true), track: view.getInt32(at + 12, true),
                          kind: view.getInt32(at + 16, true), data: new Uint8Array(view.buffer, at + 24, length) });
      at += 24 + ((length + 3) & ~3);
    }
    const warningCount = view.getInt32(at, true);
    at += 4;
    for (let i = 0; i < warningCount; i++) {
      const length = view.getInt32(at, true);
      song.warnings.push(new TextDecoder().decode(new Uint8Array(view.buffer, at + 4, length)));
      at += 4 + ((length + 3) & ~3);
    }
    return song;
  } finally {
    e.polyphon_free(answer);
  }
}
