/// Note names as SFZ writes them, read the way sfizz reads them: a letter `a`–`g` (either case),
/// an optional `#`/`♯` or `b`/`♭`, and an octave number, with `c4` = 60 and `c-1` = 0. Sharps
/// exist for c, d, f, g and a; flats for d, e, g, a and b (`e#4` and `fb4` are not notes).
public enum SFZNoteName {
    /// The MIDI note `text` names, or nil when it is not a note name or lies outside 0–127.
    public static func noteNumber<Text: Collection>(_ text: Text) -> Int? where Text.Element == UInt8 {
        var bytes = Array(text)[...]
        guard var letter = bytes.first else { return nil }
        if letter >= UInt8(ascii: "A") && letter <= UInt8(ascii: "G") { letter += 32 }
        guard letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "g") else { return nil }
        bytes = bytes.dropFirst()
        // Semitones above C of a, b, c, d, e, f, g.
        let offsets = [9, 11, 0, 2, 4, 5, 7]
        var note = offsets[Int(letter - UInt8(ascii: "a"))]
        let sharp: [UInt8] = [0xE2, 0x99, 0xAF], flat: [UInt8] = [0xE2, 0x99, 0xAD]
        if bytes.first == UInt8(ascii: "#") || bytes.starts(with: sharp) {
            guard [UInt8(ascii: "c"), UInt8(ascii: "d"), UInt8(ascii: "f"), UInt8(ascii: "g"), UInt8(ascii: "a")]
                .contains(letter) else { return nil }
            note += 1
            bytes = bytes.dropFirst(bytes.first == UInt8(ascii: "#") ? 1 : 3)
        } else if bytes.first == UInt8(ascii: "b") || bytes.starts(with: flat) {
            guard [UInt8(ascii: "d"), UInt8(ascii: "e"), UInt8(ascii: "g"), UInt8(ascii: "a"), UInt8(ascii: "b")]
                .contains(letter) else { return nil }
            note -= 1
            bytes = bytes.dropFirst(bytes.first == UInt8(ascii: "b") ? 1 : 3)
        }
        // The octave: an optional sign and digits, nothing after (sfizz's SimpleAtoi).
        var negative = false
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") {
            negative = bytes.first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        guard !bytes.isEmpty, bytes.count <= 3 else { return nil }
        var octave = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            octave = octave * 10 + Int(byte - UInt8(ascii: "0"))
        }
        if negative { octave = -octave }
        let number = note + (octave + 1) * 12
        return (0...127).contains(number) ? number : nil
    }

    /// The name of MIDI note `number` in sfizz's convention, with sharps: 60 → `c4`, 61 → `c#4`.
    public static func name(of number: Int) -> String {
        let names = ["c", "c#", "d", "d#", "e", "f", "f#", "g", "g#", "a", "a#", "b"]
        let octave = number >= 0 ? number / 12 - 1 : (number - 11) / 12 - 1
        let pitchClass = ((number % 12) + 12) % 12
        return names[pitchClass] + String(octave)
    }
}
