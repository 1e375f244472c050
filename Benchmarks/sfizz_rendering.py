"""Renders one SFZ and MIDI file with sfizz_render and with Polyphon, for the comparison scripts."""
import os
import subprocess
import sys
import tempfile

def comparison_arguments(prefix):
    """The comparison scripts' command line: SFIZZ_RENDER [POLYPHON] [WORKDIR] — sfizz_render's
    path, the polyphon binary (default .build/debug/polyphon) and a folder for the files (default
    a new temporary one named after `prefix`), which is made if missing."""
    if len(sys.argv) < 2:
        sys.exit(f'usage: {os.path.basename(sys.argv[0])} SFIZZ_RENDER [POLYPHON] [WORKDIR]')
    polyphon = sys.argv[2] if len(sys.argv) > 2 else '.build/debug/polyphon'
    work = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp(prefix=prefix)
    os.makedirs(work, exist_ok=True)
    return sys.argv[1], polyphon, work

def render_both(sfizz, polyphon, sfz, midi, sfizz_wav, polyphon_wav, rate, polyphon_rate=True, sfizz_block=None):
    """sfizz_render at `rate` (in blocks of `sfizz_block` frames, else its default 1024);
    `polyphon render` at `rate` too unless `polyphon_rate` is False (then at its default, 44100 Hz)."""
    block = ['-b', str(sfizz_block)] if sfizz_block else []
    subprocess.run([sfizz, '--sfz', sfz, '--midi', midi, '--wav', sfizz_wav, '-s', str(rate)] + block,
                   check=True, capture_output=True)
    rate_flags = ['--rate', str(rate)] if polyphon_rate else []
    subprocess.run([polyphon, 'render', midi, '-s', sfz, '-o', polyphon_wav] + rate_flags + ['-q'],
                   check=True, capture_output=True)
