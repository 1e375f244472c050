#!/usr/bin/env python3
"""SFZ v2 LFOs (`lfoN_*`: waves, step sequences, phase controllers), flex envelopes (`egN_*`) on
every target sfizz's modulation matrix has (pitch, volume, amplitude, pan, a stereo sample's
width and position, both filters' cutoff, resonance and gain, the equaliser bands' frequency,
bandwidth and gain) and the v1 LFOs' controller forms rendered by Polyphon and by sfizz_render
and compared over time: pitch in cents, level in dB, pan as the right channel's level over the
left's.

    Benchmarks/sfz-lfo-vs-sfizz.py SFIZZ_RENDER [POLYPHON] [WORKDIR]

SFIZZ_RENDER is sfizz's `sfizz_render`, built from sfizz's sources outside the repository;
POLYPHON defaults to .build/debug/polyphon. Writes into WORKDIR (default a new temporary
folder) a 4 s C4 sine (mono, and stereo: on both sides, on the left side alone) and 4 s of
seeded white noise, an instrument whose keys each play one of
the NOTES below, and a MIDI file that sets CC 1 to 100, then plays each note for 1 s, 2.5 s
apart; renders it with both programs at 48 kHz and prints a table per note: the quantity at
points through the note (10 ms windows), sfizz's value and Polyphon's difference, then a
summary: each note's range and largest difference. Levels are
taken against each program's own plain sine (the first note), which removes their constant
output offset; '–' where the note is silent (below −60 dB, sfizz_render's 16-bit floor). Needs
python3 with numpy.
"""
import math, os, struct, subprocess, sys
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sfizz_rendering import comparison_arguments, render_both
from wav_reading import read_wav

RATE = 48000
C4 = 261.6255653
SPACING, HELD = 2.5, 1.0

