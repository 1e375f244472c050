import Foundation

/// Reads the loop points of a WAV (`smpl`, `cue `), AIFF (`MARK`, `INST`) or Ogg (Vorbis or
/// Opus comments) file with a Python standard-library parser that shares no code with
/// Polyphon's writers; for Ogg it checks every page's sequence number and checksum.
public enum LoopPointReader {
    /// Prints `key=value` lines of what it finds: `smpl=TYPE,START,END`, `cue=FRAME`,
    /// `frames=N` (WAV); `markID=FRAME`, `sustain=MODE,BEGIN,END` (AIFF); each comment and
    /// `pages=N` (Ogg).
    static let script = #"""
import struct, sys
path, kind = sys.argv[1], sys.argv[2]
data = open(path, 'rb').read()
def chunks(body, big):
    i = 0
    while i + 8 <= len(body):
        cid = body[i:i+4]; size = struct.unpack('>I' if big else '<I', body[i+4:i+8])[0]
        yield cid, body[i+8:i+8+size]
        i += 8 + size + (size & 1)
if kind == 'wav':
    assert data[:4] == b'RIFF' and data[8:12] == b'WAVE'
    assert struct.unpack('<I', data[4:8])[0] == len(data) - 8, 'RIFF size'
    for cid, body in chunks(data[12:], False):
        if cid == b'smpl':
            n = struct.unpack('<I', body[28:32])[0]
            for k in range(n):
                ident, typ, start, end, frac, count = struct.unpack('<6I', body[36+24*k:60+24*k])
                print(f'smpl={typ},{start},{end}')
        if cid == b'cue ':
            n = struct.unpack('<I', body[:4])[0]
            for k in range(n):
                print('cue=%d' % struct.unpack('<I', body[4+24*k+20:4+24*k+24])[0])
        if cid == b'data':
            print('frames=%d' % (len(body) // 4))
elif kind == 'aiff':
    assert data[:4] == b'FORM' and data[8:12] == b'AIFF'
    assert struct.unpack('>I', data[4:8])[0] == len(data) - 8, 'FORM size'
    marks = {}
    for cid, body in chunks(data[12:], True):
        if cid == b'MARK':
            n = struct.unpack('>H', body[:2])[0]; i = 2
            for _ in range(n):
                ident, pos = struct.unpack('>HI', body[i:i+6]); length = body[i+6]
                marks[ident] = pos; i += 6 + 1 + length + ((1 + length) & 1)
        if cid == b'INST':
            mode, begin, end = struct.unpack('>3H', body[8:14])
            print(f'sustain={mode},{begin},{end}')
    for ident in sorted(marks): print(f'mark{ident}={marks[ident]}')
else:  # Ogg: pages checked against their checksums, the second packet's comments
    def crc(b):
        r = 0
        for x in b:
            r ^= x << 24
            for _ in range(8): r = ((r << 1) ^ 0x04C11DB7) & 0xFFFFFFFF if r & 0x80000000 else (r << 1) & 0xFFFFFFFF
        return r
    i, packets, partial, expected = 0, [], b'', 0
    while i < len(data):
        assert data[i:i+4] == b'OggS'
        seq, stored, nseg = struct.unpack('<IIB', data[i+18:i+27])
        assert seq == expected, f'page {expected} numbered {seq}'; expected += 1
        table = data[i+27:i+27+nseg]; size = 27 + nseg + sum(table)
        page = bytearray(data[i:i+size]); page[22:26] = b'\0\0\0\0'
        assert crc(bytes(page)) == stored, f'checksum of page {seq}'
        body = data[i+27+nseg:i+size]; p = 0
        for lace in table:
            partial += body[p:p+lace]; p += lace
            if lace < 255: packets.append(partial); partial = b''
        i += size
    comment = packets[1]
    comment = comment[7:] if comment[:7] == b'\x03vorbis' else comment[8:]
    n = struct.unpack('<I', comment[:4])[0]; j = 4 + n
    count = struct.unpack('<I', comment[j:j+4])[0]; j += 4
    for _ in range(count):
        n = struct.unpack('<I', comment[j:j+4])[0]; print(comment[j+4:j+4+n].decode()); j += 4 + n
    print(f'pages={expected}')
"""#

    /// The reader's output lines for the file at `path`, `kind` being `wav`, `aiff` or `ogg`.
    public static func read(_ path: String, _ kind: String) throws -> (status: Int32, lines: [String], stderr: String) {
        let result = try runProcess("/usr/bin/python3", ["-c", script, path, kind])
        return (result.status, result.stdout.split(separator: "\n").map(String.init), result.stderr)
    }
}
