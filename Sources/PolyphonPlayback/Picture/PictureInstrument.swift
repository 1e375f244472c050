import PolyphonMIDI

/// An instrument a song plays, as a picture names and colours it: a General MIDI program or a
/// drum kit.
///
/// Colours are fixed per instrument, so the same instrument looks the same in every picture of
/// a corpus: each of the 16 General MIDI families has a hue, and its eight programs eight
/// lightnesses of it; drum kits are greys. All are light enough to read as text on the dark
/// background.
public struct PictureInstrument: Sendable, Hashable {
    /// The program (0–127), or the kit for drums.
    public var program: Int
    /// Whether it is a drum kit.
    public var isDrumKit: Bool

    public init(program: Int, isDrumKit: Bool) {
        self.program = program
        self.isDrumKit = isDrumKit
    }

    /// The General MIDI name: "Acoustic Grand Piano", "Drums: Standard Kit".
    public var name: String {
        isDrumKit ? "Drums: " + GeneralMIDI.drumKitName(program) : GeneralMIDI.programName(program)
    }

    /// Its colour in pictures.
    public var colour: PictureDrawing.Colour {
        if isDrumKit {
            let grey = UInt8(176 + (program / 8 % 4) * 20)
            return PictureDrawing.Colour(grey, grey, grey)
        }
        let family = GeneralMIDI.family(ofProgram: program)
        let lightness = Self.lightnesses[program % 8]
        return Self.colour(hue: Self.familyHues[family], saturation: 0.75, lightness: lightness)
    }

    /// The instruments of `notes`: programs in order, then drum kits.
    public static func playing(in notes: [NoteLabel]) -> [PictureInstrument] {
        Set(notes.map { PictureInstrument(program: $0.program, isDrumKit: $0.isDrum) })
            .sorted { ($0.isDrumKit ? 1 : 0, $0.program) < ($1.isDrumKit ? 1 : 0, $1.program) }
    }

    /// Hue of each family (degrees), neighbours in the list far apart on the wheel: piano red,
    /// chromatic percussion gold, organ violet, guitar green, bass blue, strings magenta …
    static let familyHues: [Double] = [4, 46, 276, 118, 214, 326, 172, 28, 78, 194, 300, 246, 146, 14, 58, 346]
    /// Lightness of the eight programs of a family, alternating so neighbours differ most.
    static let lightnesses: [Double] = [0.64, 0.80, 0.58, 0.74, 0.68, 0.85, 0.61, 0.77]

    /// An HSL colour (hue in degrees, saturation and lightness 0–1).
    static func colour(hue: Double, saturation: Double, lightness: Double) -> PictureDrawing.Colour {
        let chroma = (1 - abs(2 * lightness - 1)) * saturation
        let h = hue.truncatingRemainder(dividingBy: 360) / 60
        let x = chroma * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double) = switch Int(h) {
        case 0: (chroma, x, 0)
        case 1: (x, chroma, 0)
        case 2: (0, chroma, x)
        case 3: (0, x, chroma)
        case 4: (x, 0, chroma)
        default: (chroma, 0, x)
        }
        let m = lightness - chroma / 2
        func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, ((v + m) * 255).rounded()))) }
        return PictureDrawing.Colour(byte(r), byte(g), byte(b))
    }
}
