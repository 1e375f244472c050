#!/usr/bin/env python3
"""SFZ `set_ccN`/`set_hdccN` controller defaults and the per-note pitch opcodes
(`pitch_veltrack` and its `_onccN`, `bend_up`/`bend_down`, `pitch_random`) rendered by Polyphon
and by sfizz_render and compared: which region a controller default selects (told by its pitch),
the level a default sets, pitch in cents at velocities 1/64/127, under the wheel at asymmetric
bend ranges, and the spread of pitch_random's draws over many notes. Then volume, pan and pitch
moved by controllers through a `<curve>`, a step and smoothing (`volume_curveccN`,
`pan_stepccN`, `pitch_smoothccN` …) and `bend_step`/`bend_smooth`: cents, dB and the pan's
right-over-left balance per note, and the smoothed ramps in 10 ms windows after a jump (sfizz
rendering in 64-frame blocks there).

    Benchmarks/sfz-pitch-vs-sfizz.py SFIZZ_RENDER [POLYPHON] [WORKDIR]

SFIZZ_RENDER is sfizz's `sfizz_render`, built from sfizz's sources outside the repository;
POLYPHON defaults to .build/debug/polyphon. Writes into WORKDIR (default a new temporary folder)
a 3 s 440 Hz sine, an instrument whose keys each play it with one setting, and a MIDI file; renders
both at 44.1 kHz and prints per note the pitch (zero crossings, cents from 440 Hz) or level in
both (levels against the note played at CC 21 = 0). No CC message precedes the first notes: what they play comes from `set_ccN` alone. Needs
python3 with numpy.
"""
import math, os, sys
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from midi_writing import write_timed_midi
from sfizz_rendering import comparison_arguments, render_both
from wav_reading import read_wav
from wav_writing import write_wav16

RATE = 44100
INSTRUMENT = """<control> hint_ram_based=1 set_cc20=100 set_hdcc21=0.5 set_cc30=127
<group> sample=s.wav pitch_keytrack=0 pitch_keycenter=69 ampeg_release=0.01 amp_veltrack=0
<region> key=60 pitch_veltrack=1200
<region> key=61 pitch_veltrack_oncc30=-600
<region> key=62 bend_up=700 bend_down=-1200
<region> key=63 pitch_random=100
<region> key=64 locc20=64 hicc20=127
<region> key=64 locc20=0 hicc20=63 tune=700
<region> key=65 volume=-20 volume_oncc21=20
<region> key=66
<region> lokey=100 hikey=127
"""

def cc(controller, value): return bytes([0xB0, controller, value])
def bend(value): return bytes([0xE0, value & 0x7F, value >> 7])

