#!/usr/bin/env python3
"""SFZ's amplitude family rendered by Polyphon and by sfizz_render, compared note by note in dB:
amp_veltrack, amp_velcurve_N, amp_keytrack, gain above 0 dB, key, velocity and controller
crossfades (xfin_*/xfout_*, xf_*curve), amplitude_onccN (and _curveccN), amp_random, and a stereo sample's pan,
width and position (and their _onccN forms).

    Benchmarks/sfz-amplitude-vs-sfizz.py SFIZZ_RENDER [POLYPHON] [WORKDIR]

SFIZZ_RENDER is sfizz's `sfizz_render`, built from sfizz's sources outside the repository;
POLYPHON defaults to .build/debug/polyphon. Writes into WORKDIR (default a new temporary folder)
a 2 s sine of 441 Hz (mono) and a stereo sample (300 Hz left, 500 Hz right), two instruments
whose regions each take their own keys, and a MIDI file playing one note per second (held
0.8 s, controllers set 0.1 s before a note or moved half way through it); renders both with both
programs at 44.1 kHz and prints each note's level (RMS, 0.3–0.7 s into the note, or after a
controller moved) in both, with Polyphon − sfizz less the output offset (the level difference
of the first, plain note: the renderers' constant output scaling, see Documentation/sfz.md).
Stereo notes: the level of each sample side (its frequency) in each output channel.
Second instrument: one region uses volume_oncc7, which in sfizz drops the default CC 7 gain for
every region — its own offset must equal the first instrument's. Needs python3 with numpy.
"""
import math, os, struct, subprocess, sys
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from midi_writing import write_timed_midi
from sfizz_rendering import comparison_arguments, render_both
from wav_reading import read_wav

RATE = 44100

def write_wav(path, channels):
    frames = np.stack(channels, axis=1)
    data = np.clip(np.round(frames * 32767), -32768, 32767).astype('<i2').tobytes()
    n = len(channels)
    fmt = struct.pack('<HHIIHH', 1, n, RATE, RATE * 2 * n, 2 * n, 16)
    body = b'WAVE' + b'fmt ' + struct.pack('<I', len(fmt)) + fmt + b'data' + struct.pack('<I', len(data)) + data
    open(path, 'wb').write(b'RIFF' + struct.pack('<I', len(body)) + body)

def write_midi(path, events, end):
    """`events`: (seconds, status bytes); 960 ticks are 1 s."""
    write_timed_midi(path, [(int(round(seconds * 960)), bytes(message)) for seconds, message in events],
                     end_tick=int(end * 960))

