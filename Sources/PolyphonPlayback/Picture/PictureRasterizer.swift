import Foundation

extension PictureDrawing {
    /// The drawing as a palette image, the text drawn with the embedded bitmap font.
    ///
    /// A palette holds 256 colours; a drawing with more (a picture has at most about 150) has
    /// the rest drawn in the nearest colour already there.
    public func rasterized() -> PNGImage {
        var palette: [(UInt8, UInt8, UInt8)] = [(background.red, background.green, background.blue)]
        var index: [Colour: UInt8] = [background: 0]
        func paletteIndex(_ c: Colour) -> UInt8 {
            if let i = index[c] { return i }
            if palette.count < 256 {
                palette.append((c.red, c.green, c.blue))
                index[c] = UInt8(palette.count - 1)
                return UInt8(palette.count - 1)
            }
            func distance(_ p: (UInt8, UInt8, UInt8)) -> Int {
                let dr = Int(p.0) - Int(c.red), dg = Int(p.1) - Int(c.green), db = Int(p.2) - Int(c.blue)
                return dr * dr + dg * dg + db * db
            }
            let nearest = UInt8(palette.indices.min { distance(palette[$0]) < distance(palette[$1]) }!)
            index[c] = nearest
            return nearest
        }
        var image = PNGImage(width: width, height: height, palette: [(0, 0, 0)])
        for element in elements {
            switch element {
            case let .rectangle(x, y, w, h, colour):
                image.fill(x0: x, x1: x + w, y0: y, y1: y + h, paletteIndex(colour))
            case let .text(string, x, y, size, colour, anchor):
                let font = size == .small ? BitmapFont.small : BitmapFont.large
                let left = Self.left(of: Self.textWidth(string, size: size), at: x, anchor: anchor)
                let i = paletteIndex(colour)
                font.draw(string, x: left, y: y) { image.set($0, $1, i) }
            }
        }
        image.palette = palette
        return image
    }

    /// The drawing as a PNG file's bytes.
    public func pngData() -> Data { rasterized().encoded() }
}
