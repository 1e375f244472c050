// An AudioWorkletProcessor that plays Polyphon: register it with
//   await context.audioWorklet.addModule("polyphon-worklet.js");
//   const node = new AudioWorkletNode(context, "polyphon", { numberOfInputs: 0, outputChannelCount: [2] });
//   node.port.postMessage({ type: "init", module: wasmBytesOrModule, soundFont: sf2Bytes });
// then send timestamped MIDI: { type: "midi", bytes: [0x90, 60, 100], time: context.currentTime }.
// A message whose time lies in the past plays at the start of the next quantum; one in the
// future plays on its exact frame.
//
// Messages it takes:
//   { type: "init", module, soundFont | soundFonts: [bytes…], reverb?, chorus? }
//   { type: "soundFonts", list: [bytes…], reverb?, chorus? } — play these banks as one from now
//       on (e.g. per-preset subsets). Nothing is cut: notes already sounding ring out on the
//       previous synthesizer, new ones start on the new one, and the channels' settings
//       (programs, controllers, bend, SysEx) carry over.
//   { type: "soundFont", bytes } — the same with one bank.
//   { type: "image", image } — the same with a synthesizer another thread built (a Worker: the
//       banks are read and merged there, not on the audio thread): `PolyphonSynth.image()` of it,
//       its memory transferred, copied into a new instance 1 MB a quantum while
//       the current synthesizer plays on; it plays once whole. A spare fresh synthesizer is then
//       made from it the same way, so a fresh reset takes over that one without copying.
//   { type: "midi", bytes, time = 0, record = false }
//   { type: "reset", fresh = false } — silence and defaults; pending messages are dropped. With
//       `fresh`, a new synthesizer for the same banks replaces the old one, effect tails and all:
//       what follows sounds exactly as a render that starts from nothing.
//   { type: "log", on: true } / { type: "log", on: false } — keep every message sent with
//       `record: true`, with the frame it played on; turning it off answers
//       { type: "log", events: [[frame, ...bytes], …] }.
//   { type: "capture", frames, from?, id? } — `frames` frames of what the engine plays from frame
//       `from` (default: now; up to four seconds back), answered { type: "captured", id, from, left, right }.
//   { type: "file", events: [[frame, ...bytes], …], endFrame } — a MIDI file's events (frames at
//       this context's rate, in the order to send) and its end, to play on the audio clock
//       (MIDIFilePlayer).
//   { type: "filePlay", at? } — plays it from its position (from audio frame `at`, if given, so
//       that it starts together with messages scheduled for then; an `at` already past joins the
//       song where it would be by now); after loading, a seek or a stop it starts
//       on a fresh synthesizer with the song's state chased, so it sounds exactly as a render
//       from there. Answered { type: "filePlaying", frame, position }: the audio frame the song's
//       frame `position` plays on.
//   { type: "filePause" }, { type: "fileStop" }, { type: "fileSeek", frame } (a song frame),
//   { type: "fileMute" | "fileSolo", channel, on }, { type: "fileProgram", channel, program },
//   { type: "fileVolume", channel, volume } (a CC7 value, null: the song's), { type: "fileRate", rate }, { type: "fileTranspose", semitones }, { type: "fileLoop", start, end }
//       (song frames; start null: no loop).
//       Each is answered { type: "fileState", playing, position }; the end of the song
//       { type: "fileEnded", frame }.
// It answers { type: "ready", sampleRate, frame, loadMs, merges, longestCopyMs } once a bank is
// playing (loadMs: the time the audio thread spent making the synthesizer; merges: how many times
// it read and merged banks itself; longestCopyMs: the longest one quantum spent copying an image) (or { type: "error",
// message }), and about ten times a second { type: "status", voices, load, frame, busyMs,
// busyFrames } — load being the share of the quantum's time spent rendering (smoothed), busyMs
// the time spent in process() since the start and busyFrames the frames it made — and `file`: { playing, position } while a
// MIDI file is loaded.
import { PolyphonSynth } from "./polyphon.js";
import { MIDIFilePlayer } from "./polyphon-midi-player.js";

const clock = globalThis.performance?.now ? () => globalThis.performance.now() : () => Date.now();
/** Controllers whose values carry over to a new synthesizer, in the order they are replayed. */
const kept = [0, 32, 1, 7, 10, 11, 64, 66, 67, 71, 72, 73, 74, 91, 93];

