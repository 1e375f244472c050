// The jam page: a keyboard (mouse, touch, computer keys, Web MIDI) playing Polyphon's engine in
// an AudioWorklet, 128 General MIDI instruments and the bank's drum kits, takes recorded in
// layers with exact frames, played back, kept in the browser and exported through the server.
// `window.jam` scripts all of it (see the README).
import { families, programName, drumKeys } from "./gm.js";
import { readMIDIFile, MIDIRecordKind } from "./polyphon.js";
import { MIDIFilePlayer } from "./polyphon-midi-player.js";

const $ = (id) => document.getElementById(id);
const STORE = "polyphon-jam-take";
/** Computer keys of the two-row piano, by physical key: semitones above the octave's C. */
const typedKeys = { KeyA: 0, KeyW: 1, KeyS: 2, KeyE: 3, KeyD: 4, KeyF: 5, KeyT: 6, KeyG: 7, KeyY: 8, KeyH: 9,
                    KeyU: 10, KeyJ: 11, KeyK: 12, KeyO: 13, KeyL: 14, KeyP: 15, Semicolon: 16, Quote: 17 };
const typedLabel = Object.fromEntries(Object.entries(typedKeys).map(([code, s]) =>
  [s, code === "Semicolon" ? ";" : code === "Quote" ? "'" : code.slice(3).toLowerCase()]));
const noteNames = ["C", "C♯", "D", "D♯", "E", "F", "F♯", "G", "G♯", "A", "A♯", "B"];

const state = {
  banks: [], bank: null, presets: [], loaded: new Map(), playing: new Set(),
  program: 0, drums: false, kit: 0, family: 0,
  octave: 4, velocity: 100, sustain: false,
  reverb: true, chorus: true, reverbLevel: 40, chorusLevel: 0,
  tempo: 120, beatsPerBar: 4, metronome: false,
  take: null, recording: null, playback: null,
  songs: [],  // the server's songs: { id, name, size }
  song: null,  // the MIDI file loaded: { name, events, channels, tracks, lyrics, duration, … }
  down: new Map(),  // sounding key → how many sources hold it (pointer, computer key, MIDI)
};
let context, node, analyser, volume, ready, resolveReady, captureId = 0, wasmModule;
const captures = new Map();
let logWaiter = null;
ready = new Promise((resolve) => { resolveReady = resolve; });

// MARK: Audio

async function startAudio() {
  context = new AudioContext({ latencyHint: "interactive" });
  await context.audioWorklet.addModule("polyphon-worklet.js");
  node = new AudioWorkletNode(context, "polyphon", { numberOfInputs: 0, outputChannelCount: [2] });
  analyser = context.createAnalyser();
  analyser.fftSize = 2048;
  volume = context.createGain();
  node.connect(analyser);
  node.connect(volume).connect(context.destination);
  setVolume($("volume").value);
  node.port.onmessage = (e) => received(e.data);
  wasmModule = await WebAssembly.compile(await (await fetch("polyphon.wasm")).arrayBuffer());
  node.port.postMessage({ type: "init", module: wasmModule, reverb: state.reverb, chorus: state.chorus });
  await loadBanks(true);
  sendSetup(liveChannel(), false);
  resume();
}
/** Resolves the wait for the worklet's next "ready" (its new synthesizer plays). */
let firstReady = null;

/** Each channel's level in dBFS as the worklet last posted it (-Infinity: silent). */
let channelLevels = new Float32Array(16).fill(-Infinity);

/** The channel rows' meters show `channelLevels` (a 60 dB scale). */
function showChannelLevels() {
  for (const meter of $("song-channels").querySelectorAll("meter")) {
    meter.value = Math.max(-60, channelLevels[+meter.dataset.channel] ?? -Infinity);
  }
}

function received(message) {
  switch (message.type) {
    case "levels":
      channelLevels = message.levels;
      showChannelLevels();
      break;
    case "ready":
      jam.lastBankLoadMs = message.loadMs;
      jam.audioThreadMerges = message.merges;
      jam.longestCopyMs = message.longestCopyMs;
      if (firstReady) { firstReady(); firstReady = null; }
      break;
    case "status":
      jam.worklet = { voices: message.voices, load: message.load, busyMs: message.busyMs, busyFrames: message.busyFrames };
      $("voices").textContent = `${message.voices} voices`;
      $("load").textContent = `load ${(100 * message.load).toFixed(1)} %`;
      if (message.file && state.song) {
        state.song.position = message.file.position;
        rollClock = { seconds: message.file.position / context.sampleRate, at: context.currentTime };
        showSongPosition(message.file);
      }
      break;
    case "filePlaying": case "fileState": case "fileEnded":
      songMessage(message);
      break;
    case "error": say(message.message, true); break;
    case "log": if (logWaiter) { logWaiter(message.events); logWaiter = null; } break;
    case "captured": {
      const done = captures.get(message.id);
      captures.delete(message.id);
      done?.({ left: message.left, right: message.right, sampleRate: context.sampleRate, from: message.from });
      break;
    }
  }
}

function resume() {
  if (context.state !== "running") context.resume().catch(() => {});
  const latency = (context.baseLatency ?? 0) + (context.outputLatency ?? 0);
  $("latency").textContent = `${(1000 * latency).toFixed(1)} ms`;
}

function send(bytes, { record = false, time = 0 } = {}) {
  node?.port.postMessage({ type: "midi", bytes, time, record: record && !!state.recording });
}

function setVolume(percent) {
  if (volume) volume.gain.value = (percent / 100) ** 2;
}

// MARK: Banks and presets

/** The preset the engine plays for `bank:program` in this bank (its fallback rule). */
function resolvePreset(bank, program) {
  const has = (b, p) => state.presets.some((x) => x.bank === b && x.program === p);
  if (has(bank, program)) return [bank, program];
  if (bank === 128) return has(128, 0) ? [128, 0] : null;
  return has(0, program) ? [0, program] : has(0, 0) ? [0, 0] : null;
}

/** Presets the take's layers and the live instrument need. */
function neededPresets() {
  const wanted = new Set();
  const add = (bank, program) => { const p = resolvePreset(bank, program); if (p) wanted.add(p.join(":")); };
  add(state.drums ? 128 : 0, state.drums ? state.kit : state.program);
  for (const [b, p] of state.song?.presets ?? []) add(b, p);
  for (const layer of state.take?.layers ?? []) for (const [b, p] of layerPresets(layer)) add(b, p);
  return [...wanted].sort();
}

/** The bank:program pairs a layer's events select. */
function layerPresets(layer) {
  const drums = new Set([9]);
  const out = [];
  for (const [, ...bytes] of layer.events) {
    const gs = bytes[0] === 0xF0 ? gsRhythmChannel(bytes) : null;
    if (gs) { if (gs.drums) drums.add(gs.channel); else drums.delete(gs.channel); }
    if ((bytes[0] & 0xF0) === 0xC0) out.push([drums.has(bytes[0] & 15) ? 128 : 0, bytes[1]]);
  }
  if (!out.length) out.push([layer.drums ? 128 : 0, layer.program ?? 0]);
  return out;
}

async function fetchPreset(key) {
  if (state.loaded.has(key)) return state.loaded.get(key);
  const [bank, program] = key.split(":");
  const response = await fetch(`api/banks/${state.bank.id}/presets/${bank}/${program}?v=${state.bank.version}`);
  if (!response.ok) throw new Error(`preset ${key}: ${(await response.json()).error?.message ?? response.status}`);
  const bytes = await response.arrayBuffer();
  state.loaded.set(key, bytes);
  return bytes;
}

/** Makes the worklet play every preset needed now; nothing is reloaded when it already does.
 *  Calls run one after another. */
