"""WAV files from numpy arrays, for the comparison scripts beside this file."""
import struct
import numpy as np

def write_wav16(path, points, rate):
    """`points` (floats, ±1 full scale) as a mono 16-bit PCM WAV at `rate`."""
    data = np.clip(np.round(np.asarray(points) * 32767), -32768, 32767).astype('<i2').tobytes()
    fmt = struct.pack('<HHIIHH', 1, 1, rate, rate * 2, 2, 16)
    body = b'WAVE' + b'fmt ' + struct.pack('<I', len(fmt)) + fmt + b'data' + struct.pack('<I', len(data)) + data
    open(path, 'wb').write(b'RIFF' + struct.pack('<I', len(body)) + body)