# (key, what is measured, opcodes, title)
NOTES = [
    (40, 'level', 'sample=c4.wav', 'plain sine (the level reference)'),
    (41, 'cents', 'sample=c4.wav lfo1_freq=4 lfo1_wave=1 lfo1_pitch=60 lfo1_wave2=0 lfo1_ratio2=3 lfo1_scale2=0.4 '
                  'lfo1_offset2=0.1 lfo1_phase=0.1 lfo1_delay=0.1 lfo1_fade=0.2',
     '`lfo1` pitch: sine 4 Hz + triangle ×3 (scale 0.4, offset 0.1), ±60 cents, phase 0.1, delay 0.1 s, fade 0.2 s'),
    (42, 'level', 'sample=c4.wav lfo1_freq=3 lfo1_wave=0 lfo1_volume=4 lfo2_freq=2 lfo2_wave=2 lfo2_amplitude=70',
     '`lfo1` volume: triangle 3 Hz ±4 dB; `lfo2` amplitude: pulse 75 % at 2 Hz × 70 %'),
    (43, 'pan', 'sample=c4.wav lfo1_freq=2 lfo1_wave=1 lfo1_pan=80',
     '`lfo1` pan: sine 2 Hz ±80 %'),
    (44, 'cents', 'sample=c4.wav eg1_time1=0.2 eg1_level1=1 eg1_shape1=3 eg1_time2=0.3 eg1_level2=0.4 eg1_shape2=-2 '
                  'eg1_sustain=2 eg1_time3=0.3 eg1_level3=-0.3 eg1_pitch=1200 ampeg_release=1',
     '`eg1` pitch: to 1 in 0.2 s (shape 3), to 0.4 in 0.3 s (shape −2, sustain), to −0.3 in 0.3 s, ×1200 cents'),
    (45, 'level', 'sample=c4.wav eg1_ampeg=1 eg1_time0=0.05 eg1_level0=1 eg1_time1=0.3 eg1_level1=0.3 eg1_shape1=-3 '
                  'eg1_sustain=1 eg1_time2=0.4 eg1_level2=0',
     '`eg1_ampeg`: to 1 in 50 ms, to 0.3 in 0.3 s (shape −3, sustain), to 0 in 0.4 s after the release'),
    (46, 'level', 'sample=noise.wav fil_type=lpf_2p cutoff=300 eg1_time0=0.4 eg1_level0=1 eg1_time1=0.3 eg1_level1=0 '
                  'eg1_cutoff=2400 lfo1_freq=4 lfo1_wave=3 lfo1_resonance=6',
     '`eg1` cutoff (noise, `lpf_2p` 300 Hz): +2400 cents in 0.4 s, back in 0.3 s; `lfo1` resonance: square 4 Hz, +6 dB'),
    (47, 'cents', 'sample=c4.wav pitchlfo_freq=5 pitchlfo_depth_oncc1=80 amplfo_freq_oncc1=4 amplfo_depth=3',
     '`pitchlfo_depth_oncc1=80`, `amplfo_freq_oncc1=4` at CC 1 = 100 (pitch shown)'),
    (48, 'level', 'sample=noise.wav fil_type=lpf_2p cutoff=4000 fil2_type=lpf_2p cutoff2=400 lfo1_freq=2 lfo1_wave=1 '
                  'lfo1_cutoff2=1800 lfo1_resonance2=6',
     '`lfo1` second filter (noise, `lpf_2p` 400 Hz behind one at 4 kHz): sine 2 Hz, ±1800 cents on `cutoff2`, ±6 dB on `resonance2`'),
    (49, 'level', 'sample=c4.wav fil_type=peq cutoff=262 lfo1_freq=3 lfo1_wave=1 lfo1_fil1gain=9',
     '`lfo1_fil1gain` (C4 sine, `peq` at 262 Hz): sine 3 Hz, ±9 dB'),
    (50, 'level', 'sample=c4.wav eq1_freq=262 eq1_gain=0 lfo1_freq=2 lfo1_wave=0 lfo1_eq1gain=12',
     '`lfo1_eq1gain` (a flat band at 262 Hz): triangle 2 Hz, ±12 dB'),
    (51, 'level', 'sample=c4.wav eq2_freq=1000 eq2_bw=1 eq2_gain=12 eg1_time0=0.6 eg1_level0=1 eg1_sustain=0 '
                  'eg1_eq2freq=-738 eg1_eq2bw=1',
     '`eg1_eq2freq`, `eg1_eq2bw` (a +12 dB band, 1 kHz, 1 octave): to 262 Hz and 2 octaves in 0.6 s'),
    (52, 'pan', 'sample=c4both.wav lfo1_freq=2 lfo1_wave=1 lfo1_position=80',
     '`lfo1_position` (stereo sample, the same sine on both sides): sine 2 Hz, ±80 %'),
    (53, 'pan', 'sample=c4left.wav width=20 eg1_time0=0.5 eg1_level0=1 eg1_sustain=0 eg1_width=60',
     '`eg1_width` (stereo sample, the sine on its left side, `width=20`): +60 % in 0.5 s'),
    (54, 'cents', 'sample=c4.wav lfo1_freq=4 lfo1_steps=4 lfo1_step1=100 lfo1_step2=-50 lfo1_step3=25 lfo1_pitch=60 '
                  'lfo1_wave2=1 lfo1_ratio2=0.5 lfo1_scale2=0.3',
     '`lfo1_steps=4` (100, −50, 25, 0 %) at 4 Hz, ±60 cents, a sine at half the rate (×0.3) summed'),
    (55, 'cents', 'sample=c4.wav lfo1_freq=2 lfo1_wave=1 lfo1_phase=0.1 lfo1_phase_oncc1=0.3 lfo1_pitch=50',
     '`lfo1_phase_oncc1=0.3` at CC 1 = 100: sine 2 Hz, ±50 cents, phase 0.1 + 0.236'),
    (56, 'pan', 'sample=c4both.wav width=50 lfo1_freq=2 lfo1_wave=1 lfo1_pan=60',
     '`lfo1_pan` on a stereo sample (the same sine on both sides, `width=50`): sine 2 Hz, ±60 %'),
]
TIMES = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.45, 0.55, 0.7, 0.9, 1.05, 1.1, 1.2, 1.3, 1.45]

def write_wav(path, points, right=None):
    """A 16-bit WAV of `points`, stereo with `right` as its right side."""
    channels = 1 if right is None else 2
    frames = points if right is None else np.stack([points, right], axis=1).reshape(-1)
    data = np.clip(np.round(frames * 32767), -32768, 32767).astype('<i2').tobytes()
    fmt = struct.pack('<HHIIHH', 1, channels, RATE, RATE * 2 * channels, 2 * channels, 16)
    body = b'WAVE' + b'fmt ' + struct.pack('<I', len(fmt)) + fmt + b'data' + struct.pack('<I', len(data)) + data
    open(path, 'wb').write(b'RIFF' + struct.pack('<I', len(body)) + body)

