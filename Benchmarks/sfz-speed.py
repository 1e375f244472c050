#!/usr/bin/env python3
"""Speed of SFZ voices: Polyphon against sfizz_render, and against the instrument's SF2 twin.

    Benchmarks/sfz-speed.py SFIZZ_RENDER [--polyphon PATH] [--repeats N] [--seconds S] [--notes K]

SFIZZ_RENDER is sfizz's `sfizz_render`, built from sfizz's sources outside the repository;
PATH defaults to .build/release/polyphon (build it with `swift build -c release --product polyphon`).
Writes into a temporary folder an SFZ instrument of 12 looped mono sine samples (one per
semitone, 16-bit WAV with a `smpl` loop, `loop_mode=loop_continuous`, `<control>
hint_ram_based=1` so sfizz holds the samples whole as Polyphon does), its SF2 twin
(`polyphon export-bank`), and a MIDI file holding K notes (default 48) for S seconds (default
60). Each renderer renders it, and an empty MIDI file whose time is the cost of starting and
loading; ns per voice-sample is (full − empty) / (K voices × S × 44 100), the times being CPU
time (user + system) of the process. Best of N runs (default 5) of each. Polyphon: one render
thread, cubic interpolation, reverb and chorus off; sfizz (one thread): quality 2 (Hermite cubic,
its default), no effects. Both write a 44.1 kHz WAV. Prints the figures and the ratios.
"""
import argparse, math, os, resource, shutil, struct, subprocess, tempfile

RATE = 44100

def write_wav(path, points, loop):
    data = struct.pack('<%dh' % len(points), *points)
    fmt = struct.pack('<HHIIHH', 1, 1, RATE, RATE * 2, 2, 16)
    smpl = struct.pack('<9I', 0, 0, int(1e9 / RATE), 60, 0, 0, 0, 1, 0) + struct.pack('<6I', 0, 0, loop[0], loop[1], 0, 0)
    body = (b'WAVE' + b'fmt ' + struct.pack('<I', len(fmt)) + fmt + b'data' + struct.pack('<I', len(data)) + data
            + b'smpl' + struct.pack('<I', len(smpl)) + smpl)
    open(path, 'wb').write(b'RIFF' + struct.pack('<I', len(body)) + body)

def write_midi(path, keys, seconds):
    def vlq(n):
        out = [n & 0x7F]; n >>= 7
        while n: out.insert(0, (n & 0x7F) | 0x80); n >>= 7
        return bytes(out)
    events = vlq(0) + b'\xff\x51\x03' + struct.pack('>I', 500000)[1:]   # 120 bpm, 480 ppq: 960 ticks/s
    for k in keys: events += vlq(0) + bytes([0x90, k, 100])
    end = int(seconds * 960)
    for i, k in enumerate(keys): events += vlq(end if i == 0 else 0) + bytes([0x80, k, 0])
    events += vlq(0) + b'\xff\x2f\x00'
    open(path, 'wb').write(b'MThd' + struct.pack('>IHHH', 6, 0, 1, 480) + b'MTrk' + struct.pack('>I', len(events)) + events)

def best_time(command, repeats):
    """The least CPU time (user + system, every thread) of `repeats` runs: on a shared machine
    the CPU a render used varies far less than its wall time."""
    best = None
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = t if best is None else min(best, t)
    return best

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('sfizz_render')
    ap.add_argument('--polyphon', default=os.path.join(os.path.dirname(__file__), '..', '.build', 'release', 'polyphon'))
    ap.add_argument('--repeats', type=int, default=5)
    ap.add_argument('--seconds', type=float, default=60)
    ap.add_argument('--notes', type=int, default=48)
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix='polyphon-sfz-speed-')
    try:
        regions = ['<control> hint_ram_based=1', '<global> loop_mode=loop_continuous ampeg_release=0.01']
        for n in range(12):
            key = 60 + n
            f = 440 * 2 ** ((key - 69) / 12)
            period = RATE / f
            cycles = max(1, round(4410 / period))          # ~0.1 s of whole cycles, looped
            length = round(cycles * period)
            points = [int(round(16000 * math.sin(2 * math.pi * i * cycles / length))) for i in range(length)]
            write_wav(os.path.join(work, 's%d.wav' % n), points, (0, length - 1))
            lo = 0 if n == 0 else key
            hi = 127 if n == 11 else key
            regions.append('<region> sample=s%d.wav lokey=%d hikey=%d pitch_keycenter=%d' % (n, lo, hi, key))
        sfz = os.path.join(work, 'sines.sfz')
        open(sfz, 'w').write('\n'.join(regions) + '\n')
        sf2 = os.path.join(work, 'sines.sf2')
        subprocess.run([a.polyphon, 'export-bank', sfz, '-o', sf2], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        keys = [36 + i % 60 for i in range(a.notes)]
        full, empty = os.path.join(work, 'full.mid'), os.path.join(work, 'empty.mid')
        write_midi(full, keys, a.seconds)
        write_midi(empty, [], 0)
        out = os.path.join(work, 'out.wav')
        voice_samples = a.notes * a.seconds * RATE

        def polyphon(bank, midi):
            return [a.polyphon, 'render', midi, '-o', out, '--soundfont', bank, '--no-reverb', '--no-chorus',
                    '--interpolation', 'cubic', '--tail', '0', '--polyphony', '256', '--threads', '1', '--quiet']
        def sfizz(midi):
            return [a.sfizz_render, '--sfz', sfz, '--midi', midi, '--wav', out, '-s', str(RATE), '-q', '2',
                    '-p', '256', '--use-eot']

        rows = []
        for name, make in [('polyphon, SFZ', lambda m: polyphon(sfz, m)), ('polyphon, SF2 twin', lambda m: polyphon(sf2, m)),
                           ('sfizz_render, SFZ', sfizz)]:
            base = best_time(make(empty), a.repeats)
            total = best_time(make(full), a.repeats)
            rows.append((name, total, base, max(total - base, 1e-9) * 1e9 / voice_samples))
        print('%d notes held %.0f s (%d voice-samples), best of %d' % (a.notes, a.seconds, voice_samples, a.repeats))
        print('%-20s %9s %9s %16s' % ('', 'full CPU s', 'empty s', 'ns/voice-sample'))
        for name, total, base, ns in rows:
            print('%-20s %9.3f %9.3f %16.2f' % (name, total, base, ns))
        sfizz_ns = rows[2][3]
        print('sfizz / polyphon SFZ: %.2f×   polyphon SF2 twin / SFZ: %.2f×' % (sfizz_ns / rows[0][3], rows[1][3] / rows[0][3]))
    finally:
        shutil.rmtree(work, ignore_errors=True)

if __name__ == '__main__':
    main()
