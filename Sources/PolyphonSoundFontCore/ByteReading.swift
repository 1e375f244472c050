/// Little-endian reads from a file's bytes. Every caller checks bounds first, so these never
/// read outside the buffer.
extension UnsafeRawBufferPointer {
    @inline(__always)
    package func u8(_ offset: Int) -> UInt8 { self[offset] }

    @inline(__always)
    package func u16(_ offset: Int) -> UInt16 {
        UInt16(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    @inline(__always)
    package func i16(_ offset: Int) -> Int16 { Int16(bitPattern: u16(offset)) }

    @inline(__always)
    package func u32(_ offset: Int) -> UInt32 {
        UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// Four bytes as a chunk id, each byte taken as a Latin-1 character.
    package func fourCC(_ offset: Int) -> String {
        var s = ""
        s.reserveCapacity(4)
        for i in 0..<4 { s.unicodeScalars.append(Unicode.Scalar(self[offset + i])) }
        return s
    }

    /// A zero-terminated string of at most `count` bytes (fixed-size name fields, INFO strings).
    package func string(_ offset: Int, maxCount count: Int) -> String {
        var end = offset
        let limit = offset + count
        while end < limit, self[end] != 0 { end += 1 }
        return SoundFontText.decode(UnsafeRawBufferPointer(rebasing: self[offset..<end]))
    }
}
