/// The payload of a text meta event, kept as the raw bytes of the file.
///
/// The SMF specification does not say which character set text uses: files in the wild use
/// ASCII, Latin-1, Shift-JIS and UTF-8. Keeping the bytes makes a round trip lossless; ``string``
/// gives a readable form.
public struct MIDIText: Sendable, Hashable {
    /// The bytes as they appear in the file.
    public var bytes: [UInt8]

    /// Creates a text payload from raw bytes.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Creates a text payload holding the UTF-8 encoding of `string`.
    public init(_ string: String) {
        self.bytes = Array(string.utf8)
    }

    /// The text decoded as UTF-8 when the bytes are valid UTF-8, else as Latin-1 (every byte
    /// sequence is valid Latin-1, so this never fails).
    public var string: String {
        var utf8Decoder = UTF8()
        var iterator = bytes.makeIterator()
        var scalars = String.UnicodeScalarView()
        decoding: while true {
            switch utf8Decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .emptyInput: break decoding
            case .error:
                return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
            }
        }
        return String(scalars)
    }
}

/// The type of a text meta event (`0x01`…`0x0F`).
///
/// Types `0x0A`…`0x0F` are reserved for text but have no name; they keep their type byte so that
/// a file is written back as it was read.
public struct MetaTextKind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The meta type byte, `0x01`…`0x0F`.
    public let rawValue: UInt8

    /// Creates a text kind from its meta type byte.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Any text (`0x01`).
    public static let text = MetaTextKind(rawValue: 0x01)
    /// Copyright notice (`0x02`).
    public static let copyright = MetaTextKind(rawValue: 0x02)
    /// Sequence or track name (`0x03`).
    public static let trackName = MetaTextKind(rawValue: 0x03)
    /// Instrument name (`0x04`).
    public static let instrumentName = MetaTextKind(rawValue: 0x04)
    /// Lyric (`0x05`).
    public static let lyric = MetaTextKind(rawValue: 0x05)
    /// Marker (`0x06`).
    public static let marker = MetaTextKind(rawValue: 0x06)
    /// Cue point (`0x07`).
    public static let cuePoint = MetaTextKind(rawValue: 0x07)
    /// Program name (`0x08`).
    public static let programName = MetaTextKind(rawValue: 0x08)
    /// Device (port) name (`0x09`).
    public static let deviceName = MetaTextKind(rawValue: 0x09)

    /// A readable name: the specification's name, or "text 0x0A" for the unnamed types.
    public var description: String {
        switch rawValue {
        case 0x01: return "text"
        case 0x02: return "copyright"
        case 0x03: return "track name"
        case 0x04: return "instrument name"
        case 0x05: return "lyric"
        case 0x06: return "marker"
        case 0x07: return "cue point"
        case 0x08: return "program name"
        case 0x09: return "device name"
        default: return "text 0x" + hex(rawValue)
        }
    }
}