let loading = Promise.resolve();
function loadBanks(force = false) {
  loading = loading.catch(() => {}).then(() => loadBanksNow(force));
  return loading;
}
async function loadBanksNow(force) {
  if (!node) return;
  const wanted = neededPresets();
  if (!force && wanted.every((k) => state.playing.has(k)) && wanted.length === state.playing.size) return;
  const list = await Promise.all(wanted.map(fetchPreset));
  // The banks are read and merged by a Worker; the audio thread only copies the synthesizer it
  // built (its image, handed over, not cloned), so a take playing meanwhile does not drop out.
  const began = performance.now();
  const image = await buildSynth(list);
  jam.lastBankBuildMs = performance.now() - began;
  state.playing = new Set(wanted);
  const done = new Promise((resolve) => { firstReady = resolve; });
  node.port.postMessage({ type: "image", image }, [image.memory]);
  await done;
}

/** The Worker that builds synthesizers off the audio thread and the page's main thread. */
let builder = null, builds = 0;
const built = new Map();
/** A synthesizer for `list` (bank bytes) at the page's rate and effects, built by the Worker: its image. */
function buildSynth(list) {
  if (!builder) {
    const wrapper = new URL("polyphon.js", location.href).href;
    const source = `import { PolyphonSynth } from ${JSON.stringify(wrapper)};
      onmessage = async ({ data: { id, module, sampleRate, reverb, chorus, list } }) => {
        try {
          const synth = await PolyphonSynth.create({ module, sampleRate, reverb, chorus });
          synth.loadSoundFonts(list);
          const image = synth.image();
          synth.dispose();
          postMessage({ id, image }, [image.memory]);
        } catch (error) { postMessage({ id, error: String(error?.message ?? error) }); }
      };`;
    builder = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })), { type: "module" });
    builder.onmessage = ({ data }) => {
      const { resolve, reject } = built.get(data.id);
      built.delete(data.id);
      if (data.error) reject(new Error(data.error)); else resolve(data.image);
    };
  }
  const id = ++builds;
  return new Promise((resolve, reject) => {
    built.set(id, { resolve, reject });
    // Copies handed over, not cloned: the presets stay cached here.
    const copies = list.map((b) => b.slice(0));
    builder.postMessage({ id, module: wasmModule, sampleRate: context.sampleRate, reverb: state.reverb, chorus: state.chorus, list: copies }, copies);
  });
}

async function chooseBank(id) {
  state.bank = state.banks.find((b) => b.id === id) ?? state.banks[0];
  state.presets = await (await fetch(`api/banks/${state.bank.id}/presets`)).json();
  state.loaded.clear();
  state.playing = new Set();
  localStorage.setItem(STORE + "-bank", state.bank.id);
  renderPrograms();
  if (node) { await loadBanks(true); sendSetup(liveChannel(), false); }
}

// MARK: Channels and setup

/** The channel the next layer records on: its own, so layers never disturb each other. */
function liveChannel() {
  const used = new Set((state.take?.layers ?? []).map((l) => l.channel));
  for (const channel of state.song?.channels ?? []) used.add(channel.channel);
  if (state.drums && !used.has(9)) return 9;
  for (let c = 0; c < 16; c++) if (c !== 9 && !used.has(c)) return c;
  return state.drums ? 9 : 15;
}

/** A Roland GS "use for rhythm part" message for `channel`, with its checksum. */
function gsRhythm(channel, drums) {
  const part = channel === 9 ? 0 : channel < 9 ? channel + 1 : channel;
  const body = [0x40, 0x10 | part, 0x15, drums ? 2 : 0];
  const sum = body.reduce((a, b) => a + b, 0);
  return [0xF0, 0x41, 0x10, 0x42, 0x12, ...body, (128 - (sum % 128)) % 128, 0xF7];
}
function gsRhythmChannel(bytes) {
  if (bytes.length !== 11 || bytes[1] !== 0x41 || bytes[5] !== 0x40 || (bytes[6] & 0xF0) !== 0x10 || bytes[7] !== 0x15) return null;
  const part = bytes[6] & 15;
  return { channel: part === 0 ? 9 : part <= 9 ? part - 1 : part, drums: bytes[8] !== 0 };
}

/** The live instrument's setup on `channel`: drum part, program, effect sends. */
function setupMessages(channel) {
  const out = [];
  if (channel !== 9) out.push(gsRhythm(channel, state.drums));
  out.push([0xB0 | channel, 0, 0], [0xC0 | channel, state.drums ? state.kit : state.program],
           [0xB0 | channel, 91, state.reverbLevel], [0xB0 | channel, 93, state.chorusLevel]);
  return out;
}
function sendSetup(channel, record, time = 0) {
  for (const bytes of setupMessages(channel)) send(bytes, { record, time });
}

function instrumentName() {
  if (state.drums) return state.presets.find((p) => p.bank === 128 && p.program === state.kit)?.name ?? `Drum kit ${state.kit}`;
  return programName(state.program);
}

async function setInstrument(program, { drums = false } = {}) {
  state.drums = drums;
  if (drums) state.kit = program; else state.program = program;
  state.family = drums ? 16 : program >> 3;
  renderFamilies(); renderPrograms(); renderPlayArea();
  await loadBanks();
  sendSetup(liveChannel(), true);
  say(`${instrumentName()}`);
}

// MARK: Notes

function noteOn(key, velocity = state.velocity) {
  if (key < 0 || key > 127) return;
  resume();
  const count = state.down.get(key) ?? 0;
  if (count) send([0x80 | liveChannel(), key, 0], { record: true });
  state.down.set(key, count + 1);
  send([0x90 | liveChannel(), key, Math.max(1, Math.min(127, velocity | 0))], { record: true });
  highlight(key, true);
}

function noteOff(key) {
  const count = state.down.get(key) ?? 0;
  if (!count) return;
  if (count > 1) { state.down.set(key, count - 1); return; }
  state.down.delete(key);
  send([0x80 | liveChannel(), key, 0], { record: true });
  highlight(key, false);
}

function sustain(on) {
  state.sustain = !!on;
  $("sustain").classList.toggle("on", state.sustain);
  send([0xB0 | liveChannel(), 64, state.sustain ? 127 : 0], { record: true });
}

function setOctave(n) {
  state.octave = Math.max(0, Math.min(8, n | 0));
  $("octave").textContent = `C${state.octave}`;
  renderKeyboard();
}

function setVelocity(v) {
  state.velocity = Math.max(1, Math.min(127, v | 0));
  $("velocity").value = state.velocity;
  $("velocity-value").textContent = state.velocity;
}

function baseKey() { return 12 * (state.octave + 1); }

// MARK: Recording and playback

function frameNow() { return Math.round(context.currentTime * context.sampleRate); }

function emptyTake() {
  return { sampleRate: context.sampleRate, tempo: state.tempo, beatsPerBar: state.beatsPerBar,
           reverb: state.reverb, chorus: state.chorus, bank: state.bank.id, layers: [] };
}

/** Seconds from Record (or Play) to the take's first frame: time to set the take up. */
const LEAD_IN = 0.15;

/** Starts a layer: the take so far plays while the new layer records, both from frame 0.
 *  Recording runs from the click: what is played while presets load and the take is set up is
 *  in the layer (at its start), and the take and the song start on the frame the click chose —
 *  joined where they would be by then when loading took longer. */
async function startRecording() {
  if (state.recording) return;
  stop();
  state.take ??= emptyTake();
  const start = context.currentTime + LEAD_IN;
  const channel = liveChannel();
  const origin = Math.round(start * context.sampleRate);
  const recording = { channel, origin, start, name: instrumentName(), program: state.drums ? state.kit : state.program, drums: state.drums };
  // A fresh synthesizer first, so the keys played from now on sound on the one the take plays on.
  node.port.postMessage({ type: "reset", fresh: true });
  node.port.postMessage({ type: "log", on: true });
  state.recording = recording;
  sendSetup(channel, true);
  $("record").classList.add("on");
  renderLayers();
  await loadBanks();
  if (state.recording !== recording) return;
  scheduleTake(state.take, start, { reset: false });
  // With a song loaded, the layer is recorded over it: the song starts from its beginning on
  // the take's first frame, and exports of the song carry the layer.
  if (state.song) {
    state.take.overSong = state.song.name;
    await startSongAt(origin);
    // The song starts on a synthesizer of its own, set up afresh.
    if (state.recording === recording) sendSetup(channel, false);
  }
  if (state.recording !== recording) return;
  startMetronome(start);
}