class PolyphonProcessor extends AudioWorkletProcessor {
  constructor() {
    super();
    this.module = null;
    this.synth = null;
    this.draining = [];  // { synth, quiet } — earlier synthesizers letting their notes ring out
    this.pending = [];
    this.left = new Float32Array(128);
    this.right = new Float32Array(128);
    this.mixLeft = new Float32Array(128);
    this.mixRight = new Float32Array(128);
    this.load = 0;
    this.busyMs = 0;  // time spent in process() so far, and the frames it made
    this.busyFrames = 0;
    this.lastStatus = 0;
    this.log = null;
    this.captures = [];
    // The last seconds played, so that a capture can start on a frame just past (the frame a
    // song started on, say, which the page learns a quantum or more later).
    this.history = { left: new Float32Array(4 * sampleRate), right: new Float32Array(4 * sampleRate), end: 0 };
    this.channels = Array.from({ length: 16 }, () => ({ controllers: new Map(), program: null, bend: null }));
    this.sysex = [];  // the latest SysEx messages, replayed to a new synthesizer
    this.file = null;  // a MIDIFilePlayer
    this.image = null;  // the image of a fresh synthesizer for the banks playing, when given one
    this.spare = null;  // a fresh synthesizer made from it, for the next fresh reset
    this.copies = [];  // synthesizers being made from images, a slice a quantum
    this.copyPerQuantum = 1 << 20;
    this.longestCopyMs = 0;  // the longest one quantum spent copying
    this.merges = 0;  // banks read and merged on this thread
    this.fileStarting = false;
    this.fileStartAt = null;
    this.fileNeedsChase = false;
    this.fileOut = { reset: false, messages: [] };  // what the file sends at the next quantum's start
    this.port.onmessage = (event) => this.receive(event.data);
  }

  async receive(message) {
    try {
      switch (message.type) {
        case "init":
          this.module = message.module instanceof WebAssembly.Module ? message.module : await WebAssembly.compile(message.module);
          this.options = { reverb: message.reverb ?? true, chorus: message.chorus ?? true };
          if (message.soundFont || message.soundFonts) {
            await this.replace(message.soundFonts ?? [message.soundFont], this.options);
          }
          break;
        case "soundFont":
          await this.replace([message.bytes], this.options);
          break;
        case "image":
          this.adopt(message.image);
          break;
        case "soundFonts":
          this.options = { reverb: message.reverb ?? this.options.reverb, chorus: message.chorus ?? this.options.chorus };
          await this.replace(message.list, this.options);
          break;
        case "midi": {
          const frame = Math.round((message.time ?? 0) * sampleRate);
          // Kept in time order (stable for equal frames).
          let i = this.pending.length;
          while (i > 0 && this.pending[i - 1].frame > frame) i--;
          this.pending.splice(i, 0, { frame, bytes: message.bytes, record: message.record ?? false });
          break;
        }
        case "reset":
          this.pending.length = 0;
          await this.reset(message.fresh);
          break;
        case "file":
          if (this.file?.playing) this.fileOut.messages.push(...this.file.release());
          this.file = new MIDIFilePlayer(message.events, message.endFrame);
          this.fileNeedsChase = true;
          this.fileOut = { reset: false, messages: [] };
          this.fileState();
          break;
        case "filePlay":
          if (!this.file) break;
          if (this.file.playing) { this.port.postMessage({ type: "filePlaying", ...this.fileStart }); break; }
          if (this.fileNeedsChase) {
            await this.reset(true);
            this.fileOut = { reset: false, messages: this.file.seek(this.file.position) };
            this.fileNeedsChase = false;
          }
          this.file.playing = true;
          this.fileStarting = true;
          this.fileStartAt = message.at ?? null;
          break;
        case "filePause":
          if (this.file?.playing) { this.file.playing = false; this.fileOut.messages.push(...this.file.release()); }
          this.fileState();
          break;
        case "fileStop":
          if (this.file) { this.file.playing = false; this.file.seek(0); this.fileNeedsChase = true; this.fileOut = { reset: true, messages: [] }; }
          this.fileState();
          break;
        case "fileSeek":
          if (!this.file) break;
          if (this.file.playing) this.fileOut = { reset: true, messages: this.file.seek(message.frame) };
          else { this.file.seek(message.frame); this.fileNeedsChase = true; }
          this.fileState();
          break;
        case "fileRate":
          this.file?.setRate(message.rate);
          this.fileState();
          break;
        case "fileLoop":
          this.file?.setLoop(message.start, message.end);
          this.fileState();
          break;
        case "fileTranspose":
          if (this.file) this.fileOut.messages.push(...this.file.setTranspose(message.semitones));
          this.fileState();
          break;
        case "fileVolume":
          if (this.file) this.fileOut.messages.push(...this.file.setVolume(message.channel, message.volume));
          this.fileState();
          break;
        case "fileMute": case "fileSolo": case "fileProgram":
          if (!this.file) break;
          this.fileOut.messages.push(...(message.type === "fileMute" ? this.file.setMuted(message.channel, message.on)
            : message.type === "fileSolo" ? this.file.setSoloed(message.channel, message.on)
            : this.file.setProgram(message.channel, message.program)));
          this.fileState();
          break;
        case "log":
          if (message.on) this.log = [];
          else { this.port.postMessage({ type: "log", events: this.log ?? [] }); this.log = null; }
          break;
        case "capture": {
          const frames = Math.max(0, Math.min(message.frames | 0, 600 * sampleRate));
          const history = this.history, kept = history.left.length;
          const from = Math.max(message.from ?? history.end, history.end - kept, 0);
          const capture = { id: message.id, from, filled: 0, left: new Float32Array(frames), right: new Float32Array(frames) };
          for (let f = from; f < history.end && capture.filled < frames; f++, capture.filled++) {
            capture.left[capture.filled] = history.left[f % kept];
            capture.right[capture.filled] = history.right[f % kept];
          }
          this.captures.push(capture);
          this.captureBlock(history.end, 0);
          break;
        }
      }
    } catch (error) {
      this.port.postMessage({ type: "error", message: String(error?.message ?? error) });
    }
  }

