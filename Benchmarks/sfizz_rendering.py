"""Renders one SFZ and MIDI file with sfizz_render and with Polyphon, for the comparison scripts."""
import subprocess

def render_both(sfizz, polyphon, sfz, midi, sfizz_wav, polyphon_wav, rate, polyphon_rate=True):
    """sfizz_render at `rate`; `polyphon render` at `rate` too unless `polyphon_rate` is False
    (then at its default, 44100 Hz)."""
    subprocess.run([sfizz, '--sfz', sfz, '--midi', midi, '--wav', sfizz_wav, '-s', str(rate)],
                   check=True, capture_output=True)
    rate_flags = ['--rate', str(rate)] if polyphon_rate else []
    subprocess.run([polyphon, 'render', midi, '-s', sfz, '-o', polyphon_wav] + rate_flags + ['-q'],
                   check=True, capture_output=True)