/** Ends the layer and adds it to the take; returns the take. */
async function stopRecording() {
  const recording = state.recording;
  if (!recording) return state.take;
  for (const key of [...state.down.keys()]) { state.down.set(key, 1); noteOff(key); }
  if (state.sustain) sustain(false);
  const events = await new Promise((resolve) => { logWaiter = resolve; node.port.postMessage({ type: "log", on: false }); });
  state.recording = null;
  if (state.song?.playing) await stopFile();
  stopMetronome();
  $("record").classList.remove("on");
  const layer = { name: recording.name, channel: recording.channel, program: recording.program, drums: recording.drums,
                  events: events.map(([frame, ...bytes]) => [Math.max(0, frame - recording.origin), ...bytes]) };
  state.take.layers.push(layer);
  state.take.tempo = state.tempo;
  save();
  renderLayers();
  sendSetup(liveChannel(), false);
  return structuredClone(state.take);
}

/** Sends every event of `take` to play from `start` (seconds on the audio clock). Notes whose
 *  time has passed are left out (the rest still set the channels up), so a take that starts late
 *  joins where it would be. */
function scheduleTake(take, start, { reset = true, keepLive = false } = {}) {
  // A fresh synthesizer: the take sounds exactly as the server's render of it, effect tails and all.
  if (reset) node.port.postMessage({ type: "reset", fresh: true });
  if (keepLive) sendSetup(liveChannel(), false);
  // In time order (stable: a layer's messages on one frame keep theirs), so the worklet appends
  // each to its queue instead of searching back through the other layers' events.
  const events = take.layers.flatMap((layer) => layer.events).map((e, i) => [e, i])
    .sort((a, b) => a[0][0] - b[0][0] || a[1] - b[1]).map(([e]) => e);
  const late = context.currentTime + 0.01;
  for (const [frame, ...bytes] of events) {
    const time = start + frame / take.sampleRate;
    if (time < late && (bytes[0] & 0xF0) === 0x90 && bytes[2] > 0) continue;
    send(bytes, { time });
  }
  return events.length ? events[events.length - 1][0] / take.sampleRate : 0;
}

/** Plays a take (the page's own by default); resolves when its last event has played. */
async function play(take = state.take) {
  if (!take?.layers?.length) return { startFrame: null };
  stop();
  jam.lastPlayback = null;
  const previous = state.take;
  state.take = take;
  await loadBanks();
  state.take = previous;
  const start = context.currentTime + LEAD_IN;
  const last = scheduleTake(take, start);
  const startFrame = Math.round(start * context.sampleRate);
  if (state.song && take.overSong === state.song.name) await startSongAt(startFrame);
  sendSetup(liveChannel(), false, start);
  startMetronome(start);
  $("play").classList.add("selected");
  const playback = { startFrame, done: null };
  state.playback = playback;
  jam.lastPlayback = { startFrame, seconds: last };
  await new Promise((resolve) => { playback.done = resolve; playback.timer = setTimeout(resolve, (start - context.currentTime + last) * 1000 + 50); });
  if (state.playback === playback) { state.playback = null; stopMetronome(); $("play").classList.remove("selected"); }
  return { startFrame };
}

function stop() {
  if (state.recording) { stopRecording(); return; }
  if (state.playback) {
    clearTimeout(state.playback.timer);
    state.playback.done?.();
    state.playback = null;
    node.port.postMessage({ type: "reset" });
    sendSetup(liveChannel(), false);
  }
  stopMetronome();
  $("play").classList.remove("selected");
}

function undoLayer() {
  if (state.recording || !state.take?.layers.length) return;
  stop();
  state.take.layers.pop();
  if (!state.take.layers.length) state.take = null;
  save();
  renderLayers();
  sendSetup(liveChannel(), false);
}

function save() {
  if (state.take) localStorage.setItem(STORE, JSON.stringify(state.take)); else localStorage.removeItem(STORE);
}

// The metronome is not the engine: plain oscillator clicks, so it is never in a take or an export.
let metronomeTimer = null;
function startMetronome(start) {
  stopMetronome();
  if (!state.metronome) return;
  const beat = 60 / state.tempo;
  let n = 0;
  const tick = () => {
    while (start + n * beat < context.currentTime + 0.3) {
      const at = start + n * beat;
      if (at >= context.currentTime) {
        const osc = context.createOscillator(), gain = context.createGain();
        osc.frequency.value = n % state.beatsPerBar === 0 ? 1760 : 1320;
        gain.gain.setValueAtTime(0.25, at);
        gain.gain.exponentialRampToValueAtTime(0.001, at + 0.05);
        osc.connect(gain).connect(volume);
        osc.start(at); osc.stop(at + 0.06);
      }
      n++;
    }
  };
  tick();
  metronomeTimer = setInterval(tick, 100);
}
function stopMetronome() { clearInterval(metronomeTimer); metronomeTimer = null; }

// MARK: A MIDI file

/** Largest MIDI file the page reads (the reader holds a few copies of it). */
const MAX_MIDI_BYTES = 16 << 20;

/** Reads a MIDI file in the page (the WebAssembly module's reader), hands its events to the
 *  worklet's player and loads the presets it plays: `{duration, tracks, channels, lyrics,
 *  warnings}`, the warnings (shown on the page) about a damaged file the reader could still read. */
async function loadMIDI(bytes, name = "song.mid") {
  await ready;
  const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes.buffer ?? bytes, bytes.byteOffset ?? 0, bytes.byteLength);
  if (data.length > MAX_MIDI_BYTES) throw new RangeError(`${name}: ${data.length.toLocaleString()} bytes, more than the ${MAX_MIDI_BYTES >> 20} MB the page reads`);
  const file = await readMIDIFile({ module: wasmModule, bytes: data, name });
  const song = describeSong(file, name, context.sampleRate);
  song.lyricLines = lyricLines(song.lyrics);
  song.notes = songNotes(song, context.sampleRate);
  song.lowKey = Math.min(...song.notes.map((n) => n.key), 127);
  song.highKey = Math.max(...song.notes.map((n) => n.key), 0);
  stopFile();
  state.song = song;
  const loaded = nextSongMessage("fileState");
  node.port.postMessage({ type: "file", events: song.events, endFrame: Math.round(song.duration * context.sampleRate) });
  await loaded;
  await loadBanks();
  sendSetup(liveChannel(), false);
  renderSong();
  const read = `${name}: ${formatTime(song.duration)}, ${song.channels.length} channels, ${song.tracks.length} tracks.`;
  if (song.warnings.length) say(`${read} Damaged: ${song.warnings.join("; ")}`, true);
  else say(read);
  return songSummary(song);
}

function songSummary(song) {
  return { duration: song.duration, tracks: song.tracks.map((t) => ({ ...t })),
           channels: song.channels.map((c) => ({ ...c, name: channelInstrumentName(c) })), lyrics: song.lyrics.map((l) => ({ ...l })),
           warnings: [...song.warnings] };
}

/** The song's events on their frames at `sampleRate`, its channels and the presets they play,
 *  its tracks, lyrics and metric map. */