  /** Silence and defaults; `fresh`: a new synthesizer for the same banks, effect tails and all
   *  (from the image of the banks when there is one: no bank read again). */
  async reset(fresh = false) {
    for (const old of this.draining) old.synth.dispose();
    this.draining.length = 0;
    if (fresh && this.synth) {
      let synth;
      if (this.spare) {
        // Made beforehand, a slice a quantum: nothing to copy now.
        synth = this.spare;
        this.spare = null;
        this.prepareSpare();
      } else if (this.image) {
        synth = PolyphonSynth.fromImage({ module: this.module, sampleRate, image: this.image });
      } else {
        synth = await PolyphonSynth.create({ module: this.module, sampleRate, ...this.options });
        synth.loadSoundFonts(this.banks);
        this.merges++;
      }
      this.synth.dispose();
      this.synth = synth;
    } else {
      this.synth?.reset();
    }
    for (const channel of this.channels) { channel.controllers.clear(); channel.program = channel.bend = null; }
    this.sysex = [];
  }

  fileState() {
    this.port.postMessage({ type: "fileState", playing: this.file?.playing ?? false, position: this.file?.position ?? 0 });
  }

  /** Hands one message to the synthesizer `offset` frames into the quantum. */
  dispatch(bytes, offset) {
    const noteOn = (bytes[0] & 0xF0) === 0x90 && bytes[2] > 0;
    this.synth.send(bytes, offset);
    // Note-offs, pedals and controllers also reach the notes still ringing on earlier synthesizers.
    if (!noteOn) for (const old of this.draining) old.synth.send(bytes, offset);
    this.track(bytes);
  }

