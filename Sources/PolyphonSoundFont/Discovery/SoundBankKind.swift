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

    /// The kind of the bank at `path`, from its first bytes; nil when it is none of the kinds.
    /// - Throws: ``SoundBankError`` when the file cannot be opened or read.
    public static func sniff(path: String) throws -> SoundBankKind? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw SoundBankError(path: path, kind: .cannotOpen(String(cString: strerror(errno))))
        }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 512)
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
        return sniff(head: head[0..<count])
    }

    /// The kind of a bank whose first bytes (at least 12; up to a few hundred for XML) are `head`.
    public static func sniff<Bytes: Collection>(head: Bytes) -> SoundBankKind? where Bytes.Element == UInt8 {
        let bytes = Array(head.prefix(512))
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
}
