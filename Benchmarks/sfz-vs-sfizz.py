#!/usr/bin/env python3
"""SFZ instruments rendered by Polyphon and by sfizz_render, compared note by note.

    Benchmarks/sfz-vs-sfizz.py SFIZZ_RENDER [POLYPHON] [WORKDIR]

SFIZZ_RENDER is sfizz's `sfizz_render`, built from sfizz's sources outside the repository;
POLYPHON defaults to .build/debug/polyphon. Writes into WORKDIR (default a new temporary folder)
two instruments on sines built here (a 2 s C4 sine; ten whole cycles of 441 Hz with a `smpl`
loop), a MIDI file of six notes one second apart (held 0.8 s: keys 60, 67, 60 at velocity 64,
74, 72, 55 at velocity 100), renders both instruments with both programs at 44.1 kHz, and
prints for every note the pitch (zero crossings, 0.3–0.7 s into the note) and level (RMS)
difference, envelope points, pan and release. sfizz plays samples whole only with
`<control> hint_ram_based=1`, which the instruments carry. Needs python3 with numpy.
"""
import math, os, struct, subprocess, sys
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sfizz_rendering import comparison_arguments, render_both
from wav_reading import read_wav

RATE = 44100

def write_wav(path, points, smpl_loop=None):
    data = b''.join(struct.pack('<h', int(round(0.5 * 32767 * p))) for p in points)
    fmt = struct.pack('<HHIIHH', 1, 1, RATE, RATE * 2, 2, 16)
    body = b'WAVE' + b'fmt ' + struct.pack('<I', len(fmt)) + fmt + b'data' + struct.pack('<I', len(data)) + data
    if smpl_loop:
        smpl = struct.pack('<9I', 0, 0, int(1e9 / RATE), 60, 0, 0, 0, 1, 0) + struct.pack('<6I', 0, 0, smpl_loop[0], smpl_loop[1], 0, 0)
        body += b'smpl' + struct.pack('<I', len(smpl)) + smpl
    open(path, 'wb').write(b'RIFF' + struct.pack('<I', len(body)) + body)

NOTES = [(60, 127), (67, 127), (60, 64), (74, 127), (72, 127), (55, 100)]

def write_midi(path):
    def vlq(n):
        out = [n & 0x7F]; n >>= 7
        while n: out.insert(0, (n & 0x7F) | 0x80); n >>= 7
        return bytes(out)
    events, last = vlq(0) + b'\xff\x51\x03' + struct.pack('>I', 500000)[1:], 0
    for i, (key, velocity) in enumerate(NOTES):  # 960 ticks = 1 s at 120 bpm, 480 per beat
        on, off = i * 960, i * 960 + 768
        events += vlq(on - last) + bytes([0x90, key, velocity]); last = on
        events += vlq(off - last) + bytes([0x80, key, 0]); last = off
    events += vlq(960) + b'\xff\x2f\x00'
    open(path, 'wb').write(b'MThd' + struct.pack('>IHHH', 6, 0, 1, 480) + b'MTrk' + struct.pack('>I', len(events)) + events)

INSTRUMENTS = {
    'levels.sfz': """<control> hint_ram_based=1
<region> sample=c4.wav pitch_keycenter=60 hikey=71 ampeg_release=0.05
<region> sample=c4.wav pitch_keycenter=60 key=72 ampeg_attack=0.2 ampeg_decay=0.3 ampeg_sustain=25 ampeg_release=0.05
<region> sample=c4.wav pitch_keycenter=60 lokey=73 volume=-6 tune=30 transpose=-12 ampeg_release=0.05
""",
    'loops.sfz': """<control> hint_ram_based=1
<region> sample=loop.wav hikey=65 ampeg_release=0.5 pan=60
<region> sample=loop.wav lokey=66 ampeg_release=0.5 pan=-30 amplitude=40 pitch_keytrack=50
""",
}

def hertz(x):
    s = np.where((x[:-1] < 0) & (x[1:] >= 0))[0]; t = s + (-x[s] / (x[s + 1] - x[s]))
    return (len(t) - 1) / (t[-1] - t[0]) * RATE

def db(x): return 20 * np.log10(np.sqrt(np.mean(x ** 2)) + 1e-30)

def window(x, start, length): return x[int(start * RATE):int((start + length) * RATE)]

def main():
    sfizz, polyphon, work = comparison_arguments('sfz-vs-sfizz')
    write_wav(f'{work}/c4.wav', [math.sin(2 * math.pi * 261.6255653 * i / RATE) for i in range(2 * RATE)])
    write_wav(f'{work}/loop.wav', [math.sin(2 * math.pi * 441 * i / RATE) for i in range(1000)], smpl_loop=(0, 999))
    write_midi(f'{work}/notes.mid')
    for name, text in INSTRUMENTS.items():
        open(f'{work}/{name}', 'w').write(text)
        base = name[:-4]
        render_both(sfizz, polyphon, f'{work}/{name}', f'{work}/notes.mid', f'{work}/{base}-sfizz.wav', f'{work}/{base}-polyphon.wav', RATE, polyphon_rate=False)
        a, b = read_wav(f'{work}/{base}-sfizz.wav'), read_wav(f'{work}/{base}-polyphon.wav')
        print(f'## {name} (Polyphon − sfizz)\n\n| note | key | velocity | sfizz Hz | cents | dB left | dB right |\n|---|---|---|---|---|---|---|')
        offsets = []
        for i, (key, velocity) in enumerate(NOTES):
            wa, wb = window(a, i + 0.3, 0.4), window(b, i + 0.3, 0.4)
            if db(wa[:, 0]) < -80: continue
            cents = 1200 * math.log2(hertz(wb[:, 0]) / hertz(wa[:, 0]))
            left, right = db(wb[:, 0]) - db(wa[:, 0]), db(wb[:, 1]) - db(wa[:, 1])
            offsets += [left, right]
            print(f'| {i + 1} | {key} | {velocity} | {hertz(wa[:, 0]):.3f} | {cents:+.3f} | {left:+.2f} | {right:+.2f} |')
        print(f'\nlevel offset: mean {np.mean(offsets):+.2f} dB, spread {np.max(offsets) - np.min(offsets):.2f} dB')
        # Envelope of note 5 (key 72: attack 0.2, decay 0.3, sustain 25 %) and release of note 1.
        points = [(4 + t, f'note 5 at {int(t * 1000)} ms') for t in (0.05, 0.1, 0.15, 0.25, 0.35, 0.7)]
        points += [(0.8 + t, f'note 1, {int(t * 1000)} ms after note-off') for t in (0.1, 0.15)]
        for start, label in points:
            la, lb = db(window(a, start, 0.005)[:, 1]), db(window(b, start, 0.005)[:, 1])
            if la > -80: print(f'- {label}: sfizz {la:.2f} dB, Polyphon − sfizz {lb - la:+.2f} dB')
        print()

main()
