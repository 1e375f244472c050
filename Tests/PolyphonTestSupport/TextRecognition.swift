import Foundation

/// Reading text back from a picture with Tesseract (Debian `tesseract-ocr`, which `.ci/run`
/// installs): tests of labelled pictures check what a reader would see, not what the code
/// meant to draw.
public enum TextRecognition {
    public static let tesseract = "/usr/bin/tesseract"

    /// Whether a test needing Tesseract should run: always under CI, else when installed.
    public static var available: Bool { RealFiles.toolAvailable("tesseract") }

    /// The text Tesseract finds in the palette PNG at `path`, page segmentation `mode` 11
    /// (sparse text: labels scattered over a picture, in no particular order).
    ///
    /// Tesseract reads letters best some 20 pixels tall, so the image is first enlarged
    /// `scale` times, each pixel repeated (nothing added), into a grey copy beside it.
    public static func text(ofImageAt path: String, scale: Int = 2, mode: Int = 11) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: tesseract) else {
            throw TestFailure("\(tesseract) is missing: apt-get install tesseract-ocr")
        }
        let scaled = path + ".x\(scale).png"
        let enlarge = try runProcess(RealFiles.python, ["-c", enlargeScript, path, scaled, "\(scale)"])
        guard enlarge.status == 0 else { throw TestFailure("enlarging \(path): \(enlarge.stderr)") }
        defer { try? FileManager.default.removeItem(atPath: scaled) }
        let result = try runProcess(tesseract, [scaled, "stdout", "--psm", "\(mode)"])
        guard result.status == 0 else { throw TestFailure("tesseract \(path) exited \(result.status): \(result.stderr)") }
        return result.stdout
    }

    /// Enlarges a palette PNG written with filter 0 (as Polyphon writes them) into a grey PNG.
    static let enlargeScript = #"""
        import struct, sys, zlib
        source, target, factor = sys.argv[1], sys.argv[2], int(sys.argv[3])
        data, pos, idat = open(source, "rb").read(), 8, b""
        while pos < len(data):
            length, kind = struct.unpack(">I4s", data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            if kind == b"IHDR": width, height = struct.unpack(">II", body[:8])
            if kind == b"PLTE": palette = [body[i:i + 3] for i in range(0, len(body), 3)]
            if kind == b"IDAT": idat += body
            pos += 12 + length
        grey = bytes(int(0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]) for c in palette)
        raw, out = zlib.decompress(idat), bytearray()
        for y in range(height):
            row = raw[y * (width + 1) + 1:(y + 1) * (width + 1)].translate(grey.ljust(256, b"\0"))
            line = b"\0" + bytes(v for v in row for _ in range(factor))
            out += line * factor
        def chunk(kind, body):
            return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
        open(target, "wb").write(b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width * factor, height * factor, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(out))) + chunk(b"IEND", b""))
        """#

    /// The words of `text`, for looking labels up whatever the line breaks; a point Tesseract
    /// set apart from its word ("song .mid") joined back to it.
    public static func words(_ text: String) -> [String] {
        text.replacingOccurrences(of: " .", with: ".").split { $0.isWhitespace }.map(String.init)
    }
}

/// Decodes a PNG file independently of Polyphon's writer (Python's zlib): signature, chunk
/// CRCs, the image data's size for its header; the image's size and the colours it uses.
public enum PNGCheck {
    public struct Summary: Sendable {
        public var width: Int
        public var height: Int
        public var colourType: Int
        /// How many distinct palette indices (or pixel values) the image uses.
        public var distinctValues: Int
    }

    static let script = #"""
        import struct, sys, zlib
        data = open(sys.argv[1], "rb").read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
        pos, chunks, idat = 8, [], b""
        while pos < len(data):
            length, kind = struct.unpack(">I4s", data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            crc, = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
            assert zlib.crc32(kind + body) & 0xffffffff == crc, "bad CRC in " + kind.decode()
            chunks.append(kind)
            if kind == b"IHDR":
                width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if kind == b"IDAT":
                idat += body
            pos += 12 + length
        assert chunks[0] == b"IHDR" and chunks[-1] == b"IEND", chunks
        assert depth == 8 and interlace == 0
        channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
        raw = zlib.decompress(idat)
        stride = width * channels + 1
        assert len(raw) == height * stride, (len(raw), height * stride)
        values = set()
        for y in range(height):
            row = raw[y * stride:(y + 1) * stride]
            assert row[0] == 0, "unexpected filter type"
            values.update(row[1:])
        print(width, height, colour, len(values))
        """#

    /// Decodes the PNG at `path`; throws when Python finds it invalid.
    public static func decode(_ path: String) throws -> Summary {
        let result = try runProcess(RealFiles.python, ["-c", script, path])
        let fields = result.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard result.status == 0, fields.count == 4 else {
            throw TestFailure("\(path) is not a valid PNG: \(result.stderr)")
        }
        return Summary(width: fields[0], height: fields[1], colourType: fields[2], distinctValues: fields[3])
    }
}
