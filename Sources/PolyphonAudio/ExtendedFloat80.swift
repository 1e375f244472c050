/// The 80-bit IEEE 754 extended-precision number that AIFF uses for the sample rate,
/// encoded and decoded by hand because Swift's `Float80` exists only on x86.
enum ExtendedFloat80 {
    /// Encodes a finite, non-negative value in ten big-endian bytes.
    static func bytes(_ value: Double) -> [UInt8] {
        guard value.isFinite, value > 0 else { return [UInt8](repeating: 0, count: 10) }
        // A Double's 53-bit significand, with its implicit leading 1 made explicit, shifted to
        // the top of the 64-bit mantissa, is the exact extended representation.
        let exponent = UInt16(Int(value.exponent) + 16383)
        let mantissa = (value.significandBitPattern | (1 << 52)) << 11
        var header = HeaderBytes()
        header.uint16BE(exponent)
        header.uint64BE(mantissa)
        return header.bytes
    }

    /// Decodes ten big-endian bytes; returns `nil` for infinities and NaNs.
    static func value(_ bytes: ArraySlice<UInt8>) -> Double? {
        guard bytes.count == 10 else { return nil }
        let b = Array(bytes)
        let signAndExponent = UInt16(b[0]) << 8 | UInt16(b[1])
        var mantissa: UInt64 = 0
        for byte in b[2..<10] { mantissa = mantissa << 8 | UInt64(byte) }
        let exponent = Int(signAndExponent & 0x7FFF)
        if exponent == 0x7FFF { return nil }
        if mantissa == 0 { return 0 }
        let magnitude = Double(sign: .plus, exponent: exponent - 16383 - 63, significand: Double(mantissa))
        return signAndExponent & 0x8000 != 0 ? -magnitude : magnitude
    }
}
