#!/usr/bin/env python3
"""SFZ envelopes, delays, offsets, voice limits and pedals rendered by Polyphon and by sfizz_render.

    Benchmarks/sfz-env-vs-sfizz.py SFIZZ_RENDER [POLYPHON] [WORKDIR]

SFIZZ_RENDER is sfizz's `sfizz_render`, built from sfizz's sources outside the repository;
POLYPHON defaults to .build/debug/polyphon. Writes into WORKDIR (default a new temporary folder)
sines (1 kHz for the envelopes; 300–700 Hz, one per region, so the pitch tells which region
played, for the voice limits and pedals), two instruments (each with a region over keys 100–127
that never plays, so Polyphon does not take it for a drum kit) and a MIDI file for each, one event
group per one-second slot; renders both at 44.1 kHz and prints two tables:

- envelopes (`ampeg_start`, `ampeg_vel2*`, `ampeg_*_onccN`, `delay`, `delay_onccN`,
  `offset_onccN`): per slot the onset, the time the level first comes within 0.5 dB of a plain
  note's, the level 0.45 s into the note against the plain note's and the release's fall to
  −20 dB after note-off, in ms and dB (envelope: peak of 1 ms windows; each renderer against
  its own plain note, so their output scalings cancel);
- voices (`polyphony` per group and per header, `note_polyphony`/`note_selfmask`, release
  regions of a voice `off_by` cuts, `sustain_cc`, `sustain_lo`, `sustain_sw`): which regions
  sound 0.3–0.45 s into the slot, told by their pitch.

Needs python3 with numpy.
"""
import math, os, struct, subprocess, types
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
base = types.ModuleType('sfz_vs_sfizz')
base.__file__ = os.path.join(here, 'sfz-vs-sfizz.py')
source = open(os.path.join(here, 'sfz-vs-sfizz.py')).read().replace('\nmain()\n', '\n')
exec(compile(source, 'sfz-vs-sfizz.py', 'exec'), base.__dict__)
from sfizz_rendering import comparison_arguments, render_both
RATE, write_wav, read_wav = base.RATE, base.write_wav, base.read_wav

SINES = {'a': 300, 'b': 400, 'c': 500, 'd': 600, 'e': 700}

ENVELOPES = """<control> hint_ram_based=1
<curve> curve_index=7 v000=0 v127=0.5
<global> sample=k.wav pitch_keytrack=0 ampeg_release=0.05
<region> key=60 ampeg_attack=0.2 ampeg_start=50
<region> key=62 ampeg_vel2attack=0.2
<region> key=64 ampeg_attack_oncc1=0.2
<region> key=65 ampeg_decay=0.2 ampeg_sustain=0 ampeg_sustain_oncc1=50
<region> key=67 ampeg_decay=0.1 ampeg_sustain=20 ampeg_vel2sustain=30
<region> key=69 ampeg_release=0.1 ampeg_vel2release=0.4
<region> key=71 ampeg_hold_oncc1=0.2 ampeg_decay=0.1 ampeg_sustain=10
<region> key=72 delay=0.1 delay_oncc1=0.1
<region> key=74 sample=gap.wav offset_oncc1=22050
<region> key=76 ampeg_delay=0.1 ampeg_start=30 ampeg_attack=0.1
<region> key=78 ampeg_attack_oncc1=0.2 ampeg_attack_curvecc1=7
<region> lokey=100 hikey=127
"""

# (label, key, velocity, held seconds)
ENVELOPE_SLOTS = [('ampeg_start=50, attack 0.2 s', 60, 127, 0.6), ('ampeg_vel2attack=0.2, velocity 127', 62, 127, 0.6),
                  ('ampeg_vel2attack=0.2, velocity 64', 62, 64, 0.6), ('ampeg_attack_oncc1=0.2, CC1 127', 64, 127, 0.6),
                  ('ampeg_sustain_oncc1=50, CC1 127', 65, 127, 0.6), ('ampeg_vel2sustain=30 (+20)', 67, 127, 0.6),
                  ('ampeg_vel2release=0.4 (+0.1)', 69, 127, 0.3), ('ampeg_hold_oncc1=0.2', 71, 127, 0.6),
                  ('delay=0.1 delay_oncc1=0.1', 72, 127, 0.6), ('offset_oncc1=22050 (0.5 s gap)', 74, 127, 0.6),
                  ('ampeg_delay=0.1 ampeg_start=30', 76, 127, 0.6),
                  ('ampeg_attack_oncc1=0.2 ampeg_attack_curvecc1=7 (a <curve> 0…0.5), CC1 127', 78, 127, 0.6),
                  ('plain note (the level reference)', 100, 127, 0.6)]

