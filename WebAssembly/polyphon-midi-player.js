// A MIDI file's events played on the audio clock, inside an AudioWorklet: each event is handed to
// the synthesizer at its frame within the quantum it falls in, as `polyphon render` hands it to the
// native synthesizer. The song's position is a frame count that advances with every quantum while
// playing, so the song stays locked to the audio clock whatever the main thread does.
//
//   const player = new MIDIFilePlayer(events, endFrame);  // [[frame, ...bytes], …] in the order to send
//   player.play(send, blockFrames);                 // each quantum: send(bytes, offset) per event
//
// Seeking chases what the song set before the new position — SysEx in order, then per channel
// the last value of every controller (channel mode messages excepted), program, pitch bend and
// pressures, in the order of their last occurrence (an RPN selection still precedes its data
// entry) — as the native MIDIPlayer does. Mute and solo act per channel (0–15): an inaudible
// channel's notes do not start, everything else it carries still reaches the synthesizer, so
// unmuting finds it as the song left it. A channel given an instrument or a volume of its own
// ignores the song's program changes or volume (CC7). `rate` plays the song faster or slower (an event's frame from the
// last change of rate or position is divided by it, rounded as the native renderer rounds a
// time to a frame); `transpose` moves every note but the drum channel's (10) by semitones.
// `loop` ({start, end} song frames) plays the section again and again: at its end the sounding
// notes are released and the song's state at its start chased, without a reset, so effect
// tails ring on across the jump.

/** Status nibbles the player acts on. */
const NOTE_ON = 0x90, NOTE_OFF = 0x80, CONTROL = 0xB0, PROGRAM = 0xC0;

export class MIDIFilePlayer {
  /**
   * @param {Array<Array<number>>} events `[frame, ...bytes]`, frames at the audio rate from the song's start, in order.
   * @param {number} endFrame the song's end (its last event, end of track included).
   */
  constructor(events, endFrame = 0) {
    this.events = events;
    this.lastFrame = Math.max(endFrame, events.length ? events[events.length - 1][0] : 0);
    this.position = 0;  // the song's frame, fractional when the rate is not 1
    this.next = 0;
    this.rate = 1;
    this.transpose = 0;
    this.elapsed = 0;  // output frames played
    this.anchor = { song: 0, audio: 0 };  // a song frame and the output frame it played on
    this.loop = null;
    this.muted = new Set();
    this.soloed = new Set();
    /** Per channel: the program the listener chose instead of the song's, or null. */
    this.programs = new Array(16).fill(null);
    /** Per channel: the volume (CC7) the listener chose instead of the song's, or null. */
    this.volumes = new Array(16).fill(null);
    /** Per channel: key → note-ons not yet ended, so that a mute or a pause can end them. */
    this.sounding = Array.from({ length: 16 }, () => new Map());
  }

  /** Whether `channel`'s notes sound: not muted, and soloed when any channel is. */
  audible(channel) {
    return !this.muted.has(channel) && (this.soloed.size === 0 || this.soloed.has(channel));
  }

  get ended() { return this.next >= this.events.length && this.position > this.lastFrame; }