# Regions: (keys, opcodes); notes: (key, velocity, controllers set before it, controllers moved
# half way through it, label). Mono regions play s.wav, stereo ones st.wav.
MONO = 's.wav pitch_keytrack=0 pitch_keycenter=60 ampeg_release=0.05'
STEREO = 'st.wav pitch_keytrack=0 pitch_keycenter=60 ampeg_release=0.05'
REGIONS = [
    ((30, 30), MONO, ''),
    ((31, 31), MONO, 'amp_veltrack=0'),
    ((32, 32), MONO, 'amp_veltrack=50'),
    ((33, 33), MONO, 'amp_veltrack=-50'),
    ((34, 34), MONO, 'amp_velcurve_64=0.8'),
    ((35, 35), MONO, 'amp_veltrack=80 amp_velcurve_1=0.2 amp_velcurve_100=0.6'),
    ((36, 38), MONO, 'amp_keytrack=-1.5 amp_keycenter=38'),
    ((39, 39), MONO, 'volume=6'),
    ((40, 40), MONO, 'amplitude=200 volume=2.5'),
    ((41, 45), MONO, 'xfin_lokey=41 xfin_hikey=45'),
    ((46, 50), MONO, 'xfout_lokey=46 xfout_hikey=50 xf_keycurve=gain'),
    ((51, 51), MONO, 'xfin_lovel=20 xfin_hivel=100 xf_velcurve=gain'),
    ((52, 52), MONO, 'xfout_lovel=30 xfout_hivel=90'),
    ((53, 53), MONO, 'xfin_locc1=0 xfin_hicc1=127'),
    ((54, 54), MONO, 'xfout_locc2=20 xfout_hicc2=100 xf_cccurve=gain'),
    ((55, 55), MONO, 'amplitude_oncc3=100'),
    ((56, 56), MONO, 'amp_random=6'),
    ((57, 57), MONO, 'volume_oncc4=-12'),
    ((58, 58), MONO, 'amplitude_oncc9=100 amplitude_curvecc9=6'),
    ((60, 60), STEREO, ''),
    ((61, 61), STEREO, 'width=0'),
    ((62, 62), STEREO, 'width=50 position=-40'),
    ((63, 63), STEREO, 'width=-100'),
    ((64, 64), STEREO, 'position=100'),
    ((65, 65), STEREO, 'pan=50 width=70'),
    ((66, 66), STEREO, 'width_oncc5=-100 position_oncc6=60'),
    ((67, 67), STEREO, 'amp_veltrack=0 volume=3'),
]
NOTES = [
    (30, 127, {}, {}, 'plain (reference)'),
    (31, 40, {}, {}, 'amp_veltrack=0, v40'),
    (32, 64, {}, {}, 'amp_veltrack=50, v64'),
    (33, 64, {}, {}, 'amp_veltrack=-50, v64'),
    (33, 127, {}, {}, 'amp_veltrack=-50, v127'),
    (34, 32, {}, {}, 'amp_velcurve_64=0.8, v32'),
    (34, 64, {}, {}, 'amp_velcurve_64=0.8, v64'),
    (34, 100, {}, {}, 'amp_velcurve_64=0.8, v100'),
    (35, 50, {}, {}, 'amp_veltrack=80 velcurve 1:0.2 100:0.6, v50'),
    (36, 127, {}, {}, 'amp_keytrack=-1.5 keycenter 38, key 36'),
    (38, 127, {}, {}, 'amp_keytrack=-1.5 keycenter 38, key 38'),
    (39, 127, {}, {}, 'volume=6'),
    (40, 127, {}, {}, 'amplitude=200 volume=2.5'),
    (41, 127, {}, {}, 'xfin_lokey=41 hikey=45, key 41'),
    (42, 127, {}, {}, 'xfin_lokey=41 hikey=45 (power), key 42'),
    (44, 127, {}, {}, 'xfin_lokey=41 hikey=45 (power), key 44'),
    (47, 127, {}, {}, 'xfout_lokey=46 hikey=50 (gain), key 47'),
    (49, 127, {}, {}, 'xfout_lokey=46 hikey=50 (gain), key 49'),
    (51, 40, {}, {}, 'xfin_lovel=20 hivel=100 (gain), v40'),
    (51, 80, {}, {}, 'xfin_lovel=20 hivel=100 (gain), v80'),
    (52, 50, {}, {}, 'xfout_lovel=30 hivel=90 (power), v50'),
    (52, 85, {}, {}, 'xfout_lovel=30 hivel=90 (power), v85'),
    (53, 127, {1: 100}, {1: 30}, 'xfin_locc1=0 hicc1=127, CC1 100 → 30'),
    (54, 127, {2: 40}, {2: 90}, 'xfout_locc2=20 hicc2=100 (gain), CC2 40 → 90'),
    (55, 127, {3: 64}, {3: 127}, 'amplitude_oncc3=100, CC3 64 → 127'),
    (57, 127, {4: 0}, {4: 64}, 'volume_oncc4=-12, CC4 0 → 64'),
    (58, 127, {9: 64}, {9: 100}, 'amplitude_oncc9=100 amplitude_curvecc9=6, CC9 64 → 100'),
    (60, 127, {}, {}, 'stereo plain'),
    (61, 127, {}, {}, 'stereo width=0'),
    (62, 127, {}, {}, 'stereo width=50 position=-40'),
    (63, 127, {}, {}, 'stereo width=-100'),
    (64, 127, {}, {}, 'stereo position=100'),
    (65, 127, {}, {}, 'stereo pan=50 width=70'),
    (66, 127, {5: 127, 6: 0}, {5: 64, 6: 127}, 'stereo width_oncc5=-100 position_oncc6=60, CC5 127→64, CC6 0→127'),
    (67, 90, {}, {}, 'stereo amp_veltrack=0 volume=3, v90'),
] + [(56, 127, {}, {}, 'amp_random=6') for _ in range(8)]

def instrument(extra=''):
    lines = ['<control> hint_ram_based=1']
    for (lo, hi), sample, opcodes in REGIONS:
        lines.append(f'<region> sample={sample} lokey={lo} hikey={hi} {opcodes}')
    lines.append(extra)
    # A region over many keys, never played, so the instrument does not read as a drum kit.
    lines.append(f'<region> sample={MONO} lokey=100 hikey=127')
    return '\n'.join(lines) + '\n'

def events():
    out = []
    for i, (key, velocity, before, during, _) in enumerate(NOTES):
        start = 1 + i
        for cc, value in before.items(): out.append((start - 0.1, [0xB0, cc, value]))
        out.append((start, [0x90, key, velocity]))
        for cc, value in during.items(): out.append((start + 0.4, [0xB0, cc, value]))
        out.append((start + 0.8, [0x80, key, 0]))
    return out

