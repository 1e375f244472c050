extension PictureDrawing {
    /// The drawing as an SVG document: rectangles as `<rect>`, text as `<text>` in the
    /// reader's monospaced font, sized so that its characters advance as the bitmap font's do
    /// (a monospaced character is about 0.6 em wide), so the layout holds.
    public func svg() -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
            viewBox="0 0 \(width) \(height)" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace">
            <rect width="\(width)" height="\(height)" fill="\(background.hex)"/>

            """
        out.reserveCapacity(elements.count * 64)
        for element in elements {
            switch element {
            case let .rectangle(x, y, w, h, colour):
                out += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(w)\" height=\"\(h)\" fill=\"\(colour.hex)\"/>\n"
            case let .text(string, x, y, size, colour, anchor):
                let fontSize = Double(size.advance) / 0.6
                let anchorName = switch anchor {
                case .start: "start"
                case .middle: "middle"
                case .end: "end"
                }
                out += "<text x=\"\(x)\" y=\"\(y + size.ascent)\" font-size=\"\(Self.decimal(fontSize))\" "
                    + "fill=\"\(colour.hex)\" text-anchor=\"\(anchorName)\" xml:space=\"preserve\">"
                    + Self.escaped(string) + "</text>\n"
            }
        }
        out += "</svg>\n"
        return out
    }

    /// `value` with at most two decimals.
    private static func decimal(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return fraction == 0 ? "\(hundredths / 100)"
            : "\(hundredths / 100)." + (fraction < 10 ? "0\(fraction)" : String(fraction % 10 == 0 ? fraction / 10 : fraction))
    }

    /// `text` safe as XML character data: markup characters escaped, and the control
    /// characters XML 1.0 forbids replaced.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
