/// A position in the bytes of one SFZ file, counting lines as it moves.
struct SFZTextCursor {
    /// The file, as reached (for locations).
    let path: String
    let bytes: [UInt8]
    private(set) var offset: Int
    private(set) var line = 1

    /// A saved position to come back to (sfizz "puts back" characters it read too far).
    struct Mark {
        fileprivate var offset: Int
        fileprivate var line: Int
    }

    init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
        // A UTF-8 byte order mark is not part of the text.
        offset = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    var isAtEnd: Bool { offset >= bytes.count }
    var location: SFZLocation { SFZLocation(file: path, line: line) }
    var mark: Mark { Mark(offset: offset, line: line) }

    mutating func reset(to mark: Mark) {
        offset = mark.offset
        line = mark.line
    }

    /// The byte at the cursor, nil at the end.
    func peek(_ ahead: Int = 0) -> UInt8? {
        offset + ahead < bytes.count ? bytes[offset + ahead] : nil
    }

    /// Moves past one byte.
    mutating func advance() {
        guard offset < bytes.count else { return }
        if bytes[offset] == UInt8(ascii: "\n") { line += 1 }
        offset += 1
    }

    /// Moves past every byte for which `predicate` holds; returns them.
    @discardableResult
    mutating func take(while predicate: (UInt8) -> Bool) -> ArraySlice<UInt8> {
        let start = offset
        while let byte = peek(), predicate(byte) { advance() }
        return bytes[start..<offset]
    }

    /// Moves past `byte` if it is next; says whether it was.
    mutating func take(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        advance()
        return true
    }

    /// The rest of the line up to (not including) a line break or the start of a comment.
    mutating func takeToEndOfLine() -> ArraySlice<UInt8> {
        let start = offset
        while let byte = peek(), byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r") {
            if byte == UInt8(ascii: "/"), let next = peek(1), next == UInt8(ascii: "/") || next == UInt8(ascii: "*") {
                break
            }
            advance()
        }
        return bytes[start..<offset]
    }

    /// Skips to the end of the line (not past the line break): recovery after a syntax error.
    mutating func skipLine() {
        while let byte = peek(), byte != UInt8(ascii: "\n") { advance() }
    }
}

extension UInt8 {
    /// A letter, digit or `_`: what SFZ names are made of.
    var isSFZIdentifierByte: Bool {
        self == UInt8(ascii: "_") || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z"))
            || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z"))
            || (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9"))
    }

    /// A space or tab.
    var isSFZSpace: Bool { self == UInt8(ascii: " ") || self == UInt8(ascii: "\t") }
}
