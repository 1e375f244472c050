/// A value of a property list, XML or binary: what a SoundBankPlayer bank is written in.
///
/// Polyphon reads property lists itself instead of through Foundation's
/// `PropertyListSerialization`: bank files come from anywhere, and a reader of our own can
/// promise what the fuzzers check — no trap, no leak, bounded depth and work, and errors that
/// name the byte where the file goes wrong.
enum PropertyListValue: Hashable, Sendable {
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])
    case string(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    case data([UInt8])
    /// Seconds since 2001-01-01 (binary), or the ISO 8601 text (XML).
    case date(String)
}

/// Why a property list could not be read, and the byte where reading stopped.
struct PropertyListError: Error, Hashable, Sendable, CustomStringConvertible {
    var offset: Int
    var reason: String
    var description: String { "byte \(offset): \(reason)" }
}

/// Reads XML (`<plist>`) and binary (`bplist00`) property lists.
///
/// Nesting is limited to ``maximumDepth`` and the values produced to a number proportional to
/// the input's size, so neither a deeply nested file nor a binary list whose objects refer to
/// each other over and over can exhaust the stack or memory; a binary object that contains
/// itself is an error.
enum PropertyListReader {
    static let maximumDepth = 64

    static func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        if bytes.starts(with: Array("bplist0".utf8)) {
            var reader = try BinaryPropertyListReader(bytes)
            return try reader.readTop()
        }
        var reader = XMLPropertyListReader(bytes: bytes)
        return try reader.readDocument()
    }
}

// MARK: - Binary

/// `bplist00`: objects addressed through an offset table described by a 32-byte trailer.
private struct BinaryPropertyListReader {
    let bytes: [UInt8]
    let offsetSize: Int, referenceSize: Int
    let objectCount: Int, topObject: Int, tableOffset: Int
    /// Objects being read, to refuse one that contains itself.
    var inProgress = Set<Int>()
    /// Values still allowed to be produced (shared objects count every time they are used).
    var budget: Int

