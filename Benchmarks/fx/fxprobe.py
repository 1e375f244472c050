#!/usr/bin/env python3
"""Measure FluidSynth's reverb and chorus so Polyphon's effects can be compared with them.

Builds a tiny SoundFont (one generated click sample, no loop) and a MIDI file in a temporary
directory, renders it with the installed `fluidsynth` with the effect on and off, and subtracts
the two renders to get the effect's own output ("mix" mode adds it to the dry buffers). The
effect bus input is reconstructed from the dry render: a centred voice reaches the dry buffers as
s·cos(π/4) and s·sin(π/4) and the effect bus as s·send, with send = 0.2 for CC91/CC93 = 127.

Usage:
  fxprobe.py reverb [--room R] [--damp D] [--width W] [--level L] [--seconds S]
  fxprobe.py chorus [--nr N] [--level L] [--speed HZ] [--depth MS]   (2.3 has no waveform setting)
  fxprobe.py table            # the comparison grid used in the report
Add --noise SECONDS to play white noise instead of the click (level measurements), --json for
machine-readable output, --dump PREFIX to write the effect input/output as
raw float32 (for listening or further analysis).
"""
import argparse, json, os, shutil, struct, subprocess, sys, tempfile
import numpy as np

RATE = 44100
CLICK_AT = 2000          # samples of silence before the click: past FluidSynth's 1 ms delay+attack
SEND = 0.2               # CC91/CC93 = 127 through the default modulators (200 per mille)


def chunk(tag, data):
    pad = b"\0" if len(data) % 2 else b""
    return tag + struct.pack("<I", len(data)) + data + pad


def list_chunk(tag, chunks):
    body = tag + b"".join(chunks)
    return b"LIST" + struct.pack("<I", len(body)) + body


def build_sf2(path, samples):
    """A minimal SF2 2.01: preset 0:0 → instrument → one sample played at its root key 60."""
    pcm = np.clip(np.round(samples * 32767), -32768, 32767).astype("<i2").tobytes()
    pcm += b"\0" * 92  # the 46 zero samples the spec requires after each sample
    info = list_chunk(b"INFO", [chunk(b"ifil", struct.pack("<HH", 2, 1)),
                                chunk(b"isng", b"EMU8000\0"), chunk(b"INAM", b"fxprobe\0")])
    sdta = list_chunk(b"sdta", [chunk(b"smpl", pcm)])
    name = lambda s: s.encode().ljust(20, b"\0")
    phdr = name("click") + struct.pack("<HHHIII", 0, 0, 0, 0, 0, 0) + \
        name("EOP") + struct.pack("<HHHIII", 0, 0, 1, 0, 0, 0)
    pbag = struct.pack("<HH", 0, 0) + struct.pack("<HH", 1, 0)
    pmod = b"\0" * 10
    pgen = struct.pack("<HH", 41, 0) + struct.pack("<HH", 0, 0)            # instrument 0
    inst = name("click") + struct.pack("<H", 0) + name("EOI") + struct.pack("<H", 1)
    ibag = struct.pack("<HH", 0, 0) + struct.pack("<HH", 3, 0)
    imod = b"\0" * 10
    igen = struct.pack("<Hh", 54, 0) + struct.pack("<Hh", 58, 60) + struct.pack("<HH", 53, 0) \
        + struct.pack("<HH", 0, 0)
    n = len(samples)
    shdr = name("click") + struct.pack("<IIIIIBbHH", 0, n, 0, n - 1, RATE, 60, 0, 0, 1) + \
        name("EOS") + struct.pack("<IIIIIBbHH", 0, 0, 0, 0, 0, 0, 0, 0, 0)
    pdta = list_chunk(b"pdta", [chunk(b"phdr", phdr), chunk(b"pbag", pbag), chunk(b"pmod", pmod),
                                chunk(b"pgen", pgen), chunk(b"inst", inst), chunk(b"ibag", ibag),
                                chunk(b"imod", imod), chunk(b"igen", igen), chunk(b"shdr", shdr)])
    body = b"sfbk" + info + sdta + pdta
    with open(path, "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", len(body)) + body)


def build_mid(path, cc, seconds, note_seconds=0.1):
    """A format-0 SMF, 1000 ticks per quarter at 120 BPM (1 tick = 0.5 ms), written by hand."""
    def vlq(n):
        out = [n & 0x7F]
        n >>= 7
        while n:
            out.insert(0, (n & 0x7F) | 0x80); n >>= 7
        return bytes(out)
    ev = b"".join([
        vlq(0) + bytes([0xB0, 7, 127]), vlq(0) + bytes([0xB0, 10, 64]), vlq(0) + bytes([0xB0, cc, 127]),
        vlq(0) + bytes([0x90, 60, 127]), vlq(int(note_seconds * 2000)) + bytes([0x80, 60, 0]),
        # a harmless late event keeps the player (and so the render) running through the tail
        vlq(int(seconds * 2000)) + bytes([0xB0, cc, 127]), vlq(0) + b"\xff\x2f\x00"])
    with open(path, "wb") as f:
        f.write(b"MThd" + struct.pack(">IHHH", 6, 0, 1, 1000) + b"MTrk" + struct.pack(">I", len(ev)) + ev)