def main():
    sfizz, polyphon, work = comparison_arguments('sfz-pitch')
    points = 0.5 * np.sin(2 * np.pi * 440 * np.arange(3 * RATE) / RATE)
    write_wav16(f'{work}/s.wav', points, RATE)
    open(f'{work}/pitch.sfz', 'w').write(INSTRUMENT)

    timed, notes = [], []   # notes: (start s, held s, key, velocity, what, measure)
    def note(at, key, velocity, what, measure='cents', held=0.4):
        tick = int(at * 960)
        timed.extend([(tick, bytes([0x90, key, velocity])), (tick + int(held * 960), bytes([0x80, key, 0]))])
        notes.append((at, held, key, velocity, what, measure))
    def event(at, data): timed.append((int(at * 960), data))
    note(0.0, 64, 100, 'set_cc20=100: the locc20=64 region (0 cents), no CC sent')
    note(0.5, 65, 100, 'set_hdcc21=0.5, volume_oncc21=20', 'level')
    event(0.9, cc(21, 0))
    note(1.0, 65, 100, 'CC 21 = 0', 'level')
    event(1.4, cc(20, 10))
    note(1.5, 64, 100, 'CC 20 = 10: the hicc20=63 region (+700 cents)')
    event(1.9, cc(121, 0))
    note(2.0, 64, 100, 'after CC 121: set_cc20=100 again (0 cents)')
    note(2.5, 65, 100, 'after CC 121: set_hdcc21=0.5 again', 'level')
    at = 3.0
    for key, name in [(60, 'pitch_veltrack=1200'), (61, 'pitch_veltrack_oncc30=-600, set_cc30=127')]:
        for velocity in (1, 64, 127):
            note(at, key, velocity, f'{name}, velocity {velocity}'); at += 0.5
    # RPN 0 = 12 semitones: sfizz has no RPN 0; Polyphon's regions with their own range ignore it.
    for t, data in [(at - 0.2, cc(101, 0)), (at - 0.2, cc(100, 0)), (at - 0.2, cc(6, 12)), (at - 0.2, cc(38, 0))]:
        event(t, data)
    for wheel in (16383, 12288, 4096, 0):
        event(at - 0.1, bend(wheel))
        note(at, 62, 100, f'bend_up=700 bend_down=-1200, wheel {wheel}'); at += 0.5
    note(at, 66, 100, 'no bend_up/bend_down, wheel 0, RPN 0 = 12 semitones'); at += 0.5
    event(at - 0.05, bend(8192))
    random_from = len(notes)
    for _ in range(40):
        note(at, 63, 100, 'pitch_random=100', held=0.2); at += 0.25
    write_timed_midi(f'{work}/pitch.mid', timed)
    render_both(sfizz, polyphon, f'{work}/pitch.sfz', f'{work}/pitch.mid', f'{work}/sfizz.wav',
                f'{work}/polyphon.wav', RATE)
    a, b = read_wav(f'{work}/sfizz.wav'), read_wav(f'{work}/polyphon.wav')

    def window(x, start, held): return x[int((start + 0.05) * RATE):int((start + held - 0.02) * RATE), 0]
    def cents(x):
        s = np.where((x[:-1] < 0) & (x[1:] >= 0))[0]; z = s + (-x[s] / (x[s + 1] - x[s]))
        return 1200 * math.log2((len(z) - 1) / (z[-1] - z[0]) * RATE / 440)
    def level(x): return 20 * math.log10(np.sqrt(np.mean(x ** 2)) + 1e-30)
    print('| note | sfizz | Polyphon | Polyphon − sfizz |')
    print('|---|---|---|---|')
    # Levels against the note at CC 21 = 0 (the programs' output levels differ by a constant,
    # see sfz-vs-sfizz.py).
    start, held = next((n[0], n[1]) for n in notes if n[4] == 'CC 21 = 0')
    base_a, base_b = level(window(a, start, held)), level(window(b, start, held))
    for start, held, key, velocity, what, measure in notes[:random_from]:
        wa, wb = window(a, start, held), window(b, start, held)
        va, vb = (cents(wa), cents(wb)) if measure == 'cents' else (level(wa) - base_a, level(wb) - base_b)
        unit = 'cents' if measure == 'cents' else 'dB over CC 21 = 0'
        print(f'| {what} | {va:+.2f} {unit} | {vb:+.2f} {unit} | {vb - va:+.2f} |')
    draws = [(cents(window(a, s, h)), cents(window(b, s, h))) for s, h, *_ in notes[random_from:]]
    da, db = np.array([d[0] for d in draws]), np.array([d[1] for d in draws])
    print(f'\npitch_random=100 over {len(draws)} notes, cents from 440 Hz (min / mean / max / standard deviation):')
    print(f'- sfizz: {da.min():+.1f} / {da.mean():+.1f} / {da.max():+.1f} / {da.std():.1f}')
    print(f'- Polyphon: {db.min():+.1f} / {db.mean():+.1f} / {db.max():+.1f} / {db.std():.1f}')
    print(f'- a uniform draw in 0…100: 0 / +50 / +100 / {100 / math.sqrt(12):.1f}')
    return sfizz, polyphon, work

# The instrument of Tests/PolyphonSFZTests/SFZVoiceControllerTests.swift.
CONTROLLED = """<control> hint_ram_based=1
<curve> curve_index=7 v000=0 v064=1 v127=1
<group> sample=s.wav pitch_keytrack=0 pitch_keycenter=69 ampeg_release=0.01 amp_veltrack=0
<region> key=60 pitch_oncc1=1200 pitch_curvecc1=7
<region> key=61 tune_oncc1=1200 tune_stepcc1=100
<region> key=62 volume_oncc1=-24 volume_curvecc1=7
<region> key=63 gain_oncc1=12 gain_stepcc1=5
<region> key=64
<region> key=65 pan_oncc1=100 pan_stepcc1=30
<region> key=66 volume_oncc1=-24 volume_stepcc1=6
<region> key=67 bend_up=1200 bend_step=100
<region> key=68 bend_step=100 bend_down=-1200
<region> key=70 pitch_oncc2=1200 pitch_smoothcc2=100
<region> key=71 volume_oncc2=-24 volume_smoothcc2=100
<region> key=72 bend_smooth=100
<region> key=73 pan_oncc2=50 pan_smoothcc2=100
<region> lokey=100 hikey=127
"""

