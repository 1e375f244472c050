import Foundation

/// Reading text back from a picture with Tesseract (Debian `tesseract-ocr`, which `.ci/run`
/// installs): tests of labelled pictures check what a reader would see, not what the code
/// meant to draw.
public enum TextRecognition {
    public static let tesseract = "/usr/bin/tesseract"

    /// Whether a test needing Tesseract should run: always under CI, else when installed.
    public static var available: Bool { RealFiles.toolAvailable("tesseract") }

    /// The text Tesseract finds in the image at `path`, page segmentation `mode` 11 (sparse
    /// text: labels scattered over a picture, in no particular order).
    public static func text(ofImageAt path: String, mode: Int = 11) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: tesseract) else {
            throw TestFailure("\(tesseract) is missing: apt-get install tesseract-ocr")
        }
        let result = try runProcess(tesseract, [path, "stdout", "--psm", "\(mode)"])
        guard result.status == 0 else { throw TestFailure("tesseract \(path) exited \(result.status): \(result.stderr)") }
        return result.stdout
    }

    /// The words of `text` (letters, digits and the punctuation of times and names), for
    /// looking labels up whatever the line breaks.
    public static func words(_ text: String) -> [String] {
        text.split { $0.isWhitespace }.map(String.init)
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