function describeSong(file, name, sampleRate) {
  const events = [], lyrics = [], karaoke = [], tempos = [], signatures = [];
  const tracks = Array.from({ length: file.trackCount }, (_, index) => ({ index, name: "", notes: 0 }));
  const channels = new Map();
  const bankSelect = new Array(16).fill(0), program = new Array(16).fill(0);
  const presets = new Set();
  const text = (bytes) => { try { return new TextDecoder("utf-8", { fatal: true }).decode(bytes); } catch { return String.fromCharCode(...bytes); } };
  for (const record of file.records) {
    const d = record.data;
    switch (record.kind) {
      case MIDIRecordKind.message: {
        events.push([Math.round(record.seconds * sampleRate), ...d]);
        const kind = d[0] & 0xF0, c = d[0] & 0x0F;
        if (kind === 0xB0 && d[1] === 0) bankSelect[c] = d[2];
        else if (kind === 0xC0) program[c] = d[1];
        else if (kind === 0x90 && d[2] > 0) {
          const bank = c === 9 ? 128 : bankSelect[c];
          if (!channels.has(c)) channels.set(c, { channel: c, bank, program: program[c], drums: c === 9, notes: 0 });
          channels.get(c).notes++;
          if (record.track < tracks.length) tracks[record.track].notes++;
          presets.add(`${bank}:${program[c]}`);
        }
        break;
      }
      case MIDIRecordKind.tempo: tempos.push({ tick: record.tick, seconds: record.seconds, microseconds: d[0] | d[1] << 8 | d[2] << 16 | d[3] << 24 }); break;
      case MIDIRecordKind.timeSignature: signatures.push({ tick: record.tick, numerator: d[0], denominator: 2 ** d[1] }); break;
      case MIDIRecordKind.text: {
        const words = text(d.subarray(1));
        if (d[0] === 3 && record.track < tracks.length && !tracks[record.track].name) tracks[record.track].name = words;
        if (d[0] === 5) lyrics.push({ time: record.seconds, text: words });
        // Karaoke (.kar) files carry their syllables as text events; "@" lines are headers.
        if (d[0] === 1 && !words.startsWith("@")) karaoke.push({ time: record.seconds, text: words });
        break;
      }
    }
  }
  return { name, events, duration: file.duration, ticksPerQuarterNote: file.ticksPerQuarterNote, tempos, signatures, warnings: file.warnings,
           tracks, channels: [...channels.values()].sort((a, b) => a.channel - b.channel),
           lyrics: lyrics.length ? lyrics : karaoke, position: 0, playing: false, rate: 1, transpose: 0,
           presets: [...presets].map((k) => k.split(":").map(Number)), muted: new Set(), soloed: new Set() };
}

/** The song's notes: `{start, end, key, channel}` in seconds, from its events. */
function songNotes(song, sampleRate) {
  const notes = [], open = new Map();
  for (const [frame, status, key, velocity] of song.events) {
    const kind = status & 0xF0, channel = status & 0x0F, id = channel << 8 | key;
    if (kind === 0x90 && velocity > 0) {
      if (!open.has(id)) open.set(id, []);
      open.get(id).push(notes.length);
      notes.push({ start: frame / sampleRate, end: song.duration, key, channel });
    } else if (kind === 0x80 || kind === 0x90) {
      const index = open.get(id)?.shift();
      if (index !== undefined) notes[index].end = frame / sampleRate;
    }
  }
  return notes;
}

// MARK: The piano roll

/** A colour per channel: the drums (channel 10) grey, the others 16 hues apart by at least 22.5°,
 *  the channels songs use most (1–9) spread farthest. */
const channelColours = Array.from({ length: 16 }, (_, c) => c === 9 ? "hsl(0 0% 78%)" : `hsl(${(c * 157.5) % 360} 70% 60%)`);
/** Where the song is now, between the worklet's reports: the last one moved on by the clock. */
let rollClock = null;

function drawRoll() {
  const canvas = $("song-roll"), g = canvas.getContext("2d");
  const frame = () => {
    requestAnimationFrame(frame);
    const song = state.song;
    if (!song || canvas.hidden) return;
    if (canvas.width !== canvas.clientWidth) canvas.width = canvas.clientWidth;
    let now = song.position / context.sampleRate;
    if (song.playing && rollClock) now = rollClock.seconds + (context.currentTime - rollClock.at) * song.rate;
    const span = 8, past = 1.5, width = canvas.width, height = canvas.height;
    const low = song.lowKey, range = Math.max(12, song.highKey - low + 1), row = height / range;
    g.clearRect(0, 0, width, height);
    const x = (t) => ((t - now + past) / span) * width;
    for (const note of song.notes) {
      if (note.end < now - past || note.start > now - past + span) continue;
      g.fillStyle = channelColours[note.channel];
      g.globalAlpha = song.muted.has(note.channel) || (song.soloed.size && !song.soloed.has(note.channel)) ? 0.2 : 1;
      g.fillRect(x(note.start), height - (note.key - low + 1) * row, Math.max(2, x(note.end) - x(note.start) - 1), Math.max(2, row - 1));
    }
    g.globalAlpha = 1;
    g.fillStyle = "#ffffff";
    g.fillRect(x(now), 0, 1, height);
  };
  requestAnimationFrame(frame);
}

/** The instrument a channel plays: the listener's choice, else the song's first. */
function channelInstrumentName(channel) {
  const program = channel.override ?? channel.program;
  const bank = channel.drums ? 128 : channel.override !== undefined ? 0 : channel.bank;
  const resolved = resolvePreset(bank, program);
  const preset = resolved && state.presets.find((p) => p.bank === resolved[0] && p.program === resolved[1]);
  return preset?.name ?? (channel.drums ? `Drum kit ${program}` : programName(program));
}

/** Resolves with the worklet's next answer of one of `types`. */
const songWaiters = [];
function nextSongMessage(...types) {
  return new Promise((resolve) => songWaiters.push({ types, resolve }));
}
function songMessage(message) {
  if (state.song) {
    if (message.type === "fileEnded") { state.song.playing = false; state.song.position = 0; }
    else { state.song.playing = message.type === "filePlaying" || message.playing; state.song.position = message.position; }
    rollClock = { seconds: state.song.position / context.sampleRate, at: context.currentTime };
    showSongPosition({ playing: state.song.playing, position: message.type === "fileEnded" ? 0 : message.position });
  }
  for (let i = 0; i < songWaiters.length; i++) {
    if (!songWaiters[i].types.includes(message.type)) continue;
    songWaiters.splice(i, 1)[0].resolve(message);
    break;
  }
}

function requireSong() {
  if (!state.song) throw new Error("load a MIDI file first (jam.loadMIDI)");
}

/** Plays the song from its position; resolves with the audio frame its position plays on. */
async function playFile() {
  requireSong();
  stop();
  await loadBanks();
  const started = nextSongMessage("filePlaying");
  node.port.postMessage({ type: "filePlay" });
  const message = await started;
  sendSetup(liveChannel(), false);
  return message.frame;
}
/** Plays the song from its start on audio frame `frame` (with a take scheduled for then). */
async function startSongAt(frame) {
  await stopFile();
  const started = nextSongMessage("filePlaying");
  node.port.postMessage({ type: "filePlay", at: frame });
  return (await started).frame;
}

async function pauseFile() {
  requireSong();
  const answer = nextSongMessage("fileState");
  node.port.postMessage({ type: "filePause" });
  return (await answer).position / context.sampleRate;
}
async function stopFile() {
  if (!state.song) return;
  const answer = nextSongMessage("fileState");
  node.port.postMessage({ type: "fileStop" });
  await answer;
}
/** Moves to `seconds` into the song; playing goes on from there, with the song's state chased. */
async function seekFile(seconds) {
  requireSong();
  const frame = Math.round(Math.max(0, Math.min(state.song.duration, seconds)) * context.sampleRate);
  const answer = nextSongMessage("fileState");
  node.port.postMessage({ type: "fileSeek", frame });
  return (await answer).position / context.sampleRate;
}
async function channelSwitch(type, channel, on) {
  requireSong();
  if (!(channel >= 0 && channel < 16)) throw new RangeError(`channel ${channel}: channels are counted 0–15`);
  const set = type === "fileMute" ? state.song.muted : state.song.soloed;
  if (on) set.add(channel); else set.delete(channel);
  const answer = nextSongMessage("fileState");
  node.port.postMessage({ type, channel, on: !!on });
  renderSong();
  await answer;
}
const muteChannel = (channel, on = true) => channelSwitch("fileMute", channel, on);
const soloChannel = (channel, on = true) => channelSwitch("fileSolo", channel, on);

