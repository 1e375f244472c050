#!/usr/bin/env python3
"""SFZ's `count` (the sample played N times, one-shot) and `loop_count` (the loop repeated N
times, then on to the sample's end) rendered by Polyphon and by sfizz_render, compared by how
long each note sounds.

    Benchmarks/sfz-count-vs-sfizz.py SFIZZ_RENDER [POLYPHON] [WORKDIR]

SFIZZ_RENDER is sfizz's `sfizz_render`, built from sfizz's sources outside the repository;
POLYPHON defaults to .build/debug/polyphon. Writes into WORKDIR (default a new temporary folder)
100 ms of a 500 Hz sine (50 whole cycles), an instrument whose keys each play it with one
setting, and a MIDI file playing each key once a second (released when the table says); renders
both at 44.1 kHz and prints, per note, the ms until the output falls silent (its last point
above 1 % of the note's peak) in both. Needs python3 with numpy.
"""
import os, subprocess, sys
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from midi_writing import write_timed_midi
from sfizz_rendering import comparison_arguments, render_both
from wav_reading import read_wav
from wav_writing import write_wav16

RATE = 44100
# (key, opcodes, seconds held)
CASES = [
    (60, 'count=3', 0.05),
    (61, 'loop_mode=loop_continuous loop_start=2205 loop_end=4409 loop_count=2', 0.5),
    (62, 'loop_mode=loop_continuous loop_start=2205 loop_end=4409', 0.45),
    (63, 'count=1', 0.05),
    (64, 'count=3 offset=2205', 0.5),
    (65, 'loop_mode=loop_sustain loop_start=2205 loop_end=4409 loop_count=4', 0.15),
    (66, 'count=2 loop_mode=no_loop', 0.5),
]

def main():
    sfizz, polyphon, work = comparison_arguments('sfz-count')
    points = 0.5 * np.sin(2 * np.pi * 500 * np.arange(4410) / RATE)
    write_wav16(f'{work}/s.wav', points, RATE)
    lines = ['<control> hint_ram_based=1', '<group> sample=s.wav pitch_keytrack=0 ampeg_release=0.001']
    lines += [f'<region> key={key} {opcodes}' for key, opcodes, _ in CASES]
    # A region over many keys, never played, so the instrument does not read as a drum kit.
    lines += ['<region> lokey=100 hikey=127']
    open(f'{work}/count.sfz', 'w').write('\n'.join(lines) + '\n')
    timed = []
    for i, (key, _, held) in enumerate(CASES):
        timed += [(960 * (i + 1), bytes([0x90, key, 127])), (960 * (i + 1) + int(held * 960), bytes([0x80, key, 0]))]
    write_timed_midi(f'{work}/count.mid', timed)
    render_both(sfizz, polyphon, f'{work}/count.sfz', f'{work}/count.mid', f'{work}/sfizz.wav', f'{work}/polyphon.wav', RATE)
    a, b = read_wav(f'{work}/sfizz.wav'), read_wav(f'{work}/polyphon.wav')
    def sounding(x, i):
        w = np.abs(x[RATE * (i + 1):RATE * (i + 2), 0])
        loud = np.nonzero(w > w.max() * 0.01)[0]
        first, last = (loud[0], loud[-1]) if len(loud) else (0, -1)
        return (last + 1 - first) / RATE * 1000
    print('| region | released at ms | sfizz sounds ms | Polyphon sounds ms | Polyphon − sfizz ms |')
    print('|---|---|---|---|---|')
    for i, (key, opcodes, held) in enumerate(CASES):
        sa, sb = sounding(a, i), sounding(b, i)
        print(f'| `{opcodes}` | {held * 1000:.0f} | {sa:.2f} | {sb:.2f} | {sb - sa:+.2f} |')

main()
