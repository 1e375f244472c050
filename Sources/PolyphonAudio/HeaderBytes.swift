/// A little builder for the fixed fields of file headers, in either byte order.
struct HeaderBytes {
    private(set) var bytes: [UInt8] = []

    var count: Int { bytes.count }

    mutating func fourCC(_ code: String) {
        let utf8 = Array(code.utf8)
        precondition(utf8.count == 4, "four-character codes have four ASCII characters")
        bytes += utf8
    }

    mutating func uint16LE(_ value: UInt16) { append(value.littleEndian) }
    mutating func uint32LE(_ value: UInt32) { append(value.littleEndian) }
    mutating func uint16BE(_ value: UInt16) { append(value.bigEndian) }
    mutating func uint32BE(_ value: UInt32) { append(value.bigEndian) }
    mutating func uint64BE(_ value: UInt64) { append(value.bigEndian) }
    mutating func raw(_ more: [UInt8]) { bytes += more }

    private mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value) { bytes += $0 }
    }

    static func uint32LE(_ value: UInt32) -> [UInt8] {
        var header = HeaderBytes()
        header.uint32LE(value)
        return header.bytes
    }

    static func uint32BE(_ value: UInt32) -> [UInt8] {
        var header = HeaderBytes()
        header.uint32BE(value)
        return header.bytes
    }

    static func uint64BE(_ value: UInt64) -> [UInt8] {
        var header = HeaderBytes()
        header.uint64BE(value)
        return header.bytes
    }
}