def controlled(sfizz, polyphon, work):
    open(f'{work}/controlled.sfz', 'w').write(CONTROLLED)
    timed, notes = [], []   # notes: (start s, key, what, measure)
    def note(at, key, what, measure='cents', held=0.4):
        tick = int(at * 960)
        timed.extend([(tick, bytes([0x90, key, 100])), (tick + int(held * 960), bytes([0x80, key, 0]))])
        notes.append((at, key, what, measure))
    def event(at, data): timed.append((int(at * 960), data))
    note(0.0, 64, 'reference', 'level')
    at = 0.5
    for value in (40, 100):
        event(at - 0.1, cc(1, value))
        for key, what, measure in [(60, 'pitch_oncc1=1200 pitch_curvecc1=7 (v064=1)', 'cents'),
                                   (61, 'tune_oncc1=1200 tune_stepcc1=100', 'cents'),
                                   (62, 'volume_oncc1=-24 volume_curvecc1=7', 'level'),
                                   (63, 'gain_oncc1=12 gain_stepcc1=5', 'level'),
                                   (66, 'volume_oncc1=-24 volume_stepcc1=6 (a depth below 0: no step)', 'level'),
                                   (65, 'pan_oncc1=100 pan_stepcc1=30', 'balance')]:
            note(at, key, f'{what}, CC 1 = {value}', measure); at += 0.5
    for wheel in (11223, 13107, 3277):
        event(at - 0.1, bend(wheel))
        note(at, 67, f'bend_up=1200 bend_step=100, wheel {wheel}'); at += 0.5
        note(at, 68, f'bend_step=100 bend_down=-1200, wheel {wheel}'); at += 0.5
    event(at - 0.1, bend(8192))
    # Smoothing: the controller or wheel jumps 0.1 s into a 0.4 s note.
    ramps = []
    for key, what, data, reset, measure in [(70, 'pitch_smoothcc2=100 (1200 cents)', cc(2, 127), cc(2, 0), 'cents'),
                                            (71, 'volume_smoothcc2=100 (−24 dB)', cc(2, 127), cc(2, 0), 'level'),
                                            (72, 'bend_smooth=100 (200 cents)', bend(16383), bend(8192), 'cents'),
                                            (73, 'pan_smoothcc2=100 (50 %)', cc(2, 127), cc(2, 0), 'balance')]:
        note(at, key, what, measure, held=0.5)
        event(at + 0.1, data); event(at + 0.55, reset)
        ramps.append((at + 0.1, what, measure)); at += 0.7
    write_timed_midi(f'{work}/controlled.mid', timed)
    # sfizz in 64-frame blocks: in its default 1024 its smoothers start a jump's ramp from the
    # block's start, aiming again every 16 frames while the input ramps to the event, which
    # stretches a 100 ms ramp to about 120 ms (up to 105 cents and 1.8 dB from the 64-frame one).
    render_both(sfizz, polyphon, f'{work}/controlled.sfz', f'{work}/controlled.mid', f'{work}/controlled-sfizz.wav',
                f'{work}/controlled-polyphon.wav', RATE, sfizz_block=64)
    a, b = read_wav(f'{work}/controlled-sfizz.wav'), read_wav(f'{work}/controlled-polyphon.wav')
    def cents(x):
        s = np.where((x[:-1] < 0) & (x[1:] >= 0))[0]; z = s + (-x[s] / (x[s + 1] - x[s]))
        return 1200 * math.log2((len(z) - 1) / (z[-1] - z[0]) * RATE / 440)
    def level(x): return 20 * math.log10(np.sqrt(np.mean(x ** 2)) + 1e-30)
    def measure(x, start, end, kind, base):
        w = x[int(start * RATE):int(end * RATE)]
        if kind == 'cents': return cents(w[:, 0])
        if kind == 'level': return level(w[:, 0]) - base
        return level(w[:, 1]) - level(w[:, 0])
    base_a = level(a[int(0.05 * RATE):int(0.38 * RATE), 0])
    base_b = level(b[int(0.05 * RATE):int(0.38 * RATE), 0])
    units = {'cents': 'cents', 'level': 'dB', 'balance': 'dB right − left'}
    print('\n| note | sfizz | Polyphon | Polyphon − sfizz |')
    print('|---|---|---|---|')
    for start, key, what, kind in notes[1:len(notes) - len(ramps)]:
        va, vb = measure(a, start + 0.05, start + 0.38, kind, base_a), measure(b, start + 0.05, start + 0.38, kind, base_b)
        print(f'| {what} | {va:+.2f} {units[kind]} | {vb:+.2f} {units[kind]} | {vb - va:+.2f} |')
    print('\n| ms after the jump | ' + ' | '.join(f'{what}: sfizz | Polyphon − sfizz' for _, what, _ in ramps) + ' |')
    print('|---|' + '---|---|' * len(ramps))
    # 10 ms windows (4.4 periods of the sine) centred on each time.
    for ms in [-20, 10, 25, 50, 75, 90, 125, 200]:
        row = []
        for jump, _, kind in ramps:
            t = jump + ms / 1000
            va, vb = measure(a, t - 0.005, t + 0.005, kind, base_a), measure(b, t - 0.005, t + 0.005, kind, base_b)
            row += [f'{va:+.2f}', f'{vb - va:+.2f}']
        print(f'| {ms} | ' + ' | '.join(row) + ' |')