def rms_db(x): return 20 * math.log10(np.sqrt(np.mean(x ** 2)) + 1e-30)

def tone_db(x, hertz):
    """The level of a sine of `hertz` in `x` (RMS dB), by correlation."""
    t = np.arange(len(x)) / RATE
    c, s = np.dot(x, np.cos(2 * np.pi * hertz * t)), np.dot(x, np.sin(2 * np.pi * hertz * t))
    return 20 * math.log10(math.sqrt(c * c + s * s) * 2 / len(x) / math.sqrt(2) + 1e-30)

def render(sfizz, polyphon, work, name):
    render_both(sfizz, polyphon, f'{work}/{name}.sfz', f'{work}/notes.mid', f'{work}/{name}-sfizz.wav', f'{work}/{name}-polyphon.wav', RATE)
    return read_wav(f'{work}/{name}-sfizz.wav'), read_wav(f'{work}/{name}-polyphon.wav')

def compare(a, b, title):
    window = lambda x, i, early: x[int((1 + i + (0.15 if early else 0.55)) * RATE):int((1 + i + (0.35 if early else 0.75)) * RATE)]
    offset = rms_db(window(b, 0, True)[:, 0]) - rms_db(window(a, 0, True)[:, 0])
    print(f'\n{title}: output offset (plain note, Polyphon − sfizz) {offset:+.2f} dB, removed below.\n')
    print('| note | sfizz dB | Polyphon − sfizz dB |')
    print('|---|---|---|')
    worst, randoms = 0.0, {'sfizz': [], 'polyphon': []}
    for i, (key, velocity, before, during, label) in enumerate(NOTES):
        phases = [True, False] if during else [True]
        for early in phases:
            wa, wb = window(a, i, early), window(b, i, early)
            name = label if len(phases) == 1 else f'{label} ({"before" if early else "after"})'
            if key >= 60:
                cells = []
                for side, hertz in (('L', 300), ('R', 500)):
                    for out, channel in (('L', 0), ('R', 1)):
                        la, lb = tone_db(wa[:, channel], hertz), tone_db(wb[:, channel], hertz) - offset
                        if la > -80:
                            worst = max(worst, abs(lb - la))
                            cells.append(f'{side}→{out} {la:.2f} / {lb - la:+.2f}')
                        else:
                            cells.append(f'{side}→{out} silent / {"silent" if lb < -80 else f"{lb:.1f}"}')
                print(f'| {name} | ' + '; '.join(c.split(' / ')[0] for c in cells) + ' | '
                      + '; '.join(c.split(' ')[0] + ' ' + c.split(' / ')[1] for c in cells) + ' |')
                continue
            la, lb = rms_db(wa[:, 0]), rms_db(wb[:, 0]) - offset
            if label == 'amp_random=6':
                randoms['sfizz'].append(la); randoms['polyphon'].append(lb)
                continue
            if la < -90:
                print(f"| {name} | silent | {'silent' if lb < -80 else f'{lb:.1f} dB'} |")
                continue
            worst = max(worst, abs(lb - la))
            print(f'| {name} | {la:.2f} | {lb - la:+.2f} |')
    ref = rms_db(window(a, 0, True)[:, 0])
    for who, levels in randoms.items():
        spread = [x - ref for x in levels]
        print(f'| amp_random=6, 8 notes: {who} | {min(spread):+.2f} … {max(spread):+.2f} dB over the plain note | |')
    print(f'\nLargest |Polyphon − sfizz| (random notes aside): {worst:.2f} dB')
    return offset

def main():
    sfizz, polyphon, work = comparison_arguments('sfz-amplitude')
    t = np.arange(2 * RATE) / RATE
    write_wav(f'{work}/s.wav', [0.5 * np.sin(2 * np.pi * 441 * t)])
    write_wav(f'{work}/st.wav', [0.5 * np.sin(2 * np.pi * 300 * t), 0.5 * np.sin(2 * np.pi * 500 * t)])
    write_midi(f'{work}/notes.mid', events(), len(NOTES) + 2)
    open(f'{work}/amplitude.sfz', 'w').write(instrument())
    # volume_oncc7 on a region never played: sfizz then drops its default CC 7 gain everywhere.
    open(f'{work}/cc7.sfz', 'w').write(instrument(f'<region> sample={MONO} key=99 volume_oncc7=6'))
    first = compare(*render(sfizz, polyphon, work, 'amplitude'), 'amplitude.sfz')
    second = compare(*render(sfizz, polyphon, work, 'cc7'), 'cc7.sfz (a region uses volume_oncc7)')
    print(f'\nOffsets: {first:+.2f} dB and {second:+.2f} dB (equal when CC 7 is handled as sfizz does)')

main()
