#!/usr/bin/env python3
"""SFZ's `ampeg_dynamic` rendered by Polyphon and by sfizz_render: amplitude envelope stages
moved by controllers (`ampeg_*_onccN`) while the note sounds, compared in dB over time.

    Benchmarks/sfz-dynamic-vs-sfizz.py SFIZZ_RENDER [POLYPHON] [WORKDIR]

SFIZZ_RENDER is sfizz's `sfizz_render`, built from sfizz's sources outside the repository;
POLYPHON defaults to .build/debug/polyphon. Writes into WORKDIR (default a new temporary folder)
a 1 kHz sine, an instrument whose keys each shape it with one envelope, and a MIDI file playing
each key for 0.9 s once a second with CC 1 at 0 from the note-on and at 127 from 100 ms into it;
renders both at 44.1 kHz and prints each note's level against a plain note (RMS, 5 ms windows)
in both. Needs python3 with numpy.
"""
import math, os, subprocess, sys
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from midi_writing import write_timed_midi
from sfizz_rendering import comparison_arguments, render_both
from wav_reading import read_wav
from wav_writing import write_wav16

RATE = 44100
CASES = [
    (60, 'ampeg_dynamic=1 ampeg_attack=1 ampeg_attack_oncc1=-0.9'),
    (61, 'ampeg_attack=1 ampeg_attack_oncc1=-0.9'),
    (62, 'ampeg_dynamic=1 ampeg_sustain=100 ampeg_sustain_oncc1=-50 ampeg_decay=0.05'),
    (63, 'ampeg_dynamic=1 ampeg_hold=0.2 ampeg_hold_oncc1=0.1 ampeg_decay=0.2 ampeg_sustain=0'),
]
TIMES = [0.05, 0.0925, 0.1375, 0.17, 0.25, 0.3, 0.35, 0.45, 0.6, 0.8]

def main():
    sfizz, polyphon, work = comparison_arguments('sfz-dynamic')
    points = 0.5 * np.sin(2 * np.pi * 1000 * np.arange(2 * RATE) / RATE)
    write_wav16(f'{work}/s.wav', points, RATE)
    lines = ['<control> hint_ram_based=1', '<group> sample=s.wav pitch_keytrack=0']
    lines += [f'<region> key={key} {opcodes}' for key, opcodes in CASES]
    # The plain note, and a region over many keys so the instrument does not read as a drum kit.
    lines += ['<region> key=64', '<region> lokey=100 hikey=127']
    open(f'{work}/dynamic.sfz', 'w').write('\n'.join(lines) + '\n')
    timed = []
    for i, key in enumerate([64] + [key for key, _ in CASES]):
        at = 960 * (i + 1)
        timed += [(at - 96, bytes([0xB0, 1, 0])), (at, bytes([0x90, key, 127])), (at + 96, bytes([0xB0, 1, 127])),
                  (at + 864, bytes([0x80, key, 0]))]
    write_timed_midi(f'{work}/dynamic.mid', timed)
    render_both(sfizz, polyphon, f'{work}/dynamic.sfz', f'{work}/dynamic.mid', f'{work}/sfizz.wav', f'{work}/polyphon.wav', RATE)
    a, b = read_wav(f'{work}/sfizz.wav'), read_wav(f'{work}/polyphon.wav')
    def level(x, note, t):
        w = x[int((note + 1 + t) * RATE):int((note + 1 + t + 0.005) * RATE), 0]
        return 20 * math.log10(np.sqrt(np.mean(w ** 2)) + 1e-30)
    for i, (key, opcodes) in enumerate(CASES, start=1):
        print(f'\n`{opcodes}`, CC 1 0 → 127 at 100 ms\n')
        print('| ms | sfizz dB | Polyphon dB | Polyphon − sfizz dB |')
        print('|---|---|---|---|')
        for t in TIMES:
            la, lb = level(a, i, t) - level(a, 0, t), level(b, i, t) - level(b, 0, t)
            print(f'| {t * 1000:.1f} | {la:+.2f} | {lb:+.2f} | {lb - la:+.2f} |')

main()
