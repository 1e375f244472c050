#!/usr/bin/env python3
"""SFZ play-time behaviour rendered by Polyphon and by sfizz_render, compared slot by slot.

    Benchmarks/sfz-play-vs-sfizz.py SFIZZ_RENDER [POLYPHON] [WORKDIR]

SFIZZ_RENDER is sfizz's `sfizz_render`, built from sfizz's sources outside the repository;
POLYPHON defaults to .build/debug/polyphon. Writes into WORKDIR (default a new temporary folder)
sines of 300–700 Hz (one per region, so the pitch tells which region played), one instrument
using round robin, a keyswitch, a controller range and a release trigger with `rt_decay`, and a
MIDI file playing one event per one-second slot; renders both at 44.1 kHz and prints, per slot,
the frequency each renderer played and the level difference. Needs python3 with numpy.
"""
import math, os, struct, subprocess, types
import numpy as np

# The WAV and measuring helpers of sfz-vs-sfizz.py, loaded without running its comparison.
here = os.path.dirname(os.path.abspath(__file__))
base = types.ModuleType('sfz_vs_sfizz')
base.__file__ = os.path.join(here, 'sfz-vs-sfizz.py')
source = open(os.path.join(here, 'sfz-vs-sfizz.py')).read().replace('\nmain()\n', '\n')
exec(compile(source, 'sfz-vs-sfizz.py', 'exec'), base.__dict__)
from sfizz_rendering import comparison_arguments, render_both
RATE, write_wav, read_wav, hertz, db, window = base.RATE, base.write_wav, base.read_wav, base.hertz, base.db, base.window

SINES = {'a': 300, 'b': 400, 'c': 500, 'd': 600, 'e': 700}

INSTRUMENT = """<control> hint_ram_based=1
<global> pitch_keytrack=0 ampeg_release=0.05
<group> seq_length=3 lokey=50 hikey=60
<region> sample=a.wav seq_position=1
<region> sample=b.wav seq_position=2
<region> sample=c.wav seq_position=3
<group> sw_default=36 key=62
<region> sample=a.wav sw_last=36
<region> sample=d.wav sw_last=37
<group> key=64
<region> sample=a.wav hicc1=63
<region> sample=e.wav locc1=64
<group> key=65
<region> sample=b.wav
<region> sample=r.wav trigger=release rt_decay=6
"""

# (seconds, bytes) events; slots one second apart, notes held 0.5 s unless said.
def events():
    e = []
    def note(t, key, held=0.5):
        e.append((t, bytes([0x90, key, 127]))); e.append((t + held, bytes([0x80, key, 0])))
    for slot in range(4): note(slot, 60)                            # round robin a b c a
    note(4, 62)                                                     # default switch: a
    note(4.8, 37, 0.05); note(5, 62)                                # switch 37: d
    e.append((5.9, bytes([0xB0, 1, 100]))); note(6, 64)             # CC1 100: e
    e.append((6.9, bytes([0xB0, 1, 0]))); note(7, 64)               # CC1 0: a
    note(8, 65, 0.5); note(9, 65, 0.1)                              # release after 0.5 s and 0.1 s
    return sorted(e, key=lambda x: x[0])

def write_midi(path):
    def vlq(n):
        out = [n & 0x7F]; n >>= 7
        while n: out.insert(0, (n & 0x7F) | 0x80); n >>= 7
        return bytes(out)
    track, last = vlq(0) + b'\xff\x51\x03' + struct.pack('>I', 500000)[1:], 0
    for t, data in events():                 # 960 ticks per second at 120 bpm, 480 per beat
        tick = int(round(t * 960)); track += vlq(tick - last) + data; last = tick
    track += vlq(960) + b'\xff\x2f\x00'
    open(path, 'wb').write(b'MThd' + struct.pack('>IHHH', 6, 0, 1, 480) + b'MTrk' + struct.pack('>I', len(track)) + track)

def which(x):
    if db(x) < -80: return '-'
    f = hertz(x)
    name = min(SINES, key=lambda k: abs(1200 * math.log2(f / SINES[k])))
    return name if abs(1200 * math.log2(f / SINES[name])) < 5 else f'{f:.1f} Hz'

def main():
    sfizz, polyphon, work = comparison_arguments('sfz-play-vs-sfizz')
    for name, f in SINES.items():
        write_wav(f'{work}/{name}.wav', [math.sin(2 * math.pi * f * i / RATE) for i in range(2 * RATE)])
    write_wav(f'{work}/r.wav', [math.sin(2 * math.pi * 700 * i / RATE) for i in range(int(0.3 * RATE))])
    write_midi(f'{work}/play.mid')
    open(f'{work}/play.sfz', 'w').write(INSTRUMENT)
    render_both(sfizz, polyphon, f'{work}/play.sfz', f'{work}/play.mid', f'{work}/play-sfizz.wav', f'{work}/play-polyphon.wav', RATE, polyphon_rate=False)
    a, b = read_wav(f'{work}/play-sfizz.wav'), read_wav(f'{work}/play-polyphon.wav')
    rows = [('round robin 1', 0.1), ('round robin 2', 1.1), ('round robin 3', 2.1), ('round robin 4', 3.1),
            ('sw_default', 4.1), ('sw_last 37', 5.1), ('locc1=64 (CC1 100)', 6.1), ('hicc1=63 (CC1 0)', 7.1),
            ('attack of key 65', 8.1), ('release after 0.5 s', 8.6), ('release after 0.1 s', 9.2)]
    print('| slot | sfizz | Polyphon | sfizz dB | Polyphon − sfizz dB |\n|---|---|---|---|---|')
    levels = {}
    for label, start in rows:
        wa, wb = window(a, start, 0.15)[:, 0], window(b, start, 0.15)[:, 0]
        levels[label] = (db(wa), db(wb))
        print(f'| {label} | {which(wa)} | {which(wb)} | {db(wa):.2f} | {db(wb) - db(wa):+.2f} |')
    (la1, lb1), (la2, lb2) = levels['release after 0.5 s'], levels['release after 0.1 s']
    print(f'\nrt_decay=6, held 0.5 s vs 0.1 s: sfizz {la2 - la1:.2f} dB, Polyphon {lb2 - lb1:.2f} dB (expected 2.40)')

main()