def write_midi(path, keys):
    """CC 1 = 100 at 0, then each key at velocity 127, `SPACING` s apart, held `HELD` s (960 ticks a second)."""
    def vlq(n):
        out = [n & 0x7F]; n >>= 7
        while n: out.insert(0, (n & 0x7F) | 0x80); n >>= 7
        return bytes(out)
    events = vlq(0) + b'\xff\x51\x03' + struct.pack('>I', 500000)[1:] + vlq(0) + bytes([0xB0, 1, 100])
    last = 0
    for i, key in enumerate(keys):
        on, off = int((0.1 + i * SPACING) * 960), int((0.1 + i * SPACING + HELD) * 960)
        events += vlq(on - last) + bytes([0x90, key, 127]); last = on
        events += vlq(off - last) + bytes([0x80, key, 0]); last = off
    events += vlq(960) + b'\xff\x2f\x00'
    open(path, 'wb').write(b'MThd' + struct.pack('>IHHH', 6, 0, 1, 480) + b'MTrk' + struct.pack('>I', len(events)) + events)

def cents(x):
    s = np.where((x[:-1] < 0) & (x[1:] >= 0))[0]
    if len(s) < 2: return float('nan')
    z = s + (-x[s] / (x[s + 1] - x[s]))
    return 1200 * math.log2((len(z) - 1) / (z[-1] - z[0]) * RATE / C4)

def db(x): return 20 * math.log10(np.sqrt(np.mean(x ** 2)) + 1e-30)

def main():
    sfizz, polyphon, work = comparison_arguments('sfz-lfo')
    t = np.arange(4 * RATE) / RATE
    write_wav(f'{work}/c4.wav', 0.5 * np.sin(2 * np.pi * C4 * t))
    write_wav(f'{work}/c4both.wav', 0.5 * np.sin(2 * np.pi * C4 * t), 0.5 * np.sin(2 * np.pi * C4 * t))
    write_wav(f'{work}/c4left.wav', 0.5 * np.sin(2 * np.pi * C4 * t), 0 * t)
    write_wav(f'{work}/noise.wav', np.random.default_rng(1).uniform(-0.5, 0.5, 4 * RATE))
    lines = ['<control> hint_ram_based=1', '<group> pitch_keytrack=0 pitch_keycenter=60 ampeg_release=0.01']
    lines += [f'<region> key={key} {opcodes}' for key, _, opcodes, _ in NOTES]
    lines += ['<region> sample=c4.wav lokey=100 hikey=127']  # never played: not a drum kit
    open(f'{work}/lfo.sfz', 'w').write('\n'.join(lines) + '\n')
    write_midi(f'{work}/lfo.mid', [key for key, _, _, _ in NOTES])
    render_both(sfizz, polyphon, f'{work}/lfo.sfz', f'{work}/lfo.mid', f'{work}/sfizz.wav', f'{work}/polyphon.wav', RATE)
    a, b = read_wav(f'{work}/sfizz.wav'), read_wav(f'{work}/polyphon.wav')
    def window(x, i, time, channel=0):
        start = int((0.1 + i * SPACING + time - 0.005) * RATE)
        return x[start:start + int(0.01 * RATE), channel]
    summary = []
    plain = [np.mean([db(window(x, 0, time)) for time in (0.3, 0.5, 0.7)]) for x in (a, b)]
    for i, (key, quantity, opcodes, title) in enumerate(NOTES[1:], start=1):
        unit = {'cents': 'cents', 'level': 'dB', 'pan': 'dB right − left'}[quantity]
        print(f'\n{title}\n\n| time s | sfizz {unit} | Polyphon − sfizz |\n|---|---|---|')
        for time in TIMES:
            values = []
            silent = db(window(a, i, time)) - plain[0] < -60 and db(window(a, i, time, 1)) - plain[0] < -60
            for x, reference in zip((a, b), plain):
                w = window(x, i, time)
                if quantity == 'cents': values.append(cents(w))
                elif quantity == 'level': values.append(db(w) - reference)
                else: values.append(db(window(x, i, time, 1)) - db(w))
            # Below −60 dB sfizz_render's 16-bit output is its noise floor, Polyphon's silence.
            shown = '–' if math.isnan(values[0]) or silent else f'{values[0]:+.2f}'
            diff = '–' if shown == '–' or math.isnan(values[1]) else f'{values[1] - values[0]:+.2f}'
            print(f'| {time:.2f} | {shown} | {diff} |')
            if diff != '–': summary.append((i, unit, values[0], values[1] - values[0]))
    print('\n| modulation | unit | sfizz from … to | largest \\|Polyphon − sfizz\\| |\n|---|---|---|---|')
    for i, (key, quantity, opcodes, title) in enumerate(NOTES[1:], start=1):
        rows = [r for r in summary if r[0] == i]
        print(f'| {title} | {rows[0][1]} | {min(r[2] for r in rows):+.1f} … {max(r[2] for r in rows):+.1f} | '
              f'{max(abs(r[3]) for r in rows):.2f} |')

main()
