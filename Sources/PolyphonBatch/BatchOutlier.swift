/// Why a rendered input stands out of its corpus: what the report page flags.
public enum BatchOutlier: Sendable, Hashable {
    /// Its peak is below ``silenceThreshold`` (or there is no sound at all).
    case silent
    /// Its peak reached full scale: an integer file clips there.
    case clipping
    /// Its peak is above ``headroomThreshold`` but below full scale: little headroom for a lossy
    /// encoder or a resampler, whose output can overshoot.
    case nearFullScale
    /// Its integrated loudness is more than ``loudnessDistance`` LU above the corpus median.
    case louderThanMedian(by: Double)
    /// Its integrated loudness is more than ``loudnessDistance`` LU below the corpus median.
    case quieterThanMedian(by: Double)
    /// The MIDI reader repaired this many defects to play it (``BatchReportEntry/warnings``): a
    /// file cut short may render only its beginning, or nothing.
    case repaired(defects: Int)

    /// Below this peak (dBFS) an input counts as silent: 16-bit dither alone peaks near −90.
    public static let silenceThreshold = -60.0
    /// Above this peak (dBFS) an input has little headroom.
    public static let headroomThreshold = -1.0
    /// How far (LU) from the median loudness is far: 10 LU is about twice (or half) as loud.
    public static let loudnessDistance = 10.0
    /// The fewest inputs with a loudness for the median to mean anything.
    public static let minimumCorpusForMedian = 3

    /// A short label: "silent", "clipping", "peak above -1 dBFS", "+12.3 LU from median".
    public var label: String {
        switch self {
        case .silent: "silent"
        case .clipping: "clipping"
        case .nearFullScale: "peak above -1 dBFS"
        case .louderThanMedian(let by): "loud: +\(Self.tenths(by)) LU from median"
        case .quieterThanMedian(let by): "quiet: -\(Self.tenths(by)) LU from median"
        case .repaired(let defects): "repaired: \(defects) MIDI defect\(defects == 1 ? "" : "s")"
        }
    }

    private static func tenths(_ value: Double) -> String {
        let t = Int((value * 10).rounded())
        return "\(t / 10).\(t % 10)"
    }

    /// The median integrated loudness of the inputs rendered (ok or skipped) that have one, or
    /// nil when fewer than ``minimumCorpusForMedian`` do.
    public static func medianLoudness(of entries: [BatchReportEntry]) -> Double? {
        let values = entries.filter { $0.status == .ok || $0.status == .skipped }.compactMap(\.loudnessLUFS).sorted()
        guard values.count >= minimumCorpusForMedian else { return nil }
        let mid = values.count / 2
        return values.count % 2 == 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid])
    }

    /// How `entry` stands out, given its corpus' median loudness. Only inputs rendered (ok or
    /// skipped with their figures) are judged.
    public static func outliers(of entry: BatchReportEntry, medianLoudness: Double?) -> [BatchOutlier] {
        guard entry.status == .ok || entry.status == .skipped, entry.audioSeconds != nil else { return [] }
        var found: [BatchOutlier] = []
        let peak = entry.peakDBFS ?? -.infinity
        if peak < silenceThreshold { found.append(.silent) }
        if peak >= 0 {
            found.append(.clipping)
        } else if peak > headroomThreshold {
            found.append(.nearFullScale)
        }
        if let median = medianLoudness, let loudness = entry.loudnessLUFS {
            let distance = loudness - median
            if distance > loudnessDistance { found.append(.louderThanMedian(by: distance)) }
            if distance < -loudnessDistance { found.append(.quieterThanMedian(by: -distance)) }
        }
        if let warnings = entry.warnings, !warnings.isEmpty { found.append(.repaired(defects: warnings.count)) }
        return found
    }
}