  /** The MIDI file's share of the quantum from `start`: its pending messages, then its events. */
  playFile(start, frames) {
    const out = this.fileOut;
    if (out.reset) { this.synth.reset(); for (const old of this.draining) old.synth.reset(); }
    for (const bytes of out.messages) { try { this.dispatch(bytes, 0); } catch { /* not a message: dropped */ } }
    this.fileOut = { reset: false, messages: [] };
    const file = this.file;
    if (!file?.playing) return;
    // A start on a later frame waits for its quantum, then begins that many frames into it.
    let skip = 0;
    if (this.fileStartAt !== null) {
      if (this.fileStartAt >= start + frames) return;
      skip = Math.max(0, this.fileStartAt - start);
      // A start already past joins the song where it would be by now, its state chased, so
      // that it stays on the frames the caller counts from.
      const late = start - this.fileStartAt;
      if (late > 0) for (const bytes of file.seek(file.position + late * file.rate)) this.dispatch(bytes, 0);
      this.fileStartAt = null;
    }
    if (this.fileStarting) {
      this.fileStarting = false;
      this.fileStart = { frame: start + skip, position: file.position };
      this.port.postMessage({ type: "filePlaying", ...this.fileStart });
    }
    file.play((bytes, offset) => { try { this.dispatch(bytes, offset + skip); } catch { /* dropped */ } }, frames - skip);
    if (file.ended) {
      const offset = Math.min(frames - 1, Math.max(0, file.lastFrame - (file.position - frames)));
      file.playing = false;
      file.seek(0);
      this.fileNeedsChase = true;
      // Pedals still down and keys never let go release their notes, as at the end of a render.
      if (this.synth.activeVoices > 0) {
        for (let c = 0; c < 16; c++) for (const cc of [64, 66, 123]) this.dispatch([0xB0 | c, cc, 0], offset);
      }
      this.port.postMessage({ type: "fileEnded", frame: start + frames });
    }
  }

  /** A new synthesizer for `list`, its banks read and merged here; the current one drains. */
  async replace(list, options) {
    const synth = await PolyphonSynth.create({ module: this.module, sampleRate, ...options });
    const began = clock();
    synth.loadSoundFonts(list);
    this.merges++;
    this.dropImage();
    this.banks = list;
    this.install(synth, clock() - began);
  }

  /** A new synthesizer from an image another thread built (PolyphonSynth.image), copied a
   *  slice a quantum (`copyPerQuantum` bytes) instead of reading and merging banks here; then
   *  it plays and the current one drains. A later image supersedes one still being copied. */
  adopt(image) {
    this.dropImage();
    this.image = image;
    this.banks = null;
    this.copyJob(image, (synth, spentMs) => { this.install(synth, spentMs); this.prepareSpare(); });
  }

  /** Starts copying a synthesizer from `image`; `done(synth, ms spent on this thread)` once whole. */
  copyJob(image, done) {
    const began = clock();
    const copy = PolyphonSynth.imageCopy({ module: this.module, sampleRate, image });
    this.copies.push({ copy, done, spentMs: clock() - began });
  }

  /** Forgets the image, the spare made from it and the synthesizers still being copied. */
  dropImage() {
    this.copies = [];
    this.spare?.dispose();
    this.spare = null;
    this.image = null;
  }

  /** A fresh synthesizer for the banks playing, made from their image in the background, so a
   *  fresh reset need not copy anything. */
  prepareSpare() {
    if (!this.image || this.spare) return;
    this.copyJob(this.image, (synth) => { this.spare = synth; });
  }

  /** Copies this quantum's share of the images being made into synthesizers. */
  advanceCopies() {
    let budget = this.copyPerQuantum;
    while (this.copies.length && budget > 0) {
      const job = this.copies[0];
      const began = clock();
      budget -= job.copy.step(budget);
      const spent = clock() - began;
      job.spentMs += spent;
      this.longestCopyMs = Math.max(this.longestCopyMs, spent);
      if (!job.copy.done) break;
      this.copies.shift();
      job.done(job.copy.synth, job.spentMs);
    }
  }

  /** Makes `synth` the one that plays, set up as the channels are; the current one drains. */
  install(synth, loadMs) {
    if (this.synth) {
      this.draining.push({ synth: this.synth, quiet: 0 });
      this.synth = synth;
      for (const bytes of this.sysex) synth.send(bytes, 0);
      for (const [c, channel] of this.channels.entries()) {
        for (const cc of kept) if (channel.controllers.has(cc)) synth.send([0xB0 | c, cc, channel.controllers.get(cc)], 0);
        if (channel.program !== null) synth.send([0xC0 | c, channel.program], 0);
        if (channel.bend !== null) synth.send([0xE0 | c, channel.bend & 0x7F, channel.bend >> 7], 0);
      }
    } else {
      this.synth = synth;
    }
    this.port.postMessage({ type: "ready", sampleRate, frame: currentFrame, loadMs, merges: this.merges,
                            longestCopyMs: this.longestCopyMs });
  }

