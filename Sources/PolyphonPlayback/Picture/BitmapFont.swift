/// The bitmap font render pictures draw their text with: Spleen (BSD 2-Clause, by Frederic
/// Cambus) in its 8 × 16 and 12 × 24 sizes, printable ASCII, Latin-1 and Latin Extended-A
/// (``SpleenGlyphs``, converted by `Scripts/make-picture-font.py`, which redraws 0, 4, D and w
/// so they cannot pass for 8, H, O and u). A character it lacks is drawn as its nearest ASCII
/// look-alike (− as -) or as `?`.
struct BitmapFont: Sendable {
    /// Cell width and height, pixels.
    let width: Int
    let height: Int
    /// Rows from the top of the cell to the baseline.
    let ascent: Int
    /// Each glyph's rows, top first, the leftmost pixel in the row's most significant of `width` bits.
    private let glyphs: [UInt32: [UInt16]]

    static let small = BitmapFont(data: SpleenGlyphs.small, width: 8, height: 16)
    static let large = BitmapFont(data: SpleenGlyphs.large, width: 12, height: 24)

    private init(data: String, width: Int, height: Int) {
        self.width = width
        self.height = height
        let rowBytes = (width + 7) / 8
        var glyphs: [UInt32: [UInt16]] = [:]
        for line in data.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let codePoint = UInt32(fields[0], radix: 16) else { continue }
            let hex = Array(fields[1].utf8)
            var rows: [UInt16] = []
            rows.reserveCapacity(height)
            for row in 0..<height {
                var bits: UInt16 = 0
                for digit in hex[(row * rowBytes * 2)..<((row + 1) * rowBytes * 2)] {
                    bits = bits << 4 | UInt16(Self.hexValue(digit))
                }
                // Row bytes are left-aligned: drop the padding bits on the right.
                rows.append(bits >> UInt16(rowBytes * 8 - width))
            }
            glyphs[codePoint] = rows
        }
        self.glyphs = glyphs
        // The baseline is under the letter H.
        let h = glyphs[0x48] ?? []
        ascent = (h.lastIndex { $0 != 0 } ?? (height - 1)) + 1
    }

    private static func hexValue(_ digit: UInt8) -> UInt8 {
        switch digit {
        case 0x30...0x39: digit - 0x30
        case 0x41...0x46: digit - 0x41 + 10
        case 0x61...0x66: digit - 0x61 + 10
        default: 0
        }
    }

    /// The rows of `scalar`'s glyph (or its stand-in's).
    func rows(_ scalar: Unicode.Scalar) -> [UInt16] {
        if let g = glyphs[scalar.value] { return g }
        let standIn: Unicode.Scalar = switch scalar.value {
        case 0x2010...0x2015, 0x2212: "-"
        case 0x2018, 0x2019: "'"
        case 0x201C, 0x201D: "\""
        case 0x2026: "."
        case 0x2022: "·"
        default: "?"
        }
        return glyphs[standIn.value] ?? []
    }

    /// Draws `text` with its cell's top left at (`x`, `y`): `plot(x, y)` for every pixel set.
    func draw(_ text: String, x: Int, y: Int, plot: (Int, Int) -> Void) {
        var left = x
        for scalar in text.unicodeScalars {
            for (row, bits) in rows(scalar).enumerated() where bits != 0 {
                for column in 0..<width where bits & (1 << UInt16(width - 1 - column)) != 0 {
                    plot(left + column, y + row)
                }
            }
            left += width
        }
    }
}