/** Gives a song's channel an instrument of the page's (a GM program; on a drum channel, a kit);
 *  `null` gives it back the song's. */
async function setChannelInstrument(channel, program) {
  requireSong();
  const entry = state.song.channels.find((c) => c.channel === channel);
  if (!entry) throw new RangeError(`channel ${channel} plays no notes in this song`);
  if (program === null) delete entry.override; else entry.override = Math.max(0, Math.min(127, program | 0));
  state.song.presets.push([entry.drums ? 128 : 0, entry.override ?? entry.program]);
  await loadBanks();
  const answer = nextSongMessage("fileState");
  node.port.postMessage({ type: "fileProgram", channel, program: entry.override ?? null });
  renderSong();
  await answer;
  return channelInstrumentName(entry);
}

/** Gives a song's channel a volume of the page's (0–127, as CC7), or back the song's (`null`). */
async function setChannelVolume(channel, volume) {
  requireSong();
  const entry = state.song.channels.find((c) => c.channel === channel);
  if (!entry) throw new RangeError(`channel ${channel} plays no notes in this song`);
  entry.volume = volume === null ? null : Math.max(0, Math.min(127, volume | 0));
  const answer = nextSongMessage("fileState");
  node.port.postMessage({ type: "fileVolume", channel, volume: entry.volume });
  await answer;
  return entry.volume;
}

/** Plays the song at `factor` times its tempo (0.25–4) from where it is. */
async function setFileTempo(factor) {
  requireSong();
  state.song.rate = Math.max(0.25, Math.min(4, +factor || 1));
  $("song-tempo").textContent = `${Math.round(100 * state.song.rate)} %`;
  const answer = nextSongMessage("fileState");
  node.port.postMessage({ type: "fileRate", rate: state.song.rate });
  await answer;
  return state.song.rate;
}

/** Moves the song's notes (not the drums') by `semitones` (−24…24). */
async function transposeFile(semitones) {
  requireSong();
  state.song.transpose = Math.max(-24, Math.min(24, Math.round(+semitones || 0)));
  $("song-transpose").textContent = `${state.song.transpose > 0 ? "+" : ""}${state.song.transpose}`;
  const answer = nextSongMessage("fileState");
  node.port.postMessage({ type: "fileTranspose", semitones: state.song.transpose });
  await answer;
  return state.song.transpose;
}

/** Loops the song between `from` and `to` seconds; `loopFile(null)` ends the loop. */
async function loopFile(from, to) {
  requireSong();
  const rate = context.sampleRate, song = state.song;
  song.loop = from === null || from === undefined || !(to > from) ? null : { from: Math.max(0, from), to: Math.min(song.duration, to) };
  $("song-loop").classList.toggle("on", !!song.loop);
  $("song-loop").textContent = song.loop ? `⟲ ${formatTime(song.loop.from)}–${formatTime(song.loop.to)}` : "⟲ Loop";
  const answer = nextSongMessage("fileState");
  node.port.postMessage({ type: "fileLoop", start: song.loop ? Math.round(song.loop.from * rate) : null,
                          end: song.loop ? Math.round(song.loop.to * rate) : 0 });
  await answer;
  return song.loop ? { ...song.loop } : null;
}

/** Seconds as m:ss.s. */
function formatTime(seconds) {
  const m = Math.floor(seconds / 60), s = seconds - 60 * m;
  return `${m}:${s.toFixed(1).padStart(4, "0")}`;
}

/** Bar and beat (from 1) at `seconds`, through the song's tempo map and time signatures. */
function barsAndBeats(song, seconds) {
  const tpq = song.ticksPerQuarterNote;
  if (!tpq) return "";
  let tempo = { tick: 0, seconds: 0, microseconds: 500000 };
  for (const t of song.tempos) if (t.seconds <= seconds) tempo = t;
  const tick = tempo.tick + (seconds - tempo.seconds) * 1e6 / tempo.microseconds * tpq;
  let bar = 0, from = 0, signature = { numerator: 4, denominator: 4 };
  for (const next of [...song.signatures, { tick: Infinity }]) {
    const ticksPerBar = signature.numerator * tpq * 4 / signature.denominator;
    if (tick < next.tick) {
      const inBar = (tick - from) / ticksPerBar;
      return `${bar + Math.floor(inBar) + 1}:${Math.floor((inBar % 1) * signature.numerator) + 1}`;
    }
    bar += Math.ceil((next.tick - from) / ticksPerBar - 1e-9);
    from = next.tick;
    signature = next;
  }
  return "";
}

/** The lyrics in lines: a syllable starting with "/" or "\\" (karaoke files) or following one
 *  that ends a line ("\r", "\n") starts a new line. */
function lyricLines(lyrics) {
  const lines = [];
  let breakNext = true;
  for (const [i, { text }] of lyrics.entries()) {
    const starts = /^[\/\\]/.test(text);
    if (breakNext || starts || !lines.length) lines.push([]);
    lines[lines.length - 1].push({ index: i, text: text.replace(/^[\/\\]/, "").replace(/[\r\n]+$/, "") });
    breakNext = /[\r\n]$/.test(text);
  }
  return lines;
}

/** The line being sung at `seconds`, its current syllable highlighted. */
function showLyrics(song, seconds) {
  const box = $("song-lyrics");
  box.hidden = !song.lyrics.length;
  if (!song.lyrics.length) return;
  let current = -1;
  for (let i = 0; i < song.lyrics.length && song.lyrics[i].time <= seconds; i++) current = i;
  const line = song.lyricLines.find((l) => l.some((s) => s.index === Math.max(0, current))) ?? song.lyricLines[0];
  if (box.dataset.shown === `${current}`) return;
  box.dataset.shown = `${current}`;
  box.replaceChildren(...line.map((s) => {
    const span = document.createElement("span");
    span.textContent = s.text;
    span.className = s.index < current ? "sung" : s.index === current ? "now" : "";
    return span;
  }));
}

function showSongPosition({ playing, position }) {
  const song = state.song;
  if (!song || !context) return;
  const seconds = position / context.sampleRate;
  showLyrics(song, seconds);
  $("song-play").textContent = playing ? "‖ Pause" : "▶ Play";
  if (!$("song-seek").matches(":active")) $("song-seek").value = seconds;
  $("song-time").textContent = `${barsAndBeats(song, seconds)}  ${formatTime(seconds)} / ${formatTime(song.duration)}`;
}