def read_float_wav(path):
    with open(path, "rb") as f:
        data = f.read()
    pos = 12
    while pos < len(data):
        tag, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        if tag == b"data":
            a = np.frombuffer(data[pos + 8:pos + 8 + size], dtype="<f4")
            return a.reshape(-1, 2).astype(np.float64)
        pos += 8 + size + (size & 1)
    raise ValueError("no data chunk in " + path)


def render(tmp, options, tag):
    out = os.path.join(tmp, tag + ".wav")
    cmd = ["fluidsynth", "-ni", "-F", out, "-r", str(RATE), "-g", "1", "-O", "float",
           "-T", "wav"]
    for o in options:
        cmd += ["-o", o]
    cmd += [os.path.join(tmp, "bank.sf2"), os.path.join(tmp, "song.mid")]
    run = subprocess.run(cmd, check=True, capture_output=True, text=True)
    # FluidSynth falls back to its default bank when ours fails to load: never measure that.
    if "Failed to load" in run.stdout + run.stderr:
        raise RuntimeError("fluidsynth rejected the generated SoundFont:\n" + run.stderr)
    return read_float_wav(out)


def probe(kind, settings, seconds, clicks=1, spacing=4410, noise=0.0):
    tmp = tempfile.mkdtemp(prefix="fxprobe-")
    try:
        # one click, or a train of them to follow a chorus voice's delay through time
        click = np.zeros(CLICK_AT + (clicks - 1) * spacing + 64)
        click[CLICK_AT + spacing * np.arange(clicks)] = 1.0
        if noise > 0:   # or a burst of seeded white noise, for level measurements
            burst = np.random.default_rng(1).uniform(-0.5, 0.5, int(noise * RATE))
            click = np.concatenate([np.zeros(CLICK_AT), burst, np.zeros(64)])
        build_sf2(os.path.join(tmp, "bank.sf2"), click)
        # the note is held as long as the sample lasts (a click train needs the voice alive)
        build_mid(os.path.join(tmp, "song.mid"), 91 if kind == "reverb" else 93, seconds,
                  note_seconds=len(click) / RATE + 0.01)
        if kind == "reverb":
            base = ["synth.chorus.active=0"] + [f"synth.reverb.{k}={v}" for k, v in settings.items()]
            wet = render(tmp, base + ["synth.reverb.active=1"], "wet")
            dry = render(tmp, base + ["synth.reverb.active=0"], "dry")
        else:
            base = ["synth.reverb.active=0"] + [f"synth.chorus.{k}={v}" for k, v in settings.items()]
            wet = render(tmp, base + ["synth.chorus.active=1"], "wet")
            dry = render(tmp, base + ["synth.chorus.active=0"], "dry")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    n = min(len(wet), len(dry))
    effect = wet[:n] - dry[:n]
    fx_in = SEND * (dry[:n, 0] + dry[:n, 1]) / np.sqrt(2.0)
    return fx_in, effect


# ---------------------------------------------------------------- analysis (mirrored in Swift)
def schroeder_db(energy):
    tail = np.cumsum(energy[::-1])[::-1]
    tail = np.maximum(tail, 1e-300)
    return 10 * np.log10(tail / tail[0])


def rt60(x, rate=RATE, top=-5.0, bottom=-25.0):
    """RT60 from the slope of the Schroeder curve between `top` and `bottom` dB (T20 by default)."""
    edc = schroeder_db(x)
    i0 = np.argmax(edc <= top); i1 = np.argmax(edc <= bottom)
    if i1 <= i0:
        return float("nan")
    t = np.arange(i0, i1) / rate
    slope = np.polyfit(t, edc[i0:i1], 1)[0]
    return -60.0 / slope


def band(x, centre, rate=RATE):
    from scipy.signal import butter, sosfilt
    lo, hi = centre / np.sqrt(2), min(centre * np.sqrt(2), rate * 0.45)
    sos = butter(4, [lo, hi], btype="bandpass", fs=rate, output="sos")
    return sosfilt(sos, x)


BANDS = (250, 1000, 4000, 8000)
REVERB_GRID = ((0.2, 0.0), (0.0, 0.0), (0.5, 0.0), (0.8, 0.0), (1.0, 0.0), (0.2, 0.5), (0.2, 1.0), (0.8, 0.5))


def analyse_reverb(fx_in, eff):
    start = int(np.argmax(np.abs(fx_in) > 0))
    e_in = float(np.sum(fx_in ** 2))
    l, r = eff[start:, 0], eff[start:, 1]
    energy = l ** 2 + r ** 2
    res = {
        "gain_db": 10 * np.log10(0.5 * np.sum(energy) / e_in),
        "rt60": rt60(energy),
        "rt60_t30": rt60(energy, bottom=-35.0),
        "corr": float(np.sum(l * r) / np.sqrt(np.sum(l * l) * np.sum(r * r))),
        "onset_ms": 1000.0 * int(np.argmax(np.abs(l) + np.abs(r) > 1e-3 * np.max(np.abs(l) + np.abs(r)))) / RATE,
    }
    for c in BANDS:
        bl, br = band(l, c), band(r, c)
        be = bl ** 2 + br ** 2
        res[f"rt60_{c}"] = rt60(be)
        # relative to the same band of the input, so the click's own spectrum drops out
        res[f"gain_db_{c}"] = 10 * np.log10(0.5 * np.sum(be) / np.sum(band(fx_in[start:], c) ** 2))
    return res


