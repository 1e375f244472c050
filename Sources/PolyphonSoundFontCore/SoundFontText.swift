/// How SoundFont text fields are decoded and encoded.
package enum SoundFontText {
    /// UTF-8 when the bytes are valid UTF-8 (plain ASCII is), else Latin-1, which is what older
    /// banks written on Windows use and which never fails.
    package static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        if isValidUTF8(bytes) { return String(decoding: bytes, as: UTF8.self) }
        var s = ""
        s.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return s
    }

    /// Whether `bytes` are well-formed UTF-8. (`String(validating:as:)` would do, but it needs
    /// macOS 15 / iOS 18 and the package supports older systems.)
    package static func isValidUTF8<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// UTF-8 bytes of `text`, cut at a character boundary so they fit `limit` bytes.
    package static func encode(_ text: String, limit: Int) -> [UInt8] {
        var out: [UInt8] = []
        for scalar in text.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            if out.count + encoded.count > limit { break }
            out += encoded
        }
        return out
    }
}