function renderSong() {
  const song = state.song;
  $("song").hidden = !song;
  if (!song) return;
  $("song-name").textContent = song.name;
  delete $("song-lyrics").dataset.shown;
  $("song-tempo").textContent = `${Math.round(100 * song.rate)} %`;
  $("song-transpose").textContent = `${song.transpose > 0 ? "+" : ""}${song.transpose}`;
  $("song-seek").max = song.duration;
  const list = $("song-channels");
  list.replaceChildren();
  for (const channel of song.channels) {
    const item = document.createElement("li");
    const name = document.createElement("span");
    name.textContent = `${channel.channel + 1} ${channelInstrumentName(channel)}`;
    const instrument = document.createElement("select");
    instrument.setAttribute("aria-label", `Instrument of channel ${channel.channel + 1}`);
    instrument.append(new Option("song's", ""));
    const choices = channel.drums ? state.presets.filter((p) => p.bank === 128).map((p) => [p.program, p.name])
      : families.flatMap(([, names], f) => names.map((n, i) => [8 * f + i, n]));
    for (const [program, label] of choices) instrument.append(new Option(label, program, false, channel.override === program));
    instrument.onchange = () => setChannelInstrument(channel.channel, instrument.value === "" ? null : +instrument.value)
      .catch((e) => say(e.message, true));
    const toggle = (label, set, action) => {
      const button = document.createElement("button");
      button.textContent = label;
      button.className = "toggle" + (set.has(channel.channel) ? " on" : "");
      button.onclick = () => action(channel.channel, !set.has(channel.channel)).catch((e) => say(e.message, true));
      return button;
    };
    const volume = document.createElement("input");
    Object.assign(volume, { type: "range", min: 0, max: 127, value: channel.volume ?? 100, title: "Volume (CC7): the song's until moved" });
    volume.setAttribute("aria-label", `Volume of channel ${channel.channel + 1}`);
    volume.oninput = () => setChannelVolume(channel.channel, +volume.value).catch((e) => say(e.message, true));
    const meter = document.createElement("meter");
    Object.assign(meter, { min: -60, max: 0, low: -18, high: -6, optimum: -30, value: -60, title: "Level (peak, dBFS)" });
    meter.dataset.channel = channel.channel;
    meter.setAttribute("aria-label", `Level of channel ${channel.channel + 1}`);
    item.append(name, instrument, volume, meter, toggle("M", song.muted, muteChannel), toggle("S", song.soloed, soloChannel));
    list.append(item);
  }
  showSongPosition(song);
}

/** The MIDI files the server offers (`polyphon jam --midi DIR`). */
async function listSongs() {
  state.songs = await (await fetch("api/songs")).json().catch(() => []);
  const list = $("song-list");
  list.hidden = !state.songs.length;
  list.replaceChildren(new Option(`Songs (${state.songs.length})…`, ""));
  for (const song of state.songs) list.append(new Option(song.name, song.id));
}

async function openFile(file) {
  try {
    if (file.size > MAX_MIDI_BYTES) throw new RangeError(`${file.name}: ${file.size.toLocaleString()} bytes, more than the ${MAX_MIDI_BYTES >> 20} MB the page reads`);
    await loadMIDI(new Uint8Array(await file.arrayBuffer()), file.name);
  } catch (error) {
    say(`Could not open ${file.name}: ${error.message}`, true);
  }
}

function bindSong() {
  $("song-file").onchange = (e) => { if (e.target.files[0]) openFile(e.target.files[0]); e.target.value = ""; };
  addEventListener("dragover", (e) => { e.preventDefault(); document.body.classList.add("dropping"); });
  addEventListener("dragleave", () => document.body.classList.remove("dropping"));
  addEventListener("drop", (e) => {
    e.preventDefault();
    document.body.classList.remove("dropping");
    const file = [...(e.dataTransfer?.files ?? [])].find((f) => /\.(mid|midi|kar|rmi)$/i.test(f.name)) ?? e.dataTransfer?.files[0];
    if (file) openFile(file);
  });
  $("song-list").onchange = async (e) => {
    const entry = state.songs.find((s) => s.id === e.target.value);
    if (!entry) return;
    try {
      const response = await fetch(`api/songs/${encodeURIComponent(entry.id)}`);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      await loadMIDI(new Uint8Array(await response.arrayBuffer()), entry.name);
    } catch (error) { say(`Could not open ${entry.name}: ${error.message}`, true); }
  };
  for (const kind of ["mid", "wav", "flac"]) $(`song-export-${kind}`).onclick = () => download(kind, true);
  $("song-play").onclick = () => (state.song?.playing ? pauseFile() : playFile()).catch((e) => say(e.message, true));
  $("song-stop").onclick = () => stopFile().catch((e) => say(e.message, true));
  const step = (action, value) => () => action(value()).catch((e) => say(e.message, true));
  $("song-slower").onclick = step(setFileTempo, () => (state.song?.rate ?? 1) - 0.05);
  $("song-faster").onclick = step(setFileTempo, () => (state.song?.rate ?? 1) + 0.05);
  // ⟲: the first click marks where the loop starts, the second where it ends, the third ends it.
  $("song-loop").onclick = () => {
    const song = state.song;
    if (!song) return;
    const here = song.position / context.sampleRate;
    if (song.loop) { song.loopStart = null; loopFile(null).catch((e) => say(e.message, true)); }
    else if (song.loopStart === undefined || song.loopStart === null) { song.loopStart = here; $("song-loop").textContent = `⟲ ${formatTime(here)}–…`; }
    else { const from = Math.min(song.loopStart, here), to = Math.max(song.loopStart, here); song.loopStart = null; loopFile(from, to).catch((e) => say(e.message, true)); }
  };
  $("song-down").onclick = step(transposeFile, () => (state.song?.transpose ?? 0) - 1);
  $("song-up").onclick = step(transposeFile, () => (state.song?.transpose ?? 0) + 1);
  $("song-seek").onchange = (e) => seekFile(+e.target.value).catch((error) => say(error.message, true));
}

// MARK: Export

