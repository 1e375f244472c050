/// A picture as rectangles and text on a plain background, in pixels from the top left: laid
/// out once (``RenderPicture``), then rasterised with the embedded bitmap font
/// (``pngData()``) or written as SVG with the text as text (``svg()``).
public struct PictureDrawing: Sendable {
    /// A colour, 8 bits per channel.
    public struct Colour: Sendable, Hashable {
        public var red: UInt8, green: UInt8, blue: UInt8

        public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// `#rrggbb`.
        public var hex: String {
            let digits = Array("0123456789abcdef")
            return "#" + String([red, green, blue].flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
        }
    }

    /// The two sizes of text: the bitmap font's 8 × 16 and 12 × 24 cells.
    public enum TextSize: Sendable {
        case small, large

        /// Pixels from one character to the next.
        public var advance: Int { self == .small ? BitmapFont.small.width : BitmapFont.large.width }
        /// Pixels from the top of a line to the next.
        public var lineHeight: Int { self == .small ? BitmapFont.small.height : BitmapFont.large.height }
        /// Pixels from the top of a line to its baseline.
        public var ascent: Int { self == .small ? BitmapFont.small.ascent : BitmapFont.large.ascent }
    }

    /// Which point of a text its x is.
    public enum Anchor: Sendable {
        case start, middle, end
    }

    /// One thing drawn.
    public enum Element: Sendable {
        /// A filled rectangle.
        case rectangle(x: Int, y: Int, width: Int, height: Int, colour: Colour)
        /// One line of text whose cell's top is at `y`.
        case text(String, x: Int, y: Int, size: TextSize, colour: Colour, anchor: Anchor)
    }

    public let width: Int
    public let height: Int
    public var background: Colour
    /// In drawing order: later elements cover earlier ones.
    public var elements: [Element] = []

    public init(width: Int, height: Int, background: Colour) {
        precondition(width > 0 && height > 0)
        self.width = width
        self.height = height
        self.background = background
    }

    public mutating func fill(x: Int, y: Int, width: Int, height: Int, _ colour: Colour) {
        guard width > 0, height > 0 else { return }
        elements.append(.rectangle(x: x, y: y, width: width, height: height, colour: colour))
    }

    public mutating func text(_ string: String, x: Int, y: Int, size: TextSize = .small, _ colour: Colour,
                              anchor: Anchor = .start) {
        guard !string.isEmpty else { return }
        elements.append(.text(string, x: x, y: y, size: size, colour: colour, anchor: anchor))
    }

    /// The width `string` takes in `size`, in pixels.
    public static func textWidth(_ string: String, size: TextSize) -> Int {
        string.unicodeScalars.count * size.advance
    }

    /// The left edge of a text of `width` pixels whose anchor is at `x`.
    static func left(of width: Int, at x: Int, anchor: Anchor) -> Int {
        switch anchor {
        case .start: x
        case .middle: x - width / 2
        case .end: x - width
        }
    }
}