    init(_ bytes: [UInt8]) throws(PropertyListError) {
        self.bytes = bytes
        guard bytes.count >= 8 + 32 else { throw PropertyListError(offset: bytes.count, reason: "binary property list too short for its trailer") }
        let t = bytes.count - 32
        offsetSize = Int(bytes[t + 6])
        referenceSize = Int(bytes[t + 7])
        let count = Self.bigEndian(bytes[(t + 8)..<(t + 16)])
        let top = Self.bigEndian(bytes[(t + 16)..<(t + 24)])
        let table = Self.bigEndian(bytes[(t + 24)..<(t + 32)])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw PropertyListError(offset: t + 6, reason: "offset size \(offsetSize) or reference size \(referenceSize) is not 1–8")
        }
        guard count >= 1, count <= UInt64(t), top < count, table >= 8, table <= UInt64(t),
              count * UInt64(offsetSize) <= UInt64(t) - table else {
            throw PropertyListError(offset: t + 8, reason: "trailer describes \(count) objects and a table at \(table) that do not fit the file")
        }
        objectCount = Int(count)
        topObject = Int(top)
        tableOffset = Int(table)
        budget = 16 * bytes.count + 1024
    }

    static func bigEndian(_ slice: ArraySlice<UInt8>) -> UInt64 {
        slice.reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func readTop() throws(PropertyListError) -> PropertyListValue {
        try object(topObject, depth: 0)
    }

    private func offset(of object: Int) throws(PropertyListError) -> Int {
        let at = tableOffset + object * offsetSize
        let value = Self.bigEndian(bytes[at..<(at + offsetSize)])
        guard value >= 8, value < UInt64(bytes.count - 32) else {
            throw PropertyListError(offset: at, reason: "object \(object) lies at \(value), outside the object area")
        }
        return Int(value)
    }

    /// `count` bytes from `start`, or an error when they run past the object area.
    private func span(_ start: Int, _ count: Int, _ what: String) throws(PropertyListError) -> Range<Int> {
        guard count >= 0, start <= bytes.count - 32, count <= bytes.count - 32 - start else {
            throw PropertyListError(offset: start, reason: "\(what) of \(count) bytes runs past the object area")
        }
        return start..<(start + count)
    }

    /// The length of an object whose marker's low nibble is `info`: the nibble itself, or an
    /// integer object after the marker when it is 0xF. Returns the length and where the content starts.
    private func length(_ info: UInt8, at marker: Int) throws(PropertyListError) -> (Int, Int) {
        if info != 0x0F { return (Int(info), marker + 1) }
        let at = marker + 1
        guard at < bytes.count - 32, bytes[at] & 0xF0 == 0x10 else {
            throw PropertyListError(offset: at, reason: "a length is not an integer object")
        }
        let size = 1 << Int(bytes[at] & 0x0F)
        guard size <= 8 else { throw PropertyListError(offset: at, reason: "a length of \(size) bytes") }
        let range = try span(at + 1, size, "length")
        let value = Self.bigEndian(bytes[range])
        guard value <= UInt64(bytes.count) else {
            throw PropertyListError(offset: at, reason: "length \(value) is larger than the file")
        }
        return (Int(value), range.upperBound)
    }

    private func reference(at position: Int) throws(PropertyListError) -> Int {
        let range = try span(position, referenceSize, "object reference")
        let value = Self.bigEndian(bytes[range])
        guard value < UInt64(objectCount) else {
            throw PropertyListError(offset: position, reason: "reference to object \(value) of \(objectCount)")
        }
        return Int(value)
    }

    private mutating func object(_ index: Int, depth: Int) throws(PropertyListError) -> PropertyListValue {
        let at = try offset(of: index)
        budget -= 1
        guard budget > 0 else { throw PropertyListError(offset: at, reason: "more values than a file this size can hold") }
        guard depth <= PropertyListReader.maximumDepth else {
            throw PropertyListError(offset: at, reason: "nested deeper than \(PropertyListReader.maximumDepth) levels")
        }
        guard inProgress.insert(index).inserted else {
            throw PropertyListError(offset: at, reason: "object \(index) contains itself")
        }
        defer { inProgress.remove(index) }
        let marker = bytes[at], info = marker & 0x0F
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .boolean(false)
            case 0x09: return .boolean(true)
            default: throw PropertyListError(offset: at, reason: "marker 0x\(String(marker, radix: 16)) is not a value")
            }
        case 0x1, 0x8:
            let size = marker >> 4 == 0x8 ? Int(info) + 1 : 1 << Int(info)
            guard size <= 16 else { throw PropertyListError(offset: at, reason: "an integer of \(size) bytes") }
            let range = try span(at + 1, size, "integer")
            return .integer(Int64(bitPattern: Self.bigEndian(bytes[range.suffix(8)])))
        case 0x2:
            let range = try span(at + 1, 1 << Int(info), "real")
            switch range.count {
            case 4: return .real(Double(Float(bitPattern: UInt32(Self.bigEndian(bytes[range])))))
            case 8: return .real(Double(bitPattern: Self.bigEndian(bytes[range])))
            default: throw PropertyListError(offset: at, reason: "a real of \(range.count) bytes")
            }
        case 0x3:
            let range = try span(at + 1, 8, "date")
            return .date("\(Double(bitPattern: Self.bigEndian(bytes[range])))")
        case 0x4:
            let (count, start) = try length(info, at: at)
            return .data(Array(bytes[try span(start, count, "data")]))
        case 0x5:
            let (count, start) = try length(info, at: at)
            let range = try span(start, count, "string")
            guard bytes[range].allSatisfy({ $0 < 0x80 }) else {
                throw PropertyListError(offset: start, reason: "an ASCII string holds a byte over 0x7F")
            }
            return .string(String(decoding: bytes[range], as: UTF8.self))
        case 0x6:
            let (count, start) = try length(info, at: at)
            guard count <= bytes.count / 2 else { throw PropertyListError(offset: start, reason: "string of \(count) UTF-16 units") }
            let range = try span(start, 2 * count, "string")
            let units = stride(from: range.lowerBound, to: range.upperBound, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            return .string(String(decoding: units, as: UTF16.self))
        case 0xA, 0xC:
            let (count, start) = try length(info, at: at)
            let range = try span(start, count * referenceSize, "array")
            var values: [PropertyListValue] = []
            values.reserveCapacity(count)
            for position in stride(from: range.lowerBound, to: range.upperBound, by: referenceSize) {
                values.append(try object(try reference(at: position), depth: depth + 1))
            }
            return .array(values)
        case 0xD:
            let (count, start) = try length(info, at: at)
            let keys = try span(start, count * referenceSize, "dictionary keys")
            _ = try span(keys.upperBound, count * referenceSize, "dictionary values")
            var values: [String: PropertyListValue] = [:]
            for i in 0..<count {
                let keyAt = keys.lowerBound + i * referenceSize
                guard case .string(let key) = try object(try reference(at: keyAt), depth: depth + 1) else {
                    throw PropertyListError(offset: keyAt, reason: "a dictionary key is not a string")
                }
                values[key] = try object(try reference(at: keys.upperBound + i * referenceSize), depth: depth + 1)
            }
            return .dictionary(values)
        default:
            throw PropertyListError(offset: at, reason: "marker 0x\(String(marker, radix: 16)) is not a value")
        }
    }
}