def analyse_chorus(fx_in, eff):
    start = int(np.argmax(np.abs(fx_in) > 0))
    e_in = float(np.sum(fx_in ** 2))
    l, r = eff[start:, 0], eff[start:, 1]
    res = {"gain_db": 10 * np.log10(0.5 * np.sum(l ** 2 + r ** 2) / e_in),
           "gain_db_left": 10 * np.log10(np.sum(l ** 2) / e_in),
           "gain_db_right": 10 * np.log10(np.sum(r ** 2) / e_in)}
    # where the click's copies land: delays (ms) of the strongest taps per channel
    for name, ch in (("left", l), ("right", r)):
        idx = np.argsort(-np.abs(ch[:4096]))[:6]
        res[f"taps_ms_{name}"] = sorted(round(1000.0 * i / RATE, 2) for i in idx)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=["reverb", "chorus", "table"])
    ap.add_argument("--room", type=float, default=0.2); ap.add_argument("--damp", type=float, default=0.0)
    ap.add_argument("--width", type=float, default=0.5); ap.add_argument("--level", type=float)
    ap.add_argument("--nr", type=int, default=3); ap.add_argument("--speed", type=float, default=0.3)
    ap.add_argument("--depth", type=float, default=8.0)
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--noise", type=float, default=0.0, help="seconds of white noise instead of a click")
    ap.add_argument("--json", action="store_true"); ap.add_argument("--dump")
    a = ap.parse_args()
    if a.kind == "table":
        rows = []
        for room, damp in REVERB_GRID:
            fx_in, eff = probe("reverb", {"room-size": room, "damp": damp, "width": 0.5, "level": 0.9},
                               seconds=max(8.0, 30.0 * room))
            rows.append(dict(kind="reverb", room=room, damp=damp, **analyse_reverb(fx_in, eff)))
        for width in (0.0, 1.0, 10.0):
            fx_in, eff = probe("reverb", {"room-size": 0.2, "damp": 0.0, "width": width, "level": 0.9}, 8.0)
            rows.append(dict(kind="reverb-width", width=width, **analyse_reverb(fx_in, eff)))
        for nr, level in ((1, 2.0), (2, 2.0), (3, 2.0), (4, 2.0), (5, 2.0), (3, 1.0)):
            fx_in, eff = probe("chorus", {"nr": nr, "level": level, "speed": 0.3, "depth": 8.0}, 3.0, noise=2.0)
            rows.append(dict(kind="chorus", nr=nr, level=level, **analyse_chorus(fx_in, eff)))
        if a.json:
            print(json.dumps(rows, indent=1)); return
        for r in rows:
            if r["kind"] == "reverb":
                print(f"reverb room {r['room']:.1f} damp {r['damp']:.1f}: gain {r['gain_db']:6.2f} dB  "
                      f"RT60 {r['rt60']:6.3f} s (T30 {r['rt60_t30']:6.3f})  corr {r['corr']:.3f}  bands " +
                      "  ".join(f"{c}: {r[f'rt60_{c}']:.3f} s {r[f'gain_db_{c}']:.2f} dB" for c in BANDS))
            elif r["kind"] == "reverb-width":
                print(f"reverb width {r['width']:.1f}: gain {r['gain_db']:6.2f} dB  corr {r['corr']:.3f}")
            else:
                print(f"chorus nr {r['nr']} level {r['level']:.1f}: gain {r['gain_db']:6.2f} dB "
                      f"(L {r['gain_db_left']:.2f} R {r['gain_db_right']:.2f})")
        return
    if a.kind == "reverb":
        s = {"room-size": a.room, "damp": a.damp, "width": a.width, "level": 0.9 if a.level is None else a.level}
        fx_in, eff = probe("reverb", s, a.seconds, noise=a.noise)
        res = analyse_reverb(fx_in, eff)
    else:
        s = {"nr": a.nr, "level": 2.0 if a.level is None else a.level, "speed": a.speed, "depth": a.depth}
        fx_in, eff = probe("chorus", s, a.seconds, noise=a.noise)
        res = analyse_chorus(fx_in, eff)
    if a.dump:
        fx_in.astype("<f4").tofile(a.dump + ".in.f32"); eff.astype("<f4").tofile(a.dump + ".out.f32")
    res = {k: (round(v, 4) if isinstance(v, float) else v) for k, v in res.items()}
    print(json.dumps(dict(settings=s, **res)) if a.json else "\n".join(f"{k}: {v}" for k, v in res.items()))


if __name__ == "__main__":
    main()
