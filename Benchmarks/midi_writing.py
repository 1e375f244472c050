"""A one-track MIDI file from timed events, for the comparison scripts."""
import struct

def write_timed_midi(path, timed, end_tick=None):
    """`timed`: (tick, event bytes) pairs, 960 ticks a second (480 per beat at 120 bpm), in any
    order; written sorted by tick. The track ends at `end_tick`, or a second after the last event."""
    def vlq(n):
        out = [n & 0x7F]; n >>= 7
        while n: out.insert(0, (n & 0x7F) | 0x80); n >>= 7
        return bytes(out)
    events, last = vlq(0) + b'\xff\x51\x03' + struct.pack('>I', 500000)[1:], 0
    for tick, data in sorted(timed, key=lambda e: e[0]):
        events += vlq(tick - last) + data; last = tick
    events += vlq(960 if end_tick is None else end_tick - last) + b'\xff\x2f\x00'
    open(path, 'wb').write(b'MThd' + struct.pack('>IHHH', 6, 0, 1, 480) + b'MTrk'
                           + struct.pack('>I', len(events)) + events)
