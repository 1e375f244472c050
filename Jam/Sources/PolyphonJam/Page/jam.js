// The jam page: a keyboard (mouse, touch, computer keys, Web MIDI) playing Polyphon's engine in
// an AudioWorklet, 128 General MIDI instruments and the bank's drum kits, takes recorded in
// layers with exact frames, played back, kept in the browser and exported through the server.
// `window.jam` scripts all of it (see the README).
import { families, programName, drumKeys } from "./gm.js";

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
  down: new Map(),  // sounding key → how many sources hold it (pointer, computer key, MIDI)
};
let context, node, analyser, volume, ready, resolveReady, captureId = 0;
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
  const module = await WebAssembly.compile(await (await fetch("polyphon.wasm")).arrayBuffer());
  node.port.postMessage({ type: "init", module, reverb: state.reverb, chorus: state.chorus });
  await loadBanks(true);
  sendSetup(liveChannel(), false);
  resume();
}
/** Resolves the wait for the worklet's next "ready" (its new synthesizer plays). */
let firstReady = null;

function received(message) {
  switch (message.type) {
    case "ready":
      jam.lastBankLoadMs = message.loadMs;
      if (firstReady) { firstReady(); firstReady = null; }
      break;
    case "status":
      $("voices").textContent = `${message.voices} voices`;
      $("load").textContent = `load ${(100 * message.load).toFixed(1)} %`;
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
  state.playing = new Set(wanted);
  const done = new Promise((resolve) => { firstReady = resolve; });
  // Copies handed over, not cloned: the audio thread does not copy megabytes again.
  const copies = list.map((b) => b.slice(0));
  node.port.postMessage({ type: "soundFonts", list: copies, reverb: state.reverb, chorus: state.chorus }, copies);
  await done;
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

/** Starts a layer: the take so far plays while the new layer records, both from frame 0. */
async function startRecording() {
  if (state.recording) return;
  stop();
  state.take ??= emptyTake();
  await loadBanks();
  const start = context.currentTime + 0.15;
  const channel = liveChannel();
  const origin = Math.round(start * context.sampleRate);
  scheduleTake(state.take, start, true);
  node.port.postMessage({ type: "log", on: true });
  state.recording = { channel, origin, start, name: instrumentName(), program: state.drums ? state.kit : state.program, drums: state.drums };
  sendSetup(channel, true, start);
  startMetronome(start);
  $("record").classList.add("on");
  renderLayers();
}

/** Ends the layer and adds it to the take; returns the take. */
async function stopRecording() {
  const recording = state.recording;
  if (!recording) return state.take;
  for (const key of [...state.down.keys()]) { state.down.set(key, 1); noteOff(key); }
  if (state.sustain) sustain(false);
  const events = await new Promise((resolve) => { logWaiter = resolve; node.port.postMessage({ type: "log", on: false }); });
  state.recording = null;
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

/** Sends every event of `take` to play from `start` (seconds on the audio clock). */
function scheduleTake(take, start, keepLive = false) {
  // A fresh synthesizer: the take sounds exactly as the server's render of it, effect tails and all.
  node.port.postMessage({ type: "reset", fresh: true });
  if (keepLive) sendSetup(liveChannel(), false);
  // In time order (stable: a layer's messages on one frame keep theirs), so the worklet appends
  // each to its queue instead of searching back through the other layers' events.
  const events = take.layers.flatMap((layer) => layer.events).map((e, i) => [e, i])
    .sort((a, b) => a[0][0] - b[0][0] || a[1] - b[1]).map(([e]) => e);
  for (const [frame, ...bytes] of events) send(bytes, { time: start + frame / take.sampleRate });
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
  const start = context.currentTime + 0.15;
  const last = scheduleTake(take, start);
  const startFrame = Math.round(start * context.sampleRate);
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

// MARK: Export

async function exportTake(take, path) {
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(take) });
  if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error?.message ?? `HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}
const exportMIDI = (take = state.take) => exportTake(take, "api/export/midi");
const exportAudio = (take = state.take, format = "wav") =>
  exportTake(take, `api/export/audio?format=${encodeURIComponent(format)}&bank=${encodeURIComponent(take.bank ?? state.bank.id)}`);

async function download(kind) {
  if (!state.take?.layers.length) { say("Record a take first.", true); return; }
  try {
    say(`Exporting .${kind}…`);
    const bytes = kind === "mid" ? await exportMIDI() : await exportAudio(state.take, kind);
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([bytes], { type: kind === "mid" ? "audio/midi" : `audio/${kind}` }));
    link.download = `take.${kind}`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    say(`Exported take.${kind} (${bytes.length.toLocaleString()} bytes).`);
  } catch (error) { say(`Export failed: ${error.message}`, true); }
}

/** The next `seconds` of what the engine plays (from audio frame `fromFrame`, if given and not
 *  past): { left, right, sampleRate, from }. */
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
  const listing = await (await fetch("api/banks")).json();
  state.banks = listing.banks;
  const remembered = localStorage.getItem(STORE + "-bank");
  for (const bank of state.banks) $("bank").append(new Option(`${bank.name}`, bank.id));
  const initial = state.banks.some((b) => b.id === remembered) ? remembered : listing.defaultBank;
  $("bank").value = initial;
  try { state.take = JSON.parse(localStorage.getItem(STORE) ?? "null"); } catch { state.take = null; }
  if (state.take) { state.tempo = state.take.tempo ?? 120; $("tempo").value = state.tempo; }
  await chooseBank(initial);
  await startAudio();
  drawScope();
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
  lastPlayback: null,
  /** How long the audio thread took to read and merge the presets at the last change, ms. */
  lastBankLoadMs: null,
};
window.jam = jam;
main().catch((error) => { say(`Could not start: ${error.message}`, true); console.error(error); });