  /** Moves to song frame `frame`; returns the messages that bring a reset synthesizer to the
   *  song's state there, the listener's instruments included. */
  seek(frame) {
    this.position = Math.max(0, Math.round(frame));
    this.anchor = { song: this.position, audio: this.elapsed };
    let low = 0, high = this.events.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.events[middle][0] < this.position) low = middle + 1; else high = middle;
    }
    this.next = low;
    for (const keys of this.sounding) keys.clear();
    return this.chase(this.next).concat(this.programs.flatMap((p, c) => p === null ? [] : [[PROGRAM | c, p]]),
                                        this.volumes.flatMap((v, c) => v === null ? [] : [[CONTROL | c, 7, v]]));
  }

  /** What the events before index `end` leave a synthesizer with. */
  chase(end) {
    const sysex = [], latest = new Map();
    for (let i = 0; i < end; i++) {
      const [, status, data1] = this.events[i];
      const bytes = this.events[i].slice(1);
      if (status === 0xF0) { sysex.push(bytes); continue; }
      const kind = status & 0xF0, channel = status & 0x0F;
      let key;
      switch (kind) {
        case CONTROL: if (data1 >= 120) continue; key = `${channel}:${kind}:${data1}`; break;
        case 0xA0: key = `${channel}:${kind}:${data1}`; break;
        case PROGRAM: case 0xD0: case 0xE0: key = `${channel}:${kind}`; break;
        default: continue;
      }
      latest.delete(key);  // re-inserted last: a Map keeps insertion order
      latest.set(key, bytes);
    }
    return [...sysex, ...latest.values()];
  }

  /** Sends the events of the next `frames` frames through `send(bytes, offset)` and advances. */
  play(send, frames) {
    let done = 0;
    while (done < frames) {
      let span = frames - done;
      const loop = this.loop;
      if (loop && this.position < loop.end) {
        const toEnd = this.anchor.audio + Math.ceil((loop.end - this.anchor.song) / this.rate) - this.elapsed;
        span = Math.max(1, Math.min(span, toEnd));
      }
      this.playSpan((bytes, offset) => send(bytes, offset + done), span);
      done += span;
      if (loop && this.position >= loop.end && done <= frames) {
        const jump = [...this.release(), ...this.seek(loop.start)];
        for (const bytes of jump) send(bytes, Math.min(done, frames - 1));
      }
    }
  }

  /** Loops the song between song frames `start` and `end` (null: no loop). */
  setLoop(start, end) {
    this.loop = start !== null && end > start ? { start: Math.max(0, Math.round(start)), end: Math.round(end) } : null;
  }

  playSpan(send, frames) {
    const end = this.elapsed + frames, { song, audio } = this.anchor;
    while (this.next < this.events.length) {
      const event = this.events[this.next];
      const at = audio + Math.round((event[0] - song) / this.rate);
      if (at >= end) break;
      this.next++;
      const bytes = event.slice(1);
      const offset = Math.max(0, at - this.elapsed);
      const kind = bytes[0] & 0xF0, channel = bytes[0] & 0x0F;
      if (kind === PROGRAM && this.programs[channel] !== null) continue;
      if (kind === CONTROL && bytes[1] === 7 && this.volumes[channel] !== null) continue;
      if (this.transpose && channel !== 9 && (kind === NOTE_ON || kind === NOTE_OFF || kind === 0xA0)) {
        bytes[1] += this.transpose;
        if (bytes[1] < 0 || bytes[1] > 127) continue;
      }
      if (kind === NOTE_ON && bytes[2] > 0) {
        if (!this.audible(channel)) continue;
        const keys = this.sounding[channel];
        keys.set(bytes[1], (keys.get(bytes[1]) ?? 0) + 1);
      } else if (kind === NOTE_OFF || kind === NOTE_ON) {
        const keys = this.sounding[channel], count = keys.get(bytes[1]) ?? 0;
        if (count > 1) keys.set(bytes[1], count - 1); else keys.delete(bytes[1]);
      }
      send(bytes, offset);
    }
    this.elapsed = end;
    this.position = song + (end - audio) * this.rate;
  }

  /** Plays on at `rate` times the song's tempo (0.25–4). */
  setRate(rate) {
    this.anchor = { song: this.position, audio: this.elapsed };
    this.rate = Math.max(0.25, Math.min(4, rate));
  }

  /** Moves the notes of every channel but 10 by `semitones` (−24…24); returns the note-offs of
   *  the notes sounding, which would otherwise end on other keys. */
  setTranspose(semitones) {
    this.transpose = Math.max(-24, Math.min(24, Math.round(semitones)));
    const out = [];
    for (let c = 0; c < 16; c++) if (c !== 9) out.push(...this.release(c));
    return out;
  }

  /** Note-offs for the notes of `channel` (every channel when null) still sounding. */
  release(channel = null) {
    const out = [];
    for (let c = 0; c < 16; c++) {
      if (channel !== null && c !== channel) continue;
      for (const key of this.sounding[c].keys()) out.push([NOTE_OFF | c, key, 0]);
      this.sounding[c].clear();
    }
    return out;
  }

  /** Mutes or unmutes `channel`; returns the messages that end its sounding notes. */
  setMuted(channel, on) {
    if (on) this.muted.add(channel); else this.muted.delete(channel);
    return this.silenceInaudible();
  }

  /** Solos or unsolos `channel`; returns the messages that end the notes no longer audible. */
  setSoloed(channel, on) {
    if (on) this.soloed.add(channel); else this.soloed.delete(channel);
    return this.silenceInaudible();
  }

  silenceInaudible() {
    const out = [];
    for (let c = 0; c < 16; c++) if (!this.audible(c)) out.push(...this.release(c));
    return out;
  }

  /** Gives `channel` the listener's volume (CC7 value; null: the song's again); returns what to send now. */
  setVolume(channel, volume) {
    this.volumes[channel] = volume;
    if (volume !== null) return [[CONTROL | channel, 7, volume]];
    for (let i = this.next - 1; i >= 0; i--) {
      const [, status, controller, value] = this.events[i];
      if (status === (CONTROL | channel) && controller === 7) return [[status, 7, value]];
    }
    return [[CONTROL | channel, 7, 100]];
  }

  /** Gives `channel` the listener's `program` (null: the song's again); returns what to send now. */
  setProgram(channel, program) {
    this.programs[channel] = program;
    if (program !== null) return [[PROGRAM | channel, program]];
    // The song's program at the current position.
    for (let i = this.next - 1; i >= 0; i--) {
      const [, status, value] = this.events[i];
      if (status === (PROGRAM | channel)) return [[status, value]];
    }
    return [[PROGRAM | channel, 0]];
  }
}
