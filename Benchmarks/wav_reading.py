"""WAV files as numpy arrays, for the comparison scripts beside this file."""
import struct
import numpy as np

def read_wav(path):
    """The file's frames as floats (frames × channels): 16- and 24-bit integer or 32-bit float."""
    b = open(path, 'rb').read(); i = 12
    while i < len(b):
        cid, n = b[i:i + 4], struct.unpack('<I', b[i + 4:i + 8])[0]; body = b[i + 8:i + 8 + n]
        if cid == b'fmt ': tag, channels, _, _, _, bits = struct.unpack('<HHIIHH', body[:16])
        if cid == b'data': data = body
        i += 8 + n + (n & 1)
    if bits == 16: x = np.frombuffer(data, '<i2') / 32768
    elif bits == 24:
        a = np.frombuffer(data, np.uint8).reshape(-1, 3).astype(np.int32)
        x = ((a[:, 0] | (a[:, 1] << 8) | (a[:, 2] << 16)) << 8 >> 8) / 8388608
    else: x = np.frombuffer(data, '<f4')
    return x.reshape(-1, channels)