# A 0.2 s sample: 0.1 s at 440 Hz, then 0.1 s at 660 Hz (whole periods of neither; the
# pitch tells which half plays). The instrument of SFZVoiceControllerTests' moved ends.
MOVED = """<control> hint_ram_based=1
<global> sample=halves.wav pitch_keytrack=0 pitch_keycenter=60 ampeg_release=0.01
<region> key=60 end=8819 end_oncc1=-4410
<region> key=61 loop_mode=loop_continuous loop_start=0 loop_end=8819 loop_start_oncc1=4410
<region> key=62 loop_mode=loop_continuous loop_start=0 loop_end=8819 loop_end_oncc1=-4410
<region> lokey=100 hikey=127
"""

def moved_ends(sfizz, polyphon, work):
    t = np.arange(4410) / RATE
    write_wav16(f'{work}/halves.wav', np.concatenate([0.5 * np.sin(2 * np.pi * 440 * t), 0.5 * np.sin(2 * np.pi * 660 * t)]), RATE)
    open(f'{work}/moved.sfz', 'w').write(MOVED)
    timed, notes = [], []
    at = 0.0
    for value in (0, 127):
        timed.append((int(at * 960), cc(1, value)))
        for key in (60, 61, 62):
            tick = int((at + 0.05) * 960)
            timed.extend([(tick, bytes([0x90, key, 100])), (tick + int(0.4 * 960), bytes([0x80, key, 0]))])
            notes.append((at + 0.05, key, value)); at += 0.5
    write_timed_midi(f'{work}/moved.mid', timed)
    render_both(sfizz, polyphon, f'{work}/moved.sfz', f'{work}/moved.mid', f'{work}/moved-sfizz.wav',
                f'{work}/moved-polyphon.wav', RATE)
    a, b = read_wav(f'{work}/moved-sfizz.wav'), read_wav(f'{work}/moved-polyphon.wav')
    def hertz(x):
        s = np.where((x[:-1] < 0) & (x[1:] >= 0))[0]; z = s + (-x[s] / (x[s + 1] - x[s]))
        return (len(z) - 1) / (z[-1] - z[0]) * RATE if len(z) > 2 else 0
    def end_ms(x, start):
        """When the note falls silent: the last 1 ms window above −60 dB after `start`."""
        w = np.abs(x[int(start * RATE):int((start + 0.45) * RATE), 0])
        loud = [i for i in range(0, len(w) - 44, 44) if w[i:i + 44].max() > 0.001]
        return (loud[-1] + 44) / RATE * 1000 if loud else 0
    print('\n| region | CC 1 | sfizz | Polyphon |')
    print('|---|---|---|---|')
    line = {int(l.split('key=')[1].split()[0]): l.split(' ', 2)[2] for l in MOVED.splitlines() if l.startswith('<region> key=')}
    for start, key, value in notes:
        if key == 60:
            va, vb = f'ends at {end_ms(a, start):.0f} ms', f'ends at {end_ms(b, start):.0f} ms'
        else:
            # 20 ms windows at 0.15 s (past a loop end moved to 0.1 s) and 0.25 s (past the first pass).
            va = ' / '.join(f'{hertz(a[int((start + t) * RATE):int((start + t + 0.02) * RATE), 0]):.0f}' for t in (0.15, 0.25)) + ' Hz'
            vb = ' / '.join(f'{hertz(b[int((start + t) * RATE):int((start + t + 0.02) * RATE), 0]):.0f}' for t in (0.15, 0.25)) + ' Hz'
        print(f'| `{line[key]}` | {value} | {va} | {vb} |')

if __name__ == '__main__':
    arguments = main()
    controlled(*arguments)
    moved_ends(*arguments)
