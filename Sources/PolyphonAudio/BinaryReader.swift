#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Bounds-checked reads of fixed-width fields from a file held in memory. Every read that would
/// leave the bytes throws ``AudioFileError/malformed(path:chunk:offset:reason:)`` naming the chunk
/// being read, so a parser built on it cannot trap on truncated input.
struct BinaryReader {
    let path: String
    let bytes: [UInt8]

    var count: Int { bytes.count }

    /// Throws unless `length` bytes are available at `offset`.
    func require(_ length: Int, at offset: Int, in chunk: String) throws {
        guard offset >= 0, length >= 0, offset <= bytes.count - length else {
            throw AudioFileError.malformed(
                path: path, chunk: chunk, offset: offset,
                reason: "needs \(length) bytes but the file ends at byte \(bytes.count)")
        }
    }

    func uint8(at offset: Int, in chunk: String) throws -> UInt8 {
        try require(1, at: offset, in: chunk)
        return bytes[offset]
    }

    func uint16(at offset: Int, bigEndian: Bool, in chunk: String) throws -> UInt16 {
        UInt16(truncatingIfNeeded: try unsigned(2, at: offset, bigEndian: bigEndian, in: chunk))
    }

    func uint32(at offset: Int, bigEndian: Bool, in chunk: String) throws -> UInt32 {
        UInt32(truncatingIfNeeded: try unsigned(4, at: offset, bigEndian: bigEndian, in: chunk))
    }

    func uint64(at offset: Int, bigEndian: Bool, in chunk: String) throws -> UInt64 {
        try unsigned(8, at: offset, bigEndian: bigEndian, in: chunk)
    }

    /// The four-character code at `offset`, with non-printable bytes escaped for messages.
    func fourCC(at offset: Int, in chunk: String) throws -> String {
        try require(4, at: offset, in: chunk)
        return Self.fourCCText(bytes[offset..<(offset + 4)])
    }

    static func fourCCText(_ code: ArraySlice<UInt8>) -> String {
        var text = ""
        for byte in code {
            if byte >= 0x20 && byte < 0x7F {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }
        }
        return text
    }

    private func unsigned(_ width: Int, at offset: Int, bigEndian: Bool, in chunk: String) throws -> UInt64 {
        try require(width, at: offset, in: chunk)
        var value: UInt64 = 0
        for index in 0..<width {
            let byte = UInt64(bytes[bigEndian ? offset + index : offset + width - 1 - index])
            value = value << 8 | byte
        }
        return value
    }
}

/// Reads a whole file into memory with POSIX calls.
func readFileBytes(_ path: String) throws -> [UInt8] {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw AudioFileError.cannotOpen(path: path, reason: systemErrorText()) }
    defer { _ = close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
        throw AudioFileError.ioFailure(path: path, reason: systemErrorText())
    }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
        throw AudioFileError.cannotOpen(path: path, reason: "not a regular file")
    }
    let size = Int(status.st_size)
    var bytes = [UInt8](repeating: 0, count: size)
    var done = 0
    while done < size {
        let result = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + done, size - done) }
        if result < 0 {
            if errno == EINTR { continue }
            throw AudioFileError.ioFailure(path: path, reason: systemErrorText())
        }
        if result == 0 { bytes.removeLast(size - done); break }  // the file shrank meanwhile
        done += result
    }
    return bytes
}