VOICES = """<control> hint_ram_based=1
<global> pitch_keytrack=0 ampeg_release=0.3
<group> group=1 polyphony=2
<region> sample=a.wav key=48
<region> sample=b.wav key=49
<region> sample=c.wav key=50
<group> polyphony=2
<region> sample=a.wav key=52
<region> sample=b.wav key=53
<region> sample=c.wav key=54
<group> note_polyphony=1
<region> sample=a.wav key=60 hivel=63
<region> sample=b.wav key=60 lovel=64
<group> note_polyphony=1 note_selfmask=off
<region> sample=a.wav key=62 hivel=63
<region> sample=b.wav key=62 lovel=64
<group>
<region> sample=c.wav key=46 group=2 off_by=1
<region> sample=short.wav key=46 trigger=release
<region> sample=e.wav key=42 group=1
<region> sample=a.wav key=70 sustain_cc=67
<region> sample=b.wav key=72 sustain_lo=100
<region> sample=c.wav key=74
<region> sample=d.wav key=76 sustain_sw=off
<region> sample=e.wav lokey=100 hikey=127
"""

def voice_events():
    e = []
    def on(t, key, velocity=127): e.append((t, bytes([0x90, key, velocity])))
    def off(t, key): e.append((t, bytes([0x80, key, 0])))
    def cc(t, n, v): e.append((t, bytes([0xB0, n, v])))
    for k, t in zip((48, 49, 50), (0, 0.1, 0.2)): on(t, k); off(t + 0.5, k)       # slot 0: group polyphony 2
    for k, t in zip((52, 53, 54), (1, 1.1, 1.2)): on(t, k); off(t + 0.5, k)       # slot 1: <group> polyphony 2
    on(2, 60, 100); on(2.1, 60, 50); off(2.6, 60)                                  # slot 2: softer note, selfmask
    on(3, 62, 100); on(3.1, 62, 50); off(3.6, 62)                                  # slot 3: selfmask off
    on(4, 46); on(4.2, 42); off(4.6, 46); off(4.6, 42)                             # slot 4: off_by cut plays release
    cc(5, 67, 127); on(5, 70); off(5.1, 70); cc(5.9, 67, 0)                        # slot 5: sustain_cc=67 holds
    cc(6, 64, 80); on(6, 72); off(6.1, 72); cc(6.9, 64, 0)                         # slot 6: sustain_lo=100: CC64 80 does not
    cc(7, 64, 30); on(7, 74); off(7.1, 74); cc(7.9, 64, 0)                         # slot 7: default: CC64 30 holds
    cc(8, 64, 127); on(8, 76); off(8.1, 76); cc(8.9, 64, 0)                        # slot 8: sustain_sw=off
    return e

VOICE_SLOTS = ['group=1 polyphony=2: keys 48, 49, 50', '<group> polyphony=2: keys 52, 53, 54',
               'note_polyphony=1: velocity 100 then 50', 'note_polyphony=1 note_selfmask=off',
               'off_by cut: release region of the cut key', 'sustain_cc=67 (CC67 down)', 'sustain_lo=100 (CC64 80)',
               'default pedal (CC64 30)', 'sustain_sw=off (CC64 127)']

def envelope_events():
    e = [(0, bytes([0xB0, 1, 127]))]
    for slot, (_, key, velocity, held) in enumerate(ENVELOPE_SLOTS):
        e.append((slot + 0.05, bytes([0x90, key, velocity]))); e.append((slot + 0.05 + held, bytes([0x80, key, 0])))
    return e

def write_midi(path, events):
    def vlq(n):
        out = [n & 0x7F]; n >>= 7
        while n: out.insert(0, (n & 0x7F) | 0x80); n >>= 7
        return bytes(out)
    track, last = vlq(0) + b'\xff\x51\x03' + struct.pack('>I', 500000)[1:], 0
    for t, data in sorted(events, key=lambda x: x[0]):   # 960 ticks per second at 120 bpm
        tick = int(round(t * 960)); track += vlq(tick - last) + data; last = tick
    track += vlq(960) + b'\xff\x2f\x00'
    open(path, 'wb').write(b'MThd' + struct.pack('>IHHH', 6, 0, 1, 480) + b'MTrk' + struct.pack('>I', len(track)) + track)

