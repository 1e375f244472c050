/// Unit conversions of the SoundFont world, table-driven where they run per block.
enum Units {
    /// 2^x within 2e−7 relative (Float's own precision), without a libm call: control points
    /// evaluate several of these per voice every 64 frames.
    @inline(__always)
    static func exp2(_ x: Float) -> Float {
        // Written so NaN lands on −126 instead of trapping in the Int32 conversion.
        let clamped = x > -126 ? (x < 126 ? x : 126) : -126
        var n = Int32(clamped)
        if Float(n) > clamped { n -= 1 }
        // 2^f for f in [0, 1) as √2 · e^g with g = (f − ½)·ln 2 in ±0.347: Taylor to g⁷,
        // evaluated in Estrin's form (pairs, then powers of g²) for a short dependency chain.
        let g = (clamped - Float(n) - 0.5) * 0.693_147_2
        let g2 = g * g, g4 = g2 * g2
        let p01 = 1 + g, p23 = 0.5 + g * (1.0 / 6)
        let p45 = 1.0 / 24 + g * (1.0 / 120), p67 = 1.0 / 720 + g * (1.0 / 5040)
        let e = (p01 + g2 * p23) + g4 * (p45 + g2 * p67)
        return e * 1.414_213_6 * Float(bitPattern: UInt32(bitPattern: (n + 127) << 23))
    }

    /// 2^x for |x| ≤ 1/12 (a semitone) within 1e−9 relative: the Taylor series of e^(x·ln 2)
    /// to the fifth power, without the range reduction ``exp2(_:)`` needs.
    @inline(__always)
    static func exp2Small(_ x: Float) -> Float {
        let y = x * 0.693_147_2
        return 1 + y * (1 + y * (0.5 + y * (1.0 / 6 + y * (1.0 / 24 + y * (1.0 / 120)))))
    }

    /// Frequency of absolute cents: 8.176 Hz × 2^(cents/1200).
    @inline(__always)
    static func absoluteCentsToHertz(_ cents: Float) -> Float {
        8.175799 * exp2(cents * (1.0 / 1200.0))
    }

    /// Seconds of a timecent value: 2^(tc/1200).
    @inline(__always)
    static func timecentsToSeconds(_ tc: Float) -> Float { exp2(tc * (1.0 / 1200.0)) }

    /// Amplitude of an attenuation in centibels: 10^(−cB/200).
    @inline(__always)
    static func centibelsToAmplitude(_ cb: Float) -> Float {
        // exp2 is cheaper than pow(10, …): 10^(−cB/200) = 2^(−cB × log2(10)/200).
        exp2(cb * (-3.321928 / 200.0))
    }

    /// Pitch ratio of a cent offset.
    @inline(__always)
    static func centsToRatio(_ cents: Float) -> Float { exp2(cents * (1.0 / 1200.0)) }

    /// The concave curve of SF2 modulators as FluidSynth tabulates it, indexed 0…127:
    /// −(400/960)·log10((127 − i)/127), pinned to 0 and 1 at the ends.
    static let concave: [Float] = (0..<128).map { i in
        if i == 0 { return 0 }
        if i == 127 { return 1 }
        return Float(-(400.0 / 960.0) * Math.log10(Double(127 - i) / 127.0))
    }

    /// The convex curve: 1 + (400/960)·log10(i/127), pinned to 0 and 1 at the ends.
    static let convex: [Float] = (0..<128).map { i in
        if i == 0 { return 0 }
        if i == 127 { return 1 }
        return Float(1.0 + (400.0 / 960.0) * Math.log10(Double(i) / 127.0))
    }

    /// Constant-power pan gains for a pan value in 0.1 % (−500 … 500).
    @inline(__always)
    static func panGains(_ pan: Float) -> (left: Float, right: Float) {
        let p = min(max(pan, -500), 500)
        let theta = (p + 500) * (Float.pi / 2000)
        return (Math.cos(theta), Math.sin(theta))
    }
}
