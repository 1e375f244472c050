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
        var s = 0.0
        for n in 0..<count {
            var i = n
            if let loop, i >= loop.upperBound { i = loop.lowerBound + (i - loop.lowerBound) % loop.count }
            if i >= points.count { break }
            s += points[i] * points[i]
        }
        return (s / Double(count)).squareRoot()
    }

    /// The largest absolute point.
    var peak: Double { points.reduce(0) { max($0, abs($1)) } }
}