def render(sfizz, polyphon, work, name, events):
    write_midi(f'{work}/{name}.mid', events)
    render_both(sfizz, polyphon, f'{work}/{name}.sfz', f'{work}/{name}.mid', f'{work}/{name}-sfizz.wav', f'{work}/{name}-polyphon.wav', RATE, polyphon_rate=False)
    return read_wav(f'{work}/{name}-sfizz.wav')[:, 0], read_wav(f'{work}/{name}-polyphon.wav')[:, 0]

def envelope(x, start, seconds=0.95):
    """Peak of each 1 ms window from `start`, in dB."""
    w = RATE // 1000
    seg = x[int(start * RATE):int((start + seconds) * RATE)]
    n = len(seg) // w
    return 20 * np.log10(np.abs(seg[:n * w]).reshape(n, w).max(axis=1) + 1e-12)

def envelope_figures(x, slot, held, reference):
    env = envelope(x, slot + 0.05)
    rel = env - reference
    onset = next((i for i, v in enumerate(rel) if v > -40), None)
    full = next((i for i, v in enumerate(rel) if v > -0.5), None)
    at = rel[450] if len(rel) > 450 else float('nan')
    off = int(held * 1000)
    release = next((i - off for i in range(off, len(env)) if env[i] < env[off - 2] - 20), None)
    return onset, full, at, release

def which(x):
    """The sines sounding in `x` (within 20 dB of the loudest), by a windowed DFT."""
    n = len(x); t = np.arange(n) / RATE; w = np.hanning(n)
    amps = {k: abs(np.sum(x * w * np.exp(-2j * np.pi * f * t))) for k, f in SINES.items()}
    loud = max(amps.values())
    if 20 * math.log10(loud / n + 1e-30) < -80: return '-'
    return ''.join(k for k in sorted(amps) if amps[k] > loud / 10)

def main():
    sfizz, polyphon, work = comparison_arguments('sfz-env-vs-sfizz')
    for name, f in SINES.items():
        write_wav(f'{work}/{name}.wav', [math.sin(2 * math.pi * f * i / RATE) for i in range(2 * RATE)])
    write_wav(f'{work}/k.wav', [math.sin(2 * math.pi * 1000 * i / RATE) for i in range(2 * RATE)])
    write_wav(f'{work}/short.wav', [math.sin(2 * math.pi * SINES['d'] * i / RATE) for i in range(RATE // 2)])
    write_wav(f'{work}/gap.wav', [0.0] * (RATE // 2) + [math.sin(2 * math.pi * 1000 * i / RATE) for i in range(RATE)])
    open(f'{work}/env.sfz', 'w').write(ENVELOPES)
    open(f'{work}/voices.sfz', 'w').write(VOICES)

    a, b = render(sfizz, polyphon, work, 'env', envelope_events())
    print('| slot | onset ms (sfizz / Polyphon) | within 0.5 dB of full at ms | level at 450 ms, dB | release to −20 dB, ms |')
    print('|---|---|---|---|---|')
    def fmt(x, y, digits=0):
        f = lambda v: '–' if v is None or (isinstance(v, float) and math.isnan(v)) else f'{v:.{digits}f}'
        return f'{f(x)} / {f(y)}'
    last = len(ENVELOPE_SLOTS) - 1
    ra, rb = envelope(a, last + 0.05)[450], envelope(b, last + 0.05)[450]
    for slot, (label, _, _, held) in enumerate(ENVELOPE_SLOTS[:-1]):
        fa, fb = envelope_figures(a, slot, held, ra), envelope_figures(b, slot, held, rb)
        release = fmt(fa[3], fb[3]) if held < 0.5 else '–'
        print(f'| {label} | {fmt(fa[0], fb[0])} | {fmt(fa[1], fb[1])} | {fmt(fa[2], fb[2], 2)} | {release} |')

    a, b = render(sfizz, polyphon, work, 'voices', voice_events())
    print('\n| slot | sfizz | Polyphon |\n|---|---|---|')
    for slot, label in enumerate(VOICE_SLOTS):
        wa, wb = a[int((slot + 0.3) * RATE):int((slot + 0.45) * RATE)], b[int((slot + 0.3) * RATE):int((slot + 0.45) * RATE)]
        print(f'| {label} | {which(wa)} | {which(wb)} |')

main()
