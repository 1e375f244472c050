import Foundation

/// Unit conversions of the SoundFont world, table-driven where they run per block.
enum Units {
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
        return Float(-(400.0 / 960.0) * log10(Double(127 - i) / 127.0))
    }

    /// The convex curve: 1 + (400/960)·log10(i/127), pinned to 0 and 1 at the ends.
    static let convex: [Float] = (0..<128).map { i in
        if i == 0 { return 0 }
        if i == 127 { return 1 }
        return Float(1.0 + (400.0 / 960.0) * log10(Double(i) / 127.0))
    }

    /// Constant-power pan gains for a pan value in 0.1 % (−500 … 500).
    @inline(__always)
    static func panGains(_ pan: Float) -> (left: Float, right: Float) {
        let p = min(max(pan, -500), 500)
        let theta = (p + 500) * (Float.pi / 2000)
        return (cos(theta), sin(theta))
    }
}