// MARK: - XML

/// `<?xml …?><!DOCTYPE plist …><plist version="1.0"> value </plist>`, with the elements
/// Apple's writers produce; comments and processing instructions are skipped.
private struct XMLPropertyListReader {
    let bytes: [UInt8]
    var at = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }
    }

    private func fail(_ reason: String) -> PropertyListError { PropertyListError(offset: at, reason: reason) }

    mutating func readDocument() throws(PropertyListError) -> PropertyListValue {
        var tag = try nextTag()
        guard tag.name == "plist", !tag.closing else { throw fail("expected <plist>") }
        if tag.empty { throw fail("<plist/> holds no value") }
        tag = try nextTag()
        let value = try value(opening: tag, depth: 0)
        let end = try nextTag()
        guard end.name == "plist", end.closing else { throw fail("expected </plist>") }
        return value
    }

    struct Tag { var name: String; var closing: Bool; var empty: Bool }

    private mutating func skipSpace() {
        while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
    }

    private func starts(_ text: String) -> Bool {
        starts(Array(text.utf8))
    }

    private func starts(_ utf8: [UInt8]) -> Bool {
        bytes.count - at >= utf8.count && bytes[at..<(at + utf8.count)].elementsEqual(utf8)
    }

    /// Moves past the next occurrence of `text`.
    private mutating func skip(past text: String) throws(PropertyListError) {
        let utf8 = Array(text.utf8)
        while at < bytes.count {
            if bytes[at] == utf8[0], starts(utf8) { at += utf8.count; return }
            at += 1
        }
        throw fail("unterminated, expected '\(text)'")
    }

    /// The next element tag, past whitespace, comments, processing instructions and doctypes.
    private mutating func nextTag() throws(PropertyListError) -> Tag {
        while true {
            skipSpace()
            guard at < bytes.count else { throw fail("the document ends early") }
            guard bytes[at] == UInt8(ascii: "<") else { throw fail("text where an element was expected") }
            if starts("<?") { try skip(past: "?>"); continue }
            if starts("<!--") { try skip(past: "-->"); continue }
            if starts("<!") { try skip(past: ">"); continue }
            at += 1
            let closing = at < bytes.count && bytes[at] == UInt8(ascii: "/")
            if closing { at += 1 }
            let nameStart = at
            while at < bytes.count, ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/")].contains(bytes[at]) { at += 1 }
            let name = String(decoding: bytes[nameStart..<at], as: UTF8.self)
            // Attributes (only <plist version="…"> has any) are skipped up to the tag's end.
            var empty = false
            while at < bytes.count, bytes[at] != UInt8(ascii: ">") {
                empty = bytes[at] == UInt8(ascii: "/")
                at += 1
            }
            guard at < bytes.count else { throw fail("unterminated tag <\(name)") }
            at += 1
            guard !name.isEmpty else { throw fail("a tag without a name") }
            return Tag(name: name, closing: closing, empty: empty)
        }
    }

    /// The text up to `</name>`, entities decoded.
    private mutating func text(closing name: String) throws(PropertyListError) -> String {
        var out: [UInt8] = []
        while at < bytes.count, bytes[at] != UInt8(ascii: "<") {
            if bytes[at] == UInt8(ascii: "&") {
                out += try entity()
            } else {
                out.append(bytes[at])
                at += 1
            }
        }
        let end = try nextTag()
        guard end.closing, end.name == name else { throw fail("expected </\(name)>") }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func entity() throws(PropertyListError) -> [UInt8] {
        let start = at
        while at < bytes.count, bytes[at] != UInt8(ascii: ";"), at - start < 12 { at += 1 }
        guard at < bytes.count, bytes[at] == UInt8(ascii: ";") else { at = start; throw fail("an unterminated entity") }
        let name = String(decoding: bytes[(start + 1)..<at], as: UTF8.self)
        at += 1
        switch name {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            let code: UInt32?
            if name.hasPrefix("#x") || name.hasPrefix("#X") { code = UInt32(name.dropFirst(2), radix: 16) }
            else if name.hasPrefix("#") { code = UInt32(name.dropFirst()) }
            else { code = nil }
            guard let code, let scalar = Unicode.Scalar(code) else { at = start; throw fail("unknown entity &\(name);") }
            return Array(String(Character(scalar)).utf8)
        }
    }

    private mutating func value(opening tag: Tag, depth: Int) throws(PropertyListError) -> PropertyListValue {
        guard !tag.closing else { throw fail("</\(tag.name)> where a value was expected") }
        guard depth <= PropertyListReader.maximumDepth else {
            throw fail("nested deeper than \(PropertyListReader.maximumDepth) levels")
        }
        switch tag.name {
        case "array":
            var values: [PropertyListValue] = []
            if tag.empty { return .array(values) }
            while true {
                let next = try nextTag()
                if next.closing, next.name == "array" { return .array(values) }
                values.append(try value(opening: next, depth: depth + 1))
            }
        case "dict":
            var values: [String: PropertyListValue] = [:]
            if tag.empty { return .dictionary(values) }
            while true {
                let key = try nextTag()
                if key.closing, key.name == "dict" { return .dictionary(values) }
                guard key.name == "key", !key.closing else { throw fail("expected <key> in a <dict>") }
                let name = key.empty ? "" : try text(closing: "key")
                values[name] = try value(opening: try nextTag(), depth: depth + 1)
            }
        case "string": return .string(tag.empty ? "" : try text(closing: "string"))
        case "date": return .date(tag.empty ? "" : try text(closing: "date"))
        case "true", "false":
            if !tag.empty { _ = try text(closing: tag.name) }
            return .boolean(tag.name == "true")
        case "integer":
            let text = tag.empty ? "" : try text(closing: "integer")
            let trimmed = text.trimmingSpaces
            guard let value = trimmed.hasPrefix("0x") ? Int64(trimmed.dropFirst(2), radix: 16) : Int64(trimmed) else {
                throw fail("'\(text)' is not an integer")
            }
            return .integer(value)
        case "real":
            let text = tag.empty ? "" : try text(closing: "real")
            guard let value = Double(text.trimmingSpaces) else { throw fail("'\(text)' is not a real number") }
            return .real(value)
        case "data":
            let text = tag.empty ? "" : try text(closing: "data")
            guard let data = Self.base64(text) else { throw fail("<data> is not base64") }
            return .data(data)
        default:
            throw fail("<\(tag.name)> is not a property list value")
        }
    }

    static func base64(_ text: String) -> [UInt8]? {
        var bits: UInt32 = 0, count = 0
        var out: [UInt8] = []
        for c in text.utf8 {
            let v: UInt8
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = c - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = c - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "/"): v = 63
            case UInt8(ascii: "="), 0x20, 0x09, 0x0A, 0x0D: continue
            default: return nil
            }
            bits = bits << 6 | UInt32(v)
            count += 6
            if count >= 8 {
                count -= 8
                out.append(UInt8(truncatingIfNeeded: bits >> UInt32(count)))
            }
        }
        return out
    }
}

private extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || c == "\n" || c == "\r" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\n" || c == "\r" { s.removeLast() }
        return String(s)
    }
}
