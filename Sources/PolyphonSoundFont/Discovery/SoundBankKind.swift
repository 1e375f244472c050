#if canImport(Glibc)
import PolyphonSoundFontCore
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The kinds of sound bank Polyphon reads, told apart by content rather than by extension
/// (users rename files; `.sf2` files that are really SF3 exist).
public enum SoundBankKind: String, Hashable, Sendable, CaseIterable {
    /// A SoundFont 2 or 3 bank: `RIFF` form `sfbk`.
    case soundFont
    /// A Downloadable Sounds Level 1/2 collection: `RIFF` form `DLS `.
    case dls
    /// A SoundBankPlayer sample bank: a property list (XML or binary) beside its audio files.
    case sampleBank
    /// An SFZ instrument: text whose first statement is an SFZ header (`<region>`, `<group>`,
    /// `<control>` …) or directive (`#define`, `#include`), after comments; or, when comments
    /// fill the head, a text file named `.sfz`.
    case sfz

    /// The kind of the bank at `path`, from its first bytes; nil when it is none of the kinds.
    /// - Throws: ``SoundBankError`` when the file cannot be opened or read.
    public static func sniff(path: String) throws -> SoundBankKind? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw SoundBankError(path: path, kind: .cannotOpen(String(cString: strerror(errno))))
        }
        defer { close(fd) }
        // 4 KiB: SFZ files often open with a long comment before their first header.
        var head = [UInt8](repeating: 0, count: 4096)
        var count = 0
        while count < head.count {
            let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SoundBankError(path: path, kind: .cannotOpen(String(cString: strerror(errno))))
            }
            if n == 0 { break }
            count += n
        }
        if let kind = sniff(head: head[0..<count]) { return kind }
        let lowerPath = path.lowercased()
        if lowerPath.hasSuffix(".sfz"), count > 0, !head[0..<count].contains(0) { return .sfz }
        return nil
    }

    /// The kind of a bank whose first bytes (at least 12; up to a few hundred for XML, a few
    /// thousand for SFZ text behind comments) are `head`.
    public static func sniff<Bytes: Collection>(head: Bytes) -> SoundBankKind? where Bytes.Element == UInt8 {
        let all = Array(head.prefix(4096))
        if looksLikeSFZ(all) { return .sfz }
        let bytes = Array(all.prefix(512))
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)) {
            switch String(decoding: bytes[8..<12], as: UTF8.self) {
            case "sfbk": return .soundFont
            case "DLS ": return .dls
            default: return nil
            }
        }
        if bytes.starts(with: Array("bplist00".utf8)) { return .sampleBank }
        // XML property list: optional BOM and whitespace, then an XML declaration, a doctype or
        // the <plist> element itself, with <plist somewhere in the head.
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        if trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<!DOCTYPE") || trimmed.hasPrefix("<plist") {
            if trimmed.contains("<plist") || trimmed.contains("DOCTYPE plist") { return .sampleBank }
        }
        return nil
    }

    /// The SFZ headers and directives a file may start with.
    private static let sfzOpenings = ["<control>", "<global>", "<master>", "<group>", "<region>", "<curve>", "<effect>",
                                      "<sample>", "#define", "#include"]

    /// Whether the first statement of `bytes`, after a byte order mark, white space and
    /// `//` and `/* */` comments, is an SFZ header or directive.
    static func looksLikeSFZ(_ bytes: [UInt8]) -> Bool {
        guard !bytes.contains(0) else { return false }
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                i += 1
            } else if byte == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") {
                while i < bytes.count, bytes[i] != 0x0A { i += 1 }
            } else if byte == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "*") {
                i += 2
                while i + 1 < bytes.count, !(bytes[i] == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/")) { i += 1 }
                i += 2
            } else {
                let rest = bytes[i...]
                return sfzOpenings.contains { opening in
                    let word = Array(opening.utf8)
                    guard rest.count >= word.count else { return false }
                    return zip(rest.prefix(word.count), word).allSatisfy { a, b in
                        (a >= 0x41 && a <= 0x5A ? a + 32 : a) == b
                    }
                }
            }
        }
        return false
    }
}
