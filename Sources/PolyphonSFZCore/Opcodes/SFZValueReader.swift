/// Reads opcode values the way sfizz does: numbers by their leading part (`60abc` is 60, `0.5s`
/// is 0.5), integers that may also be note names, booleans as `on`/`off` or numbers.
enum SFZValueReader {
    /// The integer at the start of `text` (an optional sign and digits), nil when there is none
    /// or it does not fit 64 bits.
    static func leadingInteger(_ text: String) -> Int64? {
        var bytes = Array(text.utf8)[...]
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var value: Int64 = 0
        var digits = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { break }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            digits += 1
        }
        guard digits > 0 else { return nil }
        return negative ? -value : value
    }

    /// The decimal number at the start of `text` (sign, digits, fraction, exponent), nil when
    /// there is none or it is not finite.
    static func leadingReal(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        var i = 0
        func isDigit(_ index: Int) -> Bool {
            index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9")
        }
        var negative = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        // Mantissa digits, kept exactly (up to 19 significant ones) with a decimal exponent.
        var mantissa: UInt64 = 0
        var exponent = 0
        var digits = 0
        var significant = 0
        while isDigit(i) {
            let d = UInt64(bytes[i] - UInt8(ascii: "0"))
            if significant < 19 {
                mantissa = mantissa * 10 + d
                if mantissa > 0 { significant += 1 }
            } else {
                exponent += 1
            }
            digits += 1
            i += 1
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while isDigit(i) {
                let d = UInt64(bytes[i] - UInt8(ascii: "0"))
                if significant < 19 {
                    mantissa = mantissa * 10 + d
                    if mantissa > 0 { significant += 1 }
                    exponent -= 1
                }
                digits += 1
                i += 1
            }
        }
        guard digits > 0 else { return nil }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            var j = i + 1
            var exponentNegative = false
            if j < bytes.count, bytes[j] == UInt8(ascii: "-") || bytes[j] == UInt8(ascii: "+") {
                exponentNegative = bytes[j] == UInt8(ascii: "-")
                j += 1
            }
            if isDigit(j) {
                var written = 0
                while isDigit(j) {
                    if written < 100_000 { written = written * 10 + Int(bytes[j] - UInt8(ascii: "0")) }
                    j += 1
                }
                exponent += exponentNegative ? -written : written
            }
        }
        // Dividing by an exact power of ten rounds once (605 / 10 is 60.5 exactly).
        let value = exponent < 0 && exponent > -23 ? Double(mantissa) / power10(-exponent)
                                                   : Double(mantissa) * power10(exponent)
        guard value.isFinite else { return nil }
        return negative ? -value : value
    }

    /// 10^e for any e, without Foundation: exact powers up to 10^22, repeated scaling beyond
    /// (saturating to 0 or infinity).
    private static func power10(_ e: Int) -> Double {
        let exact: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14,
                               1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]
        if e >= 0 {
            if e < exact.count { return exact[e] }
            if e > 400 { return .infinity }
            var v = 1e22
            for _ in 0..<(e - 22) { v *= 10 }
            return v
        }
        if -e < exact.count { return 1 / exact[-e] }
        if e < -400 { return 0 }
        var v = 1e-22
        for _ in 0..<(-e - 22) { v /= 10 }
        return v
    }

    /// `on`/`off` (any case) or a number (non-zero is true), as sfizz reads booleans.
    static func boolean(_ text: String) -> Bool? {
        let folded = SFZPath.caseFolded(text)
        if folded == "on" { return true }
        if folded == "off" { return false }
        return leadingInteger(text).map { $0 != 0 }
    }
}