  /** Remembers what a new synthesizer must be told to sound the same. */
  track(bytes) {
    const status = bytes[0];
    if (status === 0xF0) {
      this.sysex.push(bytes);
      if (this.sysex.length > 64) this.sysex.shift();
      return;
    }
    const channel = this.channels[status & 0x0F];
    switch (status & 0xF0) {
      case 0xB0:
        if (bytes[1] === 121) { channel.controllers.clear(); channel.bend = null; }
        else if (kept.includes(bytes[1])) channel.controllers.set(bytes[1], bytes[2]);
        break;
      case 0xC0: channel.program = bytes[1]; break;
      case 0xE0: channel.bend = bytes[1] | (bytes[2] << 7); break;
    }
  }

  process(inputs, outputs) {
    const output = outputs[0];
    const left = output[0], right = output[1] ?? output[0];
    if (this.copies.length) this.advanceCopies();
    if (!this.synth) return true;
    const frames = left.length, start = currentFrame;
    if (this.left.length !== frames) {
      for (const name of ["left", "right", "mixLeft", "mixRight"]) this[name] = new Float32Array(frames);
    }
    const began = clock();
    while (this.pending.length && this.pending[0].frame < start + frames) {
      const event = this.pending.shift();
      const offset = Math.max(0, event.frame - start);
      try {
        this.dispatch(event.bytes, offset);
        if (event.record && this.log) this.log.push([start + offset, ...event.bytes]);
      } catch { /* not a message: dropped */ }
    }
    this.playFile(start, frames);
    this.synth.render(this.mixLeft, this.mixRight);
    for (let i = this.draining.length - 1; i >= 0; i--) {
      const old = this.draining[i];
      old.synth.render(this.left, this.right);
      let peak = 0;
      for (let j = 0; j < frames; j++) {
        this.mixLeft[j] += this.left[j];
        this.mixRight[j] += this.right[j];
        peak = Math.max(peak, Math.abs(this.left[j]), Math.abs(this.right[j]));
      }
      // Gone once no voice is left and its effects have rung out for a second.
      old.quiet = old.synth.activeVoices === 0 && peak < 1e-6 ? old.quiet + frames : 0;
      if (old.quiet > sampleRate) { old.synth.dispose(); this.draining.splice(i, 1); }
    }
    left.set(this.mixLeft);
    if (output[1]) right.set(this.mixRight);
    this.captureBlock(start, frames);
    const spent = clock() - began;
    this.busyMs += spent;
    this.busyFrames += frames;
    this.load = 0.9 * this.load + 0.1 * (spent / (1000 * frames / sampleRate));
    if (currentTime - this.lastStatus > 0.1) {
      this.lastStatus = currentTime;
      let voices = this.synth.activeVoices;
      for (const old of this.draining) voices += old.synth.activeVoices;
      this.port.postMessage({ type: "status", voices, load: this.load, frame: start, busyMs: this.busyMs, busyFrames: this.busyFrames,
                              file: this.file ? { playing: this.file.playing, position: this.file.position } : null });
    }
    return true;
  }

  captureBlock(start, frames) {
    const history = this.history, kept = history.left.length;
    for (let j = 0; j < frames; j++) {
      history.left[(start + j) % kept] = this.mixLeft[j];
      history.right[(start + j) % kept] = this.mixRight[j];
    }
    history.end = start + frames;
    for (let c = this.captures.length - 1; c >= 0; c--) {
      const capture = this.captures[c];
      const from = Math.max(capture.from + capture.filled, start);
      const count = Math.min(start + frames - from, capture.left.length - capture.filled);
      if (count < 0 || (count === 0 && capture.filled < capture.left.length)) continue;
      capture.left.set(this.mixLeft.subarray(from - start, from - start + count), capture.filled);
      capture.right.set(this.mixRight.subarray(from - start, from - start + count), capture.filled);
      capture.filled += count;
      if (capture.filled === capture.left.length) {
        this.port.postMessage({ type: "captured", id: capture.id, from: capture.from, left: capture.left, right: capture.right },
                              [capture.left.buffer, capture.right.buffer]);
        this.captures.splice(c, 1);
      }
    }
  }
}

registerProcessor("polyphon", PolyphonProcessor);