async function exportTake(take, path) {
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(take) });
  if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error?.message ?? `HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}
const exportMIDI = (take = state.take) => exportTake(take, "api/export/midi");
const exportAudio = (take = state.take, format = "wav", bits = undefined) =>
  exportTake(take, `api/export/audio?format=${encodeURIComponent(format)}&bank=${encodeURIComponent(take.bank ?? state.bank.id)}` +
                   (bits ? `&bits=${encodeURIComponent(bits)}` : ""));

/** The song as the page plays it now — mutes, solos, instruments, volumes, tempo, transpose —
 *  as a take (one layer per channel, every message on the frame the worklet's player would
 *  send it on), for the server's exports. */
function songAsTake(song = state.song) {
  if (!song) throw new Error("load a MIDI file first (jam.loadMIDI)");
  const player = new MIDIFilePlayer(song.events, Math.round(song.duration * context.sampleRate));
  for (const c of song.muted) player.setMuted(c, true);
  for (const c of song.soloed) player.setSoloed(c, true);
  for (const channel of song.channels) {
    if (channel.override !== undefined) player.setProgram(channel.channel, channel.override);
    if (channel.volume !== undefined && channel.volume !== null) player.setVolume(channel.channel, channel.volume);
  }
  player.setRate(song.rate);
  player.setTranspose(song.transpose);
  const layers = new Map();
  const add = (frame, bytes) => {
    // SysEx split into packets is no complete message: the export leaves it out.
    if (bytes[0] === 0xF0 && bytes[bytes.length - 1] !== 0xF7) return;
    const channel = bytes[0] === 0xF0 ? -1 : bytes[0] & 0x0F;
    if (!layers.has(channel)) layers.set(channel, []);
    layers.get(channel).push([frame, ...bytes]);
  };
  for (const bytes of player.seek(0)) add(0, bytes);
  while (!player.ended) {
    const base = player.elapsed;
    player.play((bytes, offset) => add(base + offset, bytes), 128);
  }
  const name = (c) => c < 0 ? "SysEx" : `${c + 1} ${channelInstrumentName(song.channels.find((x) => x.channel === c) ?? { channel: c, program: 0, bank: 0, drums: c === 9 })}`;
  return { ...emptyTake(), tempo: 120, beatsPerBar: 4, tempoMap: songTempoMap(song),
           layers: [...layers.keys()].sort((a, b) => a - b).map((c) => ({ name: name(c), events: layers.get(c) })) };
}

/** The song's tempo changes on the frames it plays on at the page's tempo factor, and its
 *  meters: the export keeps its ticks, bars and beats (undefined for an SMPTE-timed file). */
function songTempoMap(song) {
  if (!song.ticksPerQuarterNote) return undefined;
  const perSecond = context.sampleRate / song.rate;
  const tempos = [{ frame: 0, tick: 0, microsecondsPerQuarterNote: 500000 / song.rate }];
  for (const t of song.tempos) {
    const tempo = { frame: Math.round(t.seconds * perSecond), tick: t.tick, microsecondsPerQuarterNote: t.microseconds / song.rate };
    if (t.tick === tempos[tempos.length - 1].tick) tempos[tempos.length - 1] = tempo; else tempos.push(tempo);
  }
  return { ticksPerQuarterNote: song.ticksPerQuarterNote, tempos,
           meters: song.signatures.filter((m) => m.numerator >= 1 && m.denominator <= 128)
             .map(({ tick, numerator, denominator }) => ({ tick, numerator, denominator })) };
}

/** The song as the page plays it (with the layers recorded over it), exported: `.mid`, `.wav`
 *  or `.flac` (16-bit, or `bits`). */
async function exportSong(format = "mid", bits = undefined) {
  const take = songAsTake();
  // The layers recorded over this song, on their frames from its start.
  if (state.take?.overSong === state.song.name) {
    take.layers.push(...state.take.layers.slice(0, Math.max(0, 16 - take.layers.length)));
  }
  if (format === "mid") return exportMIDI(take);
  return exportAudio(take, format, bits);
}

async function download(kind, song = false) {
  if (!song && !state.take?.layers.length) { say("Record a take first.", true); return; }
  try {
    say(`Exporting .${kind}…`);
    const bytes = song ? await exportSong(kind) : kind === "mid" ? await exportMIDI() : await exportAudio(state.take, kind);
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([bytes], { type: kind === "mid" ? "audio/midi" : `audio/${kind}` }));
    link.download = `${song ? state.song.name.replace(/\.[^.]*$/, "") : "take"}.${kind}`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    say(`Exported ${link.download} (${bytes.length.toLocaleString()} bytes).`);
  } catch (error) { say(`Export failed: ${error.message}`, true); }
}

/** `seconds` of what the engine plays from audio frame `fromFrame` (default: now; up to four
 *  seconds back): { left, right, sampleRate, from }. */
function captureOutput(seconds, fromFrame = undefined) {
  const id = ++captureId;
  return new Promise((resolve) => {
    captures.set(id, resolve);
    node.port.postMessage({ type: "capture", id, frames: Math.round(seconds * context.sampleRate), from: fromFrame });
  });
}

// MARK: Views

function say(text, error = false) {
  $("message").textContent = text;
  $("message").classList.toggle("error", error);
}

function renderFamilies() {
  const tabs = $("families"), select = $("family-select");
  tabs.replaceChildren(); select.replaceChildren();
  [...families.map(([name]) => name), "Drum kits"].forEach((name, i) => {
    const button = document.createElement("button");
    button.textContent = name;
    button.setAttribute("role", "tab");
    button.classList.toggle("selected", i === state.family);
    button.onclick = () => { state.family = i; renderFamilies(); renderPrograms(); };
    tabs.append(button);
    select.append(new Option(name, i, false, i === state.family));
  });
  select.value = state.family;
  select.onchange = () => { state.family = +select.value; renderFamilies(); renderPrograms(); };
}

function renderPrograms() {
  const list = $("programs");
  list.replaceChildren();
  const choices = state.family === 16
    ? state.presets.filter((p) => p.bank === 128).map((p) => ({ program: p.program, name: p.name, drums: true }))
    : families[state.family][1].map((name, i) => ({ program: 8 * state.family + i, name, drums: false }));
  for (const choice of choices) {
    const button = document.createElement("button");
    button.innerHTML = `<small>${choice.program + 1}</small>`;
    button.append(choice.name);
    button.title = choice.drums ? `Drum kit ${choice.program}` : `Program ${choice.program + 1}`;
    button.classList.toggle("selected", choice.drums === state.drums && choice.program === (state.drums ? state.kit : state.program));
    button.onclick = () => setInstrument(choice.program, { drums: choice.drums }).catch((e) => say(e.message, true));
    list.append(button);
  }
  if (!choices.length) list.textContent = "This bank has no drum kits.";
}

function renderPlayArea() {
  $("pads").hidden = !state.drums;
  $("keyboard").hidden = state.drums;
}

function octavesShown() { return innerWidth < 760 || innerHeight < 500 ? 2 : 3; }

function renderKeyboard() {
  const board = $("keyboard");
  board.replaceChildren();
  const first = baseKey(), count = 12 * octavesShown() + 1;
  const whites = [];
  for (let key = first; key < first + count; key++) if (![1, 3, 6, 8, 10].includes(key % 12)) whites.push(key);
  const width = 100 / whites.length;
  for (let key = first; key < first + count && key < 128; key++) {
    const black = [1, 3, 6, 8, 10].includes(key % 12);
    const el = document.createElement("div");
    el.className = "key" + (black ? " black" : "") + (state.down.has(key) ? " down" : "");
    el.dataset.key = key;
    const label = typedLabel[key - first];
    el.innerHTML = `${label ? `<span>${label}</span>` : ""}${key % 12 === 0 ? `<span class="note">C${key / 12 - 1}</span>` : ""}`;
    if (black) {
      const left = whites.indexOf(key - 1) + 1;
      el.style.left = `calc(${left * width}% - ${width * 0.32}%)`;
      el.style.width = `${width * 0.64}%`;
    }
    board.append(el);
  }
}

function renderPads() {
  const pads = $("pads");
  pads.replaceChildren();
  for (const [key, name] of drumKeys) {
    const pad = document.createElement("button");
    pad.dataset.key = key;
    pad.textContent = name;
    pads.append(pad);
  }
}

function highlight(key, on) {
  for (const el of document.querySelectorAll(`[data-key="${key}"]`)) el.classList.toggle("down", on);
}

function renderLayers() {
  const list = $("layers");
  list.replaceChildren();
  for (const [i, layer] of (state.take?.layers ?? []).entries()) {
    const item = document.createElement("li");
    const notes = layer.events.filter(([, s, , v]) => (s & 0xF0) === 0x90 && v > 0).length;
    item.textContent = `${i + 1}. ${layer.name} (${notes} notes)`;
    list.append(item);
  }
  if (state.recording) {
    const item = document.createElement("li");
    item.className = "live";
    item.textContent = `● ${state.recording.name}`;
    list.append(item);
  }
}

function drawScope() {
  const canvas = $("scope"), g = canvas.getContext("2d");
  const data = new Float32Array(analyser.fftSize);
  const frame = () => {
    analyser.getFloatTimeDomainData(data);
    let peak = 0;
    for (const x of data) peak = Math.max(peak, Math.abs(x));
    g.clearRect(0, 0, canvas.width, canvas.height);
    const db = peak > 0 ? 20 * Math.log10(peak) : -99;
    g.fillStyle = db > -1 ? "#ff4d5e" : "#3ecf8e";
    g.fillRect(0, canvas.height - 4, Math.max(0, (db + 60) / 60) * canvas.width, 4);
    g.strokeStyle = "#4fb3ff";
    g.beginPath();
    for (let i = 0; i < canvas.width; i++) {
      const y = (1 - data[Math.floor(i * data.length / canvas.width)] * 2) * (canvas.height - 6) / 2;
      i ? g.lineTo(i, y) : g.moveTo(i, y);
    }
    g.stroke();
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

// MARK: Input

function keyAt(x, y) {
  const el = document.elementFromPoint(x, y)?.closest("[data-key]");
  return el ? +el.dataset.key : null;
}

function bindPointers(area) {
  const held = new Map();  // pointerId → key
  area.addEventListener("pointerdown", (e) => {
    const key = keyAt(e.clientX, e.clientY);
    if (key === null) return;
    e.preventDefault();
    area.setPointerCapture?.(e.pointerId);
    held.set(e.pointerId, key);
    noteOn(key);
  });
  area.addEventListener("pointermove", (e) => {
    if (!held.has(e.pointerId) || area === $("pads")) return;
    const key = keyAt(e.clientX, e.clientY);
    if (key === null || key === held.get(e.pointerId)) return;
    noteOff(held.get(e.pointerId));
    held.set(e.pointerId, key);
    noteOn(key);
  });
  const up = (e) => { if (held.has(e.pointerId)) { noteOff(held.get(e.pointerId)); held.delete(e.pointerId); } };
  area.addEventListener("pointerup", up);
  area.addEventListener("pointercancel", up);
  area.addEventListener("contextmenu", (e) => e.preventDefault());
}

const typedDown = new Map();  // code → key
function bindComputerKeys() {
  addEventListener("keydown", (e) => {
    if (e.target.closest?.("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.repeat) { if (e.code in typedKeys || e.code === "Space") e.preventDefault(); return; }
    if (e.code in typedKeys) {
      e.preventDefault();
      const key = baseKey() + typedKeys[e.code];
      typedDown.set(e.code, key);
      noteOn(key);
    } else if (e.code === "KeyZ") setOctave(state.octave - 1);
    else if (e.code === "KeyX") setOctave(state.octave + 1);
    else if (e.code === "KeyC") setVelocity(state.velocity - 10);
    else if (e.code === "KeyV") setVelocity(state.velocity + 10);
    else if (e.code === "Space") { e.preventDefault(); sustain(true); }
  });
  addEventListener("keyup", (e) => {
    if (typedDown.has(e.code)) { noteOff(typedDown.get(e.code)); typedDown.delete(e.code); }
    else if (e.code === "Space") sustain(false);
  });
  addEventListener("blur", () => { for (const [code, key] of typedDown) noteOff(key); typedDown.clear(); });
}

/** Hardware keyboards: their notes with velocity, pedals, bend and wheels on the live channel. */
async function bindMIDI() {
  if (!navigator.requestMIDIAccess) { $("midi").textContent = "no Web MIDI here"; return; }
  try {
    const access = await navigator.requestMIDIAccess();
    const attach = () => {
      const names = [];
      for (const input of access.inputs.values()) {
        names.push(input.name);
        input.onmidimessage = (e) => fromMIDI(e.data);
      }
      $("midi").textContent = names.length ? `MIDI: ${names.join(", ")}` : "no MIDI input";
    };
    access.onstatechange = attach;
    attach();
  } catch { $("midi").textContent = "MIDI not allowed"; }
}

function fromMIDI(data) {
  const status = data[0];
  if (status >= 0xF0 || status < 0x80) return;
  const kind = status & 0xF0;
  if (kind === 0x90 && data[2] > 0) noteOn(data[1], data[2]);
  else if (kind === 0x80 || kind === 0x90) noteOff(data[1]);
  else if (kind === 0xC0) return;  // the page chooses instruments
  else send([kind | liveChannel(), ...Array.from(data).slice(1)], { record: true });
}

function bindControls() {
  $("bank").onchange = () => chooseBank($("bank").value).catch((e) => say(e.message, true));
  $("volume").oninput = (e) => setVolume(e.target.value);
  $("octave-down").onclick = () => setOctave(state.octave - 1);
  $("octave-up").onclick = () => setOctave(state.octave + 1);
  $("velocity").oninput = (e) => setVelocity(e.target.value);
  $("sustain").onclick = () => sustain(!state.sustain);
  for (const effect of ["reverb", "chorus"]) {
    $(effect).onclick = async () => {
      state[effect] = !state[effect];
      $(effect).classList.toggle("on", state[effect]);
      if (state.take) { state.take[effect] = state[effect]; save(); }
      await loadBanks(true);
    };
    $(`${effect}-level`).oninput = (e) => {
      state[`${effect}Level`] = +e.target.value;
      send([0xB0 | liveChannel(), effect === "reverb" ? 91 : 93, +e.target.value], { record: true });
    };
  }
  $("record").onclick = () => (state.recording ? stopRecording() : startRecording());
  $("play").onclick = () => play();
  $("stop").onclick = () => stop();
  $("undo").onclick = () => undoLayer();
  $("metronome").onclick = () => { state.metronome = !state.metronome; $("metronome").classList.toggle("on", state.metronome); };
  $("tempo").onchange = (e) => { state.tempo = Math.max(20, Math.min(400, +e.target.value || 120)); e.target.value = state.tempo; };
  $("export-mid").onclick = () => download("mid");
  $("export-wav").onclick = () => download("wav");
  $("export-flac").onclick = () => download("flac");
  addEventListener("pointerdown", resume, { capture: true });
  addEventListener("resize", () => renderKeyboard());
}

// MARK: Start

async function main() {
  renderFamilies();
  renderPads();
  setOctave(state.octave);
  renderPlayArea();
  bindControls();
  bindPointers($("keyboard"));
  bindPointers($("pads"));
  bindComputerKeys();
  bindSong();
  const listing = await (await fetch("api/banks")).json();
  state.banks = listing.banks;
  const remembered = localStorage.getItem(STORE + "-bank");
  for (const bank of state.banks) $("bank").append(new Option(`${bank.name}`, bank.id));
  const initial = state.banks.some((b) => b.id === remembered) ? remembered : listing.defaultBank;
  $("bank").value = initial;
  try { state.take = JSON.parse(localStorage.getItem(STORE) ?? "null"); } catch { state.take = null; }
  if (state.take) { state.tempo = state.take.tempo ?? 120; $("tempo").value = state.tempo; }
  await chooseBank(initial);
  await listSongs();
  await startAudio();
  drawScope();
  drawRoll();
  renderLayers();
  bindMIDI();
  say(`${instrumentName()} — play with the mouse, touch, the keys a–' (z/x octave, c/v velocity, Space sustain) or a MIDI keyboard.`);
  resolveReady();
}

