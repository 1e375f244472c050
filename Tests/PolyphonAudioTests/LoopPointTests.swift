import Foundation
import Testing

@testable import PolyphonAudio

/// Loop points written into WAV, AIFF, FLAC, Ogg Vorbis and Opus files, read back by readers
/// that share no code with the writers: a Python standard-library parser of the chunks and
/// pages (its own Ogg checksum), `metaflac`, `vorbiscomment` and `sox`.
@Suite struct LoopPointTests {
    static let loop = AudioLoopPoints(start: 1_000, end: 30_000)

    /// Writes one second of a stereo sine (44 100 frames; Opus at 48 kHz) and adds the loop points.
    static func file(_ format: AudioFileFormat, in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("loop.\(format.fileExtension)")
        let rate = format == .opus ? 48_000.0 : 44_100
        let writer = try makeAudioFileWriter(path: path, format: format, sampleFormat: .int16, channelCount: 2, sampleRate: rate)
        let tone = sine(frequency: 440, amplitude: 0.5, sampleRate: rate, frameCount: 44_100)
        try tone.withUnsafeBufferPointer { try writer.write(planar: [$0, $0], frameCount: 44_100) }
        try writer.close()
        try loop.write(intoFileAt: path, format: format)
        return path
    }

    /// The Python reader: prints `key=value` lines of what it finds.
    static let reader = #"""
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

    static func python(_ path: String, _ kind: String) throws -> [String] {
        let result = try runProcess("/usr/bin/python3", ["-c", reader, path, kind])
        #expect(result.status == 0, "python: \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test(.enabled(if: RealFiles.toolAvailable("python3"))) func wavCarriesASamplerLoopAndCuePoints() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file(.wav, in: directory)
        let lines = try Self.python(path, "wav")
        // The smpl chunk counts the loop's last frame, inclusive.
        #expect(lines.contains("smpl=0,1000,29999"))
        #expect(lines.contains("cue=1000"))
        #expect(lines.contains("cue=30000"))
        #expect(lines.contains("frames=44100"))
        #expect(try AudioFile(contentsOf: path).frameCount == 44_100)
        if RealFiles.toolAvailable("sox") { #expect(try SoxInfo(path).sampleCount == 44_100) }
    }

    @Test(.enabled(if: RealFiles.toolAvailable("python3"))) func aiffCarriesMarkersAndASustainLoop() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file(.aiff, in: directory)
        let lines = try Self.python(path, "aiff")
        #expect(lines.contains("mark1=1000"))
        #expect(lines.contains("mark2=30000"))
        #expect(lines.contains("sustain=1,1,2"))
        #expect(try AudioFile(contentsOf: path).frameCount == 44_100)
        if RealFiles.toolAvailable("sox") { #expect(try SoxInfo(path).sampleCount == 44_100) }
    }

    @Test(.enabled(if: RealFiles.libsndfileAvailable && RealFiles.toolAvailable("metaflac")))
    func flacCarriesLoopComments() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file(.flac, in: directory)
        let tags = try run(RealFiles.tool("metaflac") ?? "metaflac", ["--export-tags-to=-", path])
        #expect(tags.contains("LOOPSTART=1000"))
        #expect(tags.contains("LOOPLENGTH=29000"))
        // The audio is untouched: flac's own test decodes it, MD5 checked.
        if let flac = RealFiles.tool("flac") {
            #expect(try runProcess(flac, ["-t", "-s", path]).status == 0)
        }
        #expect(try AudioFile(contentsOf: path).frameCount == 44_100)
        // Written twice: the comments are replaced, not repeated.
        try Self.loop.write(intoFileAt: path, format: .flac)
        let again = try run(RealFiles.tool("metaflac") ?? "metaflac", ["--export-tags-to=-", path])
        #expect(again.components(separatedBy: "LOOPSTART=").count == 2)
    }

    @Test(.enabled(if: RealFiles.libsndfileAvailable && RealFiles.toolAvailable("vorbiscomment")))
    func oggVorbisCarriesLoopComments() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file(.ogg, in: directory)
        let tags = try run(RealFiles.tool("vorbiscomment") ?? "vorbiscomment", ["-l", path])
        #expect(tags.contains("LOOPSTART=1000"))
        #expect(tags.contains("LOOPLENGTH=29000"))
        let lines = try Self.python(path, "ogg")
        #expect(lines.contains("LOOPSTART=1000"))
        #expect(try AudioFile(contentsOf: path).frameCount == 44_100)
        if RealFiles.toolAvailable("sox") { #expect(try SoxInfo(path).sampleCount == 44_100) }
    }

    @Test(.enabled(if: RealFiles.libsndfileAvailable && RealFiles.toolAvailable("python3")))
    func opusCarriesLoopComments() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file(.opus, in: directory)
        let lines = try Self.python(path, "ogg")
        #expect(lines.contains("LOOPSTART=1000"))
        #expect(lines.contains("LOOPLENGTH=29000"))
        #expect(abs(try AudioFile(contentsOf: path).frameCount - 44_100) < 1_000)
    }

    @Test func aFileOfAnotherFormatIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file(.wav, in: directory)
        #expect(throws: AudioFileError.self) { try Self.loop.write(intoFileAt: path, format: .flac) }
        #expect(throws: AudioFileError.self) { try Self.loop.write(intoFileAt: path, format: .ogg) }
        #expect(throws: AudioFileError.self) { try Self.loop.write(intoFileAt: path, format: .aiff) }
    }
}
