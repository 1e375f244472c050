import PolyphonMath
import PolyphonSoundFont

/// One synthesized sample before it is stored in the bank: points in floating point, the loop
/// and the pitch it actually sounds at.
struct GeneratedSample {
    /// The output rate every built-in sample is made at.
    static let rate = 44_100.0

    /// Sample points, any scale (they are peak-normalised when stored).
    var points: [Double]
    /// Loop points (whole periods of the waveform, so the join is seamless); nil for one-shots.
    var loop: Range<Int>?
    /// The fundamental the points sound at, in Hz; nil for unpitched sounds (stored at key 60).
    var frequency: Double?

    /// `originalPitch` and `pitchCorrection` for the sample header: the nearest key and the
    /// cents that bring `frequency` onto it.
    var rootKeyAndCorrection: (key: UInt8, cents: Int8) {
        guard let frequency else { return (60, 0) }
        let exact = PortableMath.key(ofFrequency: frequency)
        let key = min(max(exact.rounded(), 0), 127)
        return (UInt8(key), Int8(clamping: Int((100 * (key - exact)).rounded())))
    }

    /// A looped sample that is nothing but one period, with eight guard points on each side
    /// (the last points of the period before it, the first ones after it).
    static func looped(period: [Double], frequency: Double?) -> GeneratedSample {
        GeneratedSample(points: Array(period.suffix(8)) + period + Array(period.prefix(8)),
                        loop: 8..<8 + period.count, frequency: frequency)
    }

    /// RMS of the first second as a held note plays it (through the loop), the window over
    /// which programs are levelled.
    var playbackRMS: Double {
        let count = Int(Self.rate)
        func energy(_ r: Range<Int>) -> Double {
            var s = 0.0
            for i in r { s += points[i] * points[i] }
            return s
        }
        guard let loop, loop.upperBound <= points.count, !loop.isEmpty else {
            return (energy(0..<min(count, points.count)) / Double(count)).squareRoot()
        }
        var total = energy(0..<min(count, loop.upperBound))
        var played = loop.upperBound
        let loopEnergy = energy(loop)
        while played + loop.count <= count { total += loopEnergy; played += loop.count }
        if played < count { total += energy(loop.lowerBound..<loop.lowerBound + (count - played)) }
        return (total / Double(count)).squareRoot()
    }

    /// The largest absolute point.
    var peak: Double {
        var p = 0.0
        for x in points where abs(x) > p { p = abs(x) }
        return p
    }
}