const jam = {
  ready,
  get sampleRate() { return context?.sampleRate; },
  get take() { return state.take ? structuredClone(state.take) : null; },
  noteOn, noteOff, setInstrument, setOctave, setVelocity, sustain,
  startRecording, stopRecording, play, stop, undoLayer, exportMIDI, exportAudio, captureOutput,
  clearTake() { stop(); state.take = null; save(); renderLayers(); },
  /** Handles bytes as a Web MIDI input's message (what a hardware keyboard sends). */
  receiveMIDI: (bytes) => fromMIDI(Uint8Array.from(bytes)),
  loadMIDI, playFile, pauseFile, stopFile, seekFile, muteChannel, soloChannel, setChannelInstrument,
  setFileTempo, transposeFile, loopFile, setChannelVolume, exportSong,
  /** Each channel's level (16 values, dBFS, -Infinity when silent): a peak meter falling 20 dB a
   *  second, as the worklet measured it up to a thirtieth of a second ago. */
  channelLevels: () => Array.from(channelLevels),
  /** The loaded song's summary, or null. */
  get song() { return state.song ? songSummary(state.song) : null; },
  lastPlayback: null,
  /** How long the audio thread spent (over several quanta) taking over the synthesizer for the presets at the last change, ms. */
  lastBankLoadMs: null,
  /** How long the Worker took to read and merge the presets at the last change, ms. */
  lastBankBuildMs: null,
  /** How many times the audio thread read and merged banks itself (none: a Worker does it). */
  audioThreadMerges: null,
  /** The worklet's last report: voices, load (share of the quantum, smoothed), and the time it
   *  spent in process() since it started (busyMs) for the frames it made (busyFrames). */
  worklet: null,
  /** The longest one audio quantum spent copying a synthesizer the Worker built, ms. */
  longestCopyMs: null,
};
window.jam = jam;
main().catch((error) => { say(`Could not start: ${error.message}`, true); console.error(error); });
