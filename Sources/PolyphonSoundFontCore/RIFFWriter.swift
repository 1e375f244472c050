/// Bytes of a RIFF file under construction, with chunk sizes patched in when a chunk ends.
package struct RIFFWriter {
    package var bytes: [UInt8] = []

    package mutating func u16(_ v: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: v))
        bytes.append(UInt8(truncatingIfNeeded: v >> 8))
    }

    package mutating func u32(_ v: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt32(shift))) }
    }

    package mutating func fourCC(_ id: String) {
        let utf8 = Array(id.utf8)
        for i in 0..<4 { bytes.append(i < utf8.count ? utf8[i] : 0x20) }
    }

    /// Starts a chunk; returns the offset to hand to ``end(_:)``.
    package mutating func begin(_ id: String) -> Int {
        let start = bytes.count
        fourCC(id)
        u32(0)
        return start
    }

    /// Patches the chunk's size and adds the pad byte RIFF requires after odd-sized data.
    package mutating func end(_ start: Int) {
        let size = UInt32(truncatingIfNeeded: bytes.count - start - 8)
        for i in 0..<4 { bytes[start + 4 + i] = UInt8(truncatingIfNeeded: size >> UInt32(8 * i)) }
        if size & 1 == 1 { bytes.append(0) }
    }

    /// A fixed 20-byte name field, zero-filled.
    package mutating func name(_ text: String) {
        let encoded = SoundFontText.encode(text, limit: 20)
        bytes += encoded
        bytes.append(contentsOf: repeatElement(0, count: 20 - encoded.count))
    }

    /// An INFO string chunk: zero-terminated, padded to an even length as SF2 2.04 §5 asks.
    package mutating func string(_ id: String, _ text: String) {
        let start = begin(id)
        bytes += Array(text.utf8)
        bytes.append(0)
        if (bytes.count - start) & 1 == 1 { bytes.append(0) }
        end(start)
    }
}
