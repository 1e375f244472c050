import Foundation

/// An 8-bit palette image written as PNG: what render pictures are drawn into.
///
/// The pixel data is compressed with zlib's `compress2` at its default level (6) when libz can
/// be loaded at run time (it is on every Linux and macOS system); without it the image is
/// written with stored (uncompressed) deflate blocks, still a valid PNG. Level 9 would make a
/// render picture a third smaller (14 kB instead of 19) at three times the time (100 ms).
public struct PNGImage: Sendable {
    public let width: Int
    public let height: Int
    /// Up to 256 colours, (red, green, blue).
    public var palette: [(UInt8, UInt8, UInt8)]
    /// `width × height` palette indices, row by row from the top.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, palette: [(UInt8, UInt8, UInt8)], background: UInt8 = 0) {
        precondition(width > 0 && height > 0 && !palette.isEmpty && palette.count <= 256)
        self.width = width
        self.height = height
        self.palette = palette
        pixels = [UInt8](repeating: background, count: width * height)
    }

    /// Sets one pixel (ignored outside the image).
    @inline(__always)
    public mutating func set(_ x: Int, _ y: Int, _ colour: UInt8) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        pixels[y * width + x] = colour
    }

    /// Fills the rectangle `x0..<x1`, `y0..<y1` (clipped).
    public mutating func fill(x0: Int, x1: Int, y0: Int, y1: Int, _ colour: UInt8) {
        let xa = max(0, x0), xb = min(width, x1), ya = max(0, y0), yb = min(height, y1)
        guard xa < xb else { return }
        for y in ya..<max(ya, yb) {
            for x in xa..<xb { pixels[y * width + x] = colour }
        }
    }

    /// The PNG file's bytes.
    public func encoded() -> Data {
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header.append(contentsOf: [8, 3, 0, 0, 0])  // 8-bit palette indices, no interlace
        png.appendChunk("IHDR", header)
        png.appendChunk("PLTE", Data(palette.flatMap { [$0.0, $0.1, $0.2] }))
        // Each row: filter type 0 (none), then its indices.
        var raw = [UInt8]()
        raw.reserveCapacity(height * (width + 1))
        for y in 0..<height {
            raw.append(0)
            raw.append(contentsOf: pixels[y * width..<(y + 1) * width])
        }
        png.appendChunk("IDAT", ZlibStream.compress(raw))
        png.appendChunk("IEND", Data())
        return png
    }
}

/// zlib streams for PNG: libz's `compress2` loaded at run time, else stored deflate blocks.
enum ZlibStream {
    private typealias Compress2 = @convention(c) (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt>,
                                                  UnsafePointer<UInt8>, UInt, Int32) -> Int32
    private typealias CompressBound = @convention(c) (UInt) -> UInt
    private struct Library: @unchecked Sendable {
        let compress2: Compress2
        let bound: CompressBound
    }

    private static let library: Library? = {
        for name in ["libz.so.1", "libz.so", "libz.1.dylib", "libz.dylib"] {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { continue }
            if let c = dlsym(handle, "compress2"), let b = dlsym(handle, "compressBound") {
                return Library(compress2: unsafeBitCast(c, to: Compress2.self), bound: unsafeBitCast(b, to: CompressBound.self))
            }
            dlclose(handle)
        }
        return nil
    }()

    static func compress(_ bytes: [UInt8]) -> Data {
        if let library {
            var length = library.bound(UInt(bytes.count))
            var out = [UInt8](repeating: 0, count: Int(length))
            let status = bytes.withUnsafeBufferPointer { input in
                library.compress2(&out, &length, input.baseAddress!, UInt(bytes.count), 6)
            }
            if status == 0 { return Data(out[..<Int(length)]) }
        }
        return stored(bytes)
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    static func stored(_ bytes: [UInt8]) -> Data {
        var out = Data([0x78, 0x01])
        var start = 0
        repeat {
            let n = min(65_535, bytes.count - start)
            let last: UInt8 = start + n == bytes.count ? 1 : 0
            out.append(last)
            out.append(contentsOf: [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)])
            out.append(contentsOf: bytes[start..<start + n])
            start += n
        } while start < bytes.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        out.appendBigEndian(b << 16 | a)
        return out
    }
}

extension Data {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
    }

    /// Appends a PNG chunk: length, type, data, CRC-32 of type and data.
    mutating func appendChunk(_ type: String, _ data: Data) {
        appendBigEndian(UInt32(data.count))
        let body = Data(type.utf8) + data
        append(body)
        appendBigEndian(CRC32.checksum(body))
    }
}

/// CRC-32 (ISO 3309, as PNG uses it).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ data: Data) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in data { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
